"""Turn phrase matches into scored findings: how much each sentence counts, and how they add up.

The rules, in words:

- a sentence counts fully in the responsibilities and qualifications, or when it speaks to the
  candidate ("you will", "experience with", a bullet item); half in the company and team blurb;
  not at all in legal, pay and benefits text;
- within a sentence, the first strong phrase counts 1, each further distinct strong phrase 0.25,
  each supporting phrase 0.1; supporting phrases alone count at most 0.3;
- sentences add up with diminishing returns (the n-th strongest sentence counts 0.6**n), so a
  competency named once in a responsibility scores 1.0 and one repeated throughout scores more;
- a sentence that describes a competency in its own words, close to the library's description of
  it (see ``profiles`` and ``paraphrases``), counts like one strong phrase;
- a competency is reported only with at least one strong phrase or close description in a sentence
  that counts fully: a company that "builds compilers" in its blurb is not asking a recruiter for
  compiler design.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from planner.core.extraction.matching import PhraseMatch
from planner.core.extraction.sections import JOB_SECTIONS, Section, is_boilerplate
from planner.core.extraction.sentences import Sentence

FULL_WEIGHT = 1.0
BLURB_WEIGHT = 0.5
EXTRA_STRONG_PHRASE = 0.25
SUPPORTING_PHRASE = 0.1
SUPPORTING_ONLY_CAP = 0.3
STRONG_SENTENCE_CAP = 2.0
DECAY = 0.6
DESCRIBED_STRENGTH = 1.0

# Words that show a sentence is about the candidate or the job, not about the company.
_REQUIREMENT_CUE_RE = re.compile(
    r"\b(?:you|your|you'll|you’ll|we're looking|we are looking|looking for|seeking|experience|experienced"
    r"|ability|able to|must|required|requires|preferred|(?:be|are) responsible for|proficien|familiar"
    r"|knowledge|expertise"
    r"|skill|track record|proven|demonstrated|years|degree|will|candidate|qualif|background in|hands-on)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class SentenceScore:
    """How strongly one sentence supports one competency, with the matches behind it."""

    sentence: Sentence
    weight: float
    strength: float
    matches: tuple[PhraseMatch, ...]
    #: The sentence describes the competency closely enough to count without a strong phrase.
    described: bool = False
    #: Where the sentence says the words it shares with the competency's description (text offsets).
    described_spans: tuple[tuple[int, int], ...] = ()

    @property
    def justifies(self) -> bool:
        """Whether this sentence can serve as evidence (a strong phrase or a close description)."""
        return self.strength > 0 and (self.described or any(m.strong for m in self.matches))

    @property
    def describes_job(self) -> bool:
        """Whether this sentence is evidence about the job itself, not the company blurb."""
        return self.justifies and self.weight >= FULL_WEIGHT


def sentence_weight(sentence: Sentence) -> float:
    """How much a sentence counts, from its section, its bullet status and its wording."""
    if sentence.section is Section.BOILERPLATE or is_boilerplate(sentence.text):
        return 0.0
    if sentence.section in JOB_SECTIONS or sentence.bullet:
        return FULL_WEIGHT
    if sentence.section is None and _REQUIREMENT_CUE_RE.search(sentence.text):
        return FULL_WEIGHT
    return BLURB_WEIGHT


def score_sentence(sentence: Sentence, weight: float, matches: tuple[PhraseMatch, ...]) -> SentenceScore:
    """Score one sentence's matches for one competency."""
    strong = {m.phrase for m in matches if m.strong}
    supporting = {m.phrase for m in matches if not m.strong}
    if strong:
        raw = 1 + EXTRA_STRONG_PHRASE * (len(strong) - 1) + SUPPORTING_PHRASE * len(supporting)
        raw = min(raw, STRONG_SENTENCE_CAP)
    else:
        raw = min(SUPPORTING_PHRASE * len(supporting), SUPPORTING_ONLY_CAP)
    return SentenceScore(sentence, weight, weight * raw, matches)


def with_description(score: SentenceScore, spans: tuple[tuple[int, int], ...]) -> SentenceScore:
    """The sentence's score once it is known to describe the competency in its own words.

    A close description counts like one strong phrase; with phrases that already count more, it
    adds nothing but the highlighted words.
    """
    strength = max(score.strength, score.weight * DESCRIBED_STRENGTH)
    return SentenceScore(score.sentence, score.weight, strength, score.matches, True, spans)


def combine(scores: list[SentenceScore]) -> float:
    """Total score of a competency: sentence strengths added with diminishing returns."""
    strengths = sorted((s.strength for s in scores), reverse=True)
    return sum(strength * DECAY**rank for rank, strength in enumerate(strengths))
