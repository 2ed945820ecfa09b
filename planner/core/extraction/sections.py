"""Section headings and boilerplate: which parts of a posting describe the job.

Job sections come in three kinds: what every candidate must bring (REQUIRED: "Basic
qualifications", "Requirements"), what would be welcome (PREFERRED: "Preferred qualifications",
"Nice to have") and what the job is (DUTIES: "Key job responsibilities"). They count the same
when scoring; the kind only sets the priority a competency is suggested with.

A requirement in "Key job responsibilities" counts fully; the same words in the company blurb
count half, and in the equal-opportunity statement, the salary table or the benefits list not at
all. Real postings glue headings to their neighbours ("...engineering teamPreferred qualification -
5+ years"), so headings are found by a lexicon rather than by line layout.
"""

from __future__ import annotations

import re
from enum import Enum


class Section(Enum):
    """What kind of text a posting section holds.

    REQUIRED, PREFERRED and DUTIES are all the job itself and weigh the same when scoring
    (``JOB_SECTIONS``); they differ only in the priority a competency found there is suggested with.
    """

    REQUIRED = "required"  # basic/minimum qualifications, requirements, "what we're looking for"
    PREFERRED = "preferred"  # preferred qualifications, nice to have, bonus points
    DUTIES = "duties"  # responsibilities, "a day in the life", the role, plain "skills"
    ABOUT = "about"  # the company, the team, the product
    BOILERPLATE = "boilerplate"  # legal text, pay, benefits, how to apply


#: Sections that describe the job (they count fully when scoring).
JOB_SECTIONS = frozenset({Section.REQUIRED, Section.PREFERRED, Section.DUTIES})

# (kind, pattern) in the order they are tried: the first alternative that matches wins, so the
# order is part of the behaviour (e.g. "required skills" before "skills").
_HEADINGS: tuple[tuple[Section, str], ...] = (
    (Section.DUTIES, r"(?:key |main |primary |core )?(?:job |role )?responsibilities"),
    (Section.REQUIRED, r"(?:basic|minimum|required) qualifications?"),
    (Section.PREFERRED, r"(?:preferred|desired|additional|bonus) qualifications?"),
    # A plain "Qualifications" list is what every candidate is asked for; its preferred items say
    # so ("... is a plus"), and that cue outweighs the heading (see ``priority``).
    (Section.REQUIRED, r"qualifications"),
    (Section.REQUIRED, r"requirements"),
    (Section.REQUIRED, r"required skills"),
    (Section.DUTIES, r"(?:key |technical )?skills"),
    (Section.DUTIES, r"what you(?:'|’)?ll do"),
    (Section.DUTIES, r"what you will do"),
    (Section.DUTIES, r"what you(?:'|’)?ll be doing"),
    (Section.DUTIES, r"what you will be doing"),
    (Section.REQUIRED, r"what you(?:'|’)?ll bring"),
    (Section.REQUIRED, r"what you bring"),
    (Section.REQUIRED, r"what we(?:'|’)?re looking for"),
    (Section.REQUIRED, r"what we are looking for"),
    (Section.REQUIRED, r"who you are"),
    (Section.REQUIRED, r"about you"),
    (Section.REQUIRED, r"you have"),
    (Section.DUTIES, r"you will"),
    (Section.DUTIES, r"in this role,? you will"),
    (Section.DUTIES, r"the role"),
    (Section.DUTIES, r"your role"),
    (Section.DUTIES, r"role overview"),
    (Section.DUTIES, r"the job"),
    (Section.DUTIES, r"a day in the life"),
    (Section.PREFERRED, r"nice to haves?"),
    (Section.PREFERRED, r"bonus points"),
    (Section.DUTIES, r"duties"),
    (Section.DUTIES, r"key duties"),
    (Section.DUTIES, r"essential functions"),
    (Section.DUTIES, r"job description"),
    (Section.REQUIRED, r"what you need"),
    (Section.REQUIRED, r"must haves?"),
    (Section.ABOUT, r"about (?:us|the (?:team|company|product|role's team)|our team)"),
    (Section.ABOUT, r"who we are"),
    (Section.ABOUT, r"our mission"),
    (Section.ABOUT, r"the team"),
    (Section.ABOUT, r"why join us"),
    (Section.ABOUT, r"company overview"),
    (Section.ABOUT, r"meet the team"),
    (Section.BOILERPLATE, r"benefits"),
    (Section.BOILERPLATE, r"perks(?: and benefits)?"),
    (Section.BOILERPLATE, r"what we offer"),
    (Section.BOILERPLATE, r"compensation(?: and benefits)?"),
    (Section.BOILERPLATE, r"salary(?: range)?"),
    (Section.BOILERPLATE, r"pay range"),
    (Section.BOILERPLATE, r"equal (?:employment )?opportunity(?: employer)?"),
    (Section.BOILERPLATE, r"eeo statement"),
    (Section.BOILERPLATE, r"how to apply"),
    (Section.BOILERPLATE, r"legal"),
    (Section.BOILERPLATE, r"accommodations?"),
    (Section.BOILERPLATE, r"privacy notice"),
)


