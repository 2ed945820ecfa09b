"""The priority a found competency is suggested with (must-have or nice-to-have), and why.

Each evidence sentence takes a stance, decided in this order (the first rule that applies wins):

1. an explicit must cue ("must", "is required", "mandatory", "you'll need") or an explicit
   preference cue ("preferred", "nice to have", "a plus", "bonus", "ideally", "helpful, but not
   required") in the sentence itself; when it has both, the cue nearer the competency's phrase
   decides, and only cues in the same clause as the phrase count ("Python is required; Rust is a
   plus" requires Python and prefers Rust). **Words in the sentence outweigh its heading**:
   "Requirements: - Kubernetes is a plus" is a preference, because the author said so about this
   item, while the heading speaks for the whole list;
2. the section's heading: required-qualification headings ("Basic qualifications", "Requirements",
   "What we're looking for", "About you", ...) make it required, preferred ones ("Preferred
   qualifications", "Nice to have", "Bonus points") preferred;
3. a candidate-level cue outside the company blurb ("5+ years", "at least 3 years", "proven track
   record", "strong C++ skills", a bullet opening with "Strong"): required;
4. a soft wording ("familiarity with", "exposure to"): preferred;
5. otherwise (responsibilities, "a day in the life", the blurb, text before any heading): neutral.

A competency is suggested must-have when any of its evidence sentences is required, and
nice-to-have otherwise: a duty alone is left for the coordinator to confirm. The reason quotes the
deciding sentence's cue or heading ("says 'must'", "listed under Requirements").
"""

from __future__ import annotations

import enum
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from planner.core.extraction.sections import Section
from planner.core.extraction.sentences import Sentence, split_sentences

MUST_HAVE = "must-have"
NICE_TO_HAVE = "nice-to-have"
NO_CUE_REASON = "not stated as a requirement"


class Stance(enum.Enum):
    """What one sentence says about the competency it mentions."""

    REQUIRED = "required"
    PREFERRED = "preferred"
    NEUTRAL = "neutral"


@dataclass(frozen=True, slots=True)
class PrioritySuggestion:
    """The suggested priority (``MUST_HAVE`` or ``NICE_TO_HAVE``) and the reason, in a few words.

    ``source`` is the position, among the stances given, of the sentence the reason comes from
    (None when no sentence gave one), so a page can link the reason to that sentence.
    """

    priority: str
    reason: str
    source: int | None = None

    @property
    def must_have(self) -> bool:
        """Whether the suggestion is must-have."""
        return self.priority == MUST_HAVE


