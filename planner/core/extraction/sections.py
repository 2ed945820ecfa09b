"""Section headings and boilerplate: which parts of a posting describe the job.

A requirement in "Key job responsibilities" counts fully; the same words in the company blurb
count half, and in the equal-opportunity statement, the salary table or the benefits list not at
all. Real postings glue headings to their neighbours ("...engineering teamPreferred qualification -
5+ years"), so headings are found by a lexicon rather than by line layout.
"""

from __future__ import annotations

import re
from enum import Enum


class Section(Enum):
    """What kind of text a posting section holds."""

    DUTIES = "duties"  # responsibilities, qualifications, "a day in the life"
    ABOUT = "about"  # the company, the team, the product
    BOILERPLATE = "boilerplate"  # legal text, pay, benefits, how to apply


_HEADINGS: dict[Section, tuple[str, ...]] = {
    Section.DUTIES: (
        r"(?:key |main |primary |core )?(?:job |role )?responsibilities",
        r"(?:basic|minimum|preferred|required|desired|additional|bonus) qualifications?",
        r"qualifications",
        r"requirements",
        r"(?:key |technical |required )?skills",
        r"what you(?:'|’)?ll do",
        r"what you will do",
        r"what you(?:'|’)?ll be doing",
        r"what you will be doing",
        r"what you(?:'|’)?ll bring",
        r"what you bring",
        r"what we(?:'|’)?re looking for",
        r"what we are looking for",
        r"who you are",
        r"about you",
        r"you have",
        r"you will",
        r"in this role,? you will",
        r"the role",
        r"your role",
        r"role overview",
        r"the job",
        r"a day in the life",
        r"nice to haves?",
        r"bonus points",
        r"duties",
        r"key duties",
        r"essential functions",
        r"job description",
        r"what you need",
        r"must haves?",
    ),
    Section.ABOUT: (
        r"about (?:us|the (?:team|company|product|role's team)|our team)",
        r"who we are",
        r"our mission",
        r"the team",
        r"why join us",
        r"company overview",
        r"meet the team",
    ),
    Section.BOILERPLATE: (
        r"benefits",
        r"perks(?: and benefits)?",
        r"what we offer",
        r"compensation(?: and benefits)?",
        r"salary(?: range)?",
        r"pay range",
        r"equal (?:employment )?opportunity(?: employer)?",
        r"eeo statement",
        r"how to apply",
        r"legal",
        r"accommodations?",
        r"privacy notice",
    ),
}

_HEADING_KIND: dict[str, Section] = {}


def _heading_regex() -> re.Pattern[str]:
    """One pattern for all headings, each in its own named group per section kind.

    The pattern is only tried where a heading can start (see ``_HEADING_START_RE``): trying ~70
    alternatives at every character would make a 1 MB posting take seconds.
    """
    groups = []
    for kind, patterns in _HEADINGS.items():
        groups.append(f"(?P<{kind.value}>{'|'.join(patterns)})")
    alternatives = "|".join(groups)
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
        kind = next(Section(name) for name, value in match.groupdict().items() if value is not None)
        start, end = match.span()
        while start < end and text[start].isspace():
            start += 1
        # A glued heading must start with a capital, or "leading an engineering team" would
        # read "team" as a heading inside an ordinary word run.
        if start > 0 and text[start - 1].isalpha() and not text[start].isupper():
            continue
        found.append((start, end, kind))
    return found


def is_boilerplate(sentence: str) -> bool:
    """Whether a sentence is legal, pay or benefits text wherever it appears."""
    return _BOILERPLATE_RE.search(sentence) is not None


def starts_boilerplate(sentence: str) -> bool:
    """Whether a sentence opens the legal tail of a posting (an equal-opportunity statement)."""
    return _STICKY_BOILERPLATE_RE.search(sentence) is not None