def _heading_regex() -> re.Pattern[str]:
    """One pattern for all headings, each alternative in its own named group (``h<index>``).

    The pattern is only tried where a heading can start (see ``_HEADING_START_RE``): trying ~70
    alternatives at every character would make a 1 MB posting take seconds.
    """
    alternatives = "|".join(f"(?P<h{i}>{pattern})" for i, (_kind, pattern) in enumerate(_HEADINGS))
    # A heading ends with a colon, a dash, a line break, the end, or a glued capital ("lifeYou").
    after = r"(?=\s*[:\-–—]|[ \t]*(?:\n|$)|(?-i:[A-Z]))"
    return re.compile(f"[ \\t]*(?:{alternatives})[ \\t]*{after}", re.IGNORECASE)


_HEADING_RE = _heading_regex()
# Where a heading can start: after a line break or sentence punctuation, or glued to a lowercase
# word ("teamPreferred qualification").
_HEADING_START_RE = re.compile(r"\n|[.!?:;]|[a-z)](?=[A-Z])")


# Sentences that are boilerplate wherever they stand.
_BOILERPLATE_RE = re.compile(
    r"equal (?:employment )?opportunit|discriminat|without regard to|protected (?:veteran|status|class)"
    r"|reasonable accommodation|workplace accommodation|fair chance|criminal histor|arrest and conviction"
    r"|e-verify|salary|compensation|pay range|pay transparency|base pay|401\(?k\)?|health insurance"
    r"|dental|paid time off|parental leave|stock units|sign-on|relocat|visa sponsorship|qualified applicants"
    r"|county applicants|privacy (?:notice|policy)|recruiting partner|\bbenefits\b|\bUSD\b|per (?:year|hour)",
    re.IGNORECASE,
)
# Statements after which the rest of the posting is legal or HR text until the next heading.
_STICKY_BOILERPLATE_RE = re.compile(
    r"equal (?:employment )?opportunity|does not discriminate|without regard to|fair chance"
    r"|e-verify|pay transparency",
    re.IGNORECASE,
)


def find_headings(text: str) -> list[tuple[int, int, Section]]:
    """Return (start, end, kind) of each recognised section heading, in text order.

    A heading must be glued to its neighbours or stand on its own line; the same words inside a
    sentence ("the duties and responsibilities listed above") are not headings.
    """
    found: list[tuple[int, int, Section]] = []
    candidates = [0, *(m.end() for m in _HEADING_START_RE.finditer(text))]
    for position in candidates:
        if found and position < found[-1][1]:
            continue
        match = _HEADING_RE.match(text, position)
        if match is None:
            continue
        kind = _HEADINGS[int(match.lastgroup[1:])][0]
        start, end = match.span()
        while start < end and text[start].isspace():
            start += 1
        # A glued heading must start with a capital, or "leading an engineering team" would
        # read "team" as a heading inside an ordinary word run.
        if start > 0 and text[start - 1].isalpha() and not text[start].isupper():
            continue
        found.append((start, end, kind))
    return found


def heading_label(heading: str) -> str:
    """A heading as a page can quote it: spaces and trailing colons or dashes dropped, first letter up.

    ``"  basic qualifications:"`` gives ``"Basic qualifications"``.
    """
    label = " ".join(heading.split()).rstrip(":-–— ")
    return label[:1].upper() + label[1:]


def is_boilerplate(sentence: str) -> bool:
    """Whether a sentence is legal, pay or benefits text wherever it appears."""
    return _BOILERPLATE_RE.search(sentence) is not None


def starts_boilerplate(sentence: str) -> bool:
    """Whether a sentence opens the legal tail of a posting (an equal-opportunity statement)."""
    return _STICKY_BOILERPLATE_RE.search(sentence) is not None