# Each pattern's named group ``q`` (or the whole match) is what the reason quotes.
_PREPOSITIONS = r"(?:to|for|in|and|or|but|as|on|at|by|with|from|if|when|unless|per|of)"
_MUST_RE = re.compile(
    r"\b(?P<q>must)\b"
    # "required" as a verdict ("is required", "Python required.", "required to"), not an adjective
    # ("make the required changes").
    rf"|\b(?P<q2>required)\b(?!\s+(?!{_PREPOSITIONS}\b)[a-z])"
    r"|\b(?P<q3>mandatory)\b"
    r"|\b(?:is|are)\s+(?:absolutely\s+)?(?P<q4>essential)\b"
    r"|\b(?P<q5>you(?:'ll|’ll| will)?\s+need)\b",
    re.IGNORECASE,
)
_PREFERENCE_RE = re.compile(
    r"\bnot\s+(?:strictly\s+|absolutely\s+)?(?:required|necessary|mandatory|a must)\b"
    r"|\bno\s+(?:[\w-]+\s+){0,3}?(?:required|necessary)\b"
    r"|\bpreferred\b|\bpreferably\b|\bpreference (?:for|to|will be given)\b"
    r"|\bnice[\s-]+to[\s-]+haves?\b|\bgood[\s-]+to[\s-]+have\b"
    r"|\b(?:a|an)\s+(?:(?:strong|big|huge|real|definite)\s+)?(?:plus|bonus|advantage)\b"
    r"|\bbonus\b|\bideally\b|\bdesirable\b|\bdesired\b|\badvantageous\b|\boptional\b"
    r"|\b(?:is|are|would be|will be)\s+(?:very\s+|also\s+|especially\s+)?(?P<q>helpful|beneficial|great)\b",
    re.IGNORECASE,
)
_NUMBER = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
_STRONG_NOUNS = (
    r"skills?|knowledge|experience|background|understanding|proficiency|command|grasp|foundations?"
    r"|expertise|track record|communicator|programmer|engineer"
)
_CANDIDATE_RE = re.compile(
    r"(?P<q>\b\d+\s*\+\s*years?)"
    rf"|(?P<q2>\b(?:at least|a minimum of|minimum(?: of)?)\s+{_NUMBER}\+?\s+years?)"
    r"|(?P<q3>\b(?:proven|demonstrated)\s+(?:track record|experience|ability|expertise|success))"
    rf"|\b(?P<q4>strong|solid|deep|extensive)\b(?=(?:\s+[\w+#/.&-]+){{0,5}}?\s+(?:{_STRONG_NOUNS})\b)"
    r"|^\s*(?P<q5>strong)\b(?!\s+plus)",
    re.IGNORECASE,
)
_SOFT_RE = re.compile(r"\b(?:familiarity with|familiar with|exposure to)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Cue:
    start: int
    end: int
    quote: str


def _cues(pattern: re.Pattern[str], text: str) -> list[_Cue]:
    found = []
    for match in pattern.finditer(text):
        group = next((name for name, value in match.groupdict().items() if value is not None), None)
        start, end = match.span(group) if group else match.span()
        found.append(_Cue(start, end, " ".join(text[start:end].lower().split())))
    return found


# Where one clause of a sentence ends and the next begins: "Terraform; Rust is a plus" or
# "Python is required, but Rust is a plus" ask for two things two ways.
_CLAUSE_BREAK_RE = re.compile(r";|\s[–—]\s|,\s*(?:but|while|whereas|and)\b|\s\(?but\b", re.IGNORECASE)


def _same_clause(text: str, cues: list[_Cue], spans: Sequence[tuple[int, int]]) -> list[_Cue]:
    """The cues in a clause that holds one of the competency's phrases (all of them without spans)."""
    if not spans or not cues:
        return cues
    breaks = [m.start() for m in _CLAUSE_BREAK_RE.finditer(text)]
    clauses = {bisect_right(breaks, start) for start, _end in spans}
    return [c for c in cues if bisect_right(breaks, c.start) in clauses]


def _distance(cue: _Cue, spans: Sequence[tuple[int, int]]) -> int:
    """Characters between a cue and the nearest matched phrase (0 when they touch or no spans)."""
    if not spans:
        return 0
    return min(max(start - cue.end, cue.start - end, 0) for start, end in spans)


def sentence_stance(sentence: Sentence, spans: Sequence[tuple[int, int]] = ()) -> tuple[Stance, str]:
    """The stance of one evidence sentence towards the competency matched at ``spans``, and why.

    :param sentence: the sentence, with the section and heading it sits under.
    :param spans: (start, end) of the competency's phrases, relative to ``sentence.text``.
    :return: the stance and its reason ("" when neutral and under no heading).
    """
    text = sentence.text
    preferences = _cues(_PREFERENCE_RE, text)
    # A must cue inside a preference ("not required") is no must cue.
    musts = [
        c for c in _cues(_MUST_RE, text) if not any(p.start <= c.start and c.end <= p.end for p in preferences)
    ]
    preferences, musts = _same_clause(text, preferences, spans), _same_clause(text, musts, spans)
    if musts or preferences:
        nearest_must = min(musts, key=lambda c: _distance(c, spans), default=None)
        nearest_pref = min(preferences, key=lambda c: _distance(c, spans), default=None)
        if nearest_pref is None or (
            nearest_must is not None and _distance(nearest_must, spans) <= _distance(nearest_pref, spans)
        ):
            return Stance.REQUIRED, f"says '{nearest_must.quote}'"
        return Stance.PREFERRED, f"says '{nearest_pref.quote}'"
    if sentence.section is Section.REQUIRED:
        return Stance.REQUIRED, f"listed under {sentence.heading}"
    if sentence.section is Section.PREFERRED:
        return Stance.PREFERRED, f"listed under {sentence.heading}"
    if sentence.section is not Section.ABOUT:
        candidate = _same_clause(text, _cues(_CANDIDATE_RE, text), spans)
        if candidate:
            return Stance.REQUIRED, f"says '{candidate[0].quote}'"
    soft = _same_clause(text, _cues(_SOFT_RE, text), spans)
    if soft:
        return Stance.PREFERRED, f"says '{soft[0].quote}'"
    return Stance.NEUTRAL, f"listed under {sentence.heading}" if sentence.heading else ""


def suggest_priority(stances: Iterable[tuple[Stance, str]]) -> PrioritySuggestion:
    """Must-have when any evidence sentence is required; nice-to-have otherwise.

    :param stances: each evidence sentence's stance and reason, strongest evidence first; the first
        required one (else the first preferred, else the first neutral one with a heading) gives the
        reason.
    """
    stances = list(stances)
    for wanted in (Stance.REQUIRED, Stance.PREFERRED, Stance.NEUTRAL):
        for position, (stance, reason) in enumerate(stances):
            if stance is wanted and reason:
                priority = MUST_HAVE if wanted is Stance.REQUIRED else NICE_TO_HAVE
                return PrioritySuggestion(priority, reason, position)
    return PrioritySuggestion(NICE_TO_HAVE, NO_CUE_REASON)


def sentences_by_offsets(text: str) -> dict[tuple[int, int], Sentence]:
    """The posting's sentences keyed by their (start, end) offsets, to look stored evidence up."""
    return {(s.start, s.end): s for s in split_sentences(text)}


def suggest_from_evidence(
    sentences: Mapping[tuple[int, int], Sentence],
    evidence: Iterable[tuple[int, int, Sequence[Sequence[int]]]],
) -> PrioritySuggestion | None:
    """The suggestion for stored evidence: (start, end, phrase spans) of each sentence, strongest first.

    ``source`` counts among all the evidence given, including sentences no longer in the text.

    :param sentences: from ``sentences_by_offsets(posting_text)``.
    :return: None when no evidence sentence is found in the text (none stored, or the text changed).
    """
    stances, positions = [], []
    for position, (start, end, spans) in enumerate(evidence):
        sentence = sentences.get((start, end))
        if sentence is not None:
            stances.append(sentence_stance(sentence, [(int(s), int(e)) for s, e in spans]))
            positions.append(position)
    if not stances:
        return None
    suggestion = suggest_priority(stances)
    if suggestion.source is None:
        return suggestion
    return PrioritySuggestion(suggestion.priority, suggestion.reason, positions[suggestion.source])
