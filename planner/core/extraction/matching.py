"""Find library phrases in a sentence, on normalised tokens, keeping character spans for highlighting."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from planner.core.extraction.normalise import Token, phrase_keys, tokenise
from planner.core.library import GAP_MARK, CompetencyDef

#: How many words may sit between the parts of a gapped phrase ("own ... customer").
MAX_GAP_WORDS = 4


@dataclass(frozen=True, slots=True)
class _Pattern:
    """One compiled phrase variant: its parts as token-key sequences."""

    slug: str
    phrase: str
    strong: bool
    parts: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class PhraseMatch:
    """A phrase found in a sentence: which competency, which phrase, and where (text offsets)."""

    slug: str
    phrase: str
    strong: bool
    first_token: int
    last_token: int
    spans: tuple[tuple[int, int], ...]


class PhraseIndex:
    """All phrases of a library, indexed by their first token for a single pass over each sentence."""

    def __init__(self, library: Sequence[CompetencyDef]) -> None:
        self._by_first: dict[str, list[_Pattern]] = defaultdict(list)
        for competency in library:
            for phrase, strong in _phrases_with_strength(competency):
                for pattern in _compile(competency.slug, phrase, strong):
                    self._by_first[pattern.parts[0][0]].append(pattern)

    def matches(self, text: str, offset: int = 0) -> list[PhraseMatch]:
        """Every phrase occurrence in ``text``; spans are offsets in ``text`` plus ``offset``."""
        tokens = tokenise(text, offset)
        found = []
        for index, token in enumerate(tokens):
            for pattern in self._by_first.get(token.key, ()):
                match = _match_at(pattern, tokens, index)
                if match is not None:
                    found.append(match)
        return _drop_contained(found)


def _phrases_with_strength(competency: CompetencyDef) -> list[tuple[str, bool]]:
    """The competency's phrases, each flagged strong (can justify alone) or supporting."""
    return [(p, True) for p in competency.strong_phrases] + [
        (p, False) for p in competency.supporting_phrases
    ]


def _compile(slug: str, phrase: str, strong: bool) -> list[_Pattern]:
    """Every token-key variant of a phrase (hyphen spellings multiply across gapped parts)."""
    variants: list[tuple[tuple[str, ...], ...]] = [()]
    for part in phrase.split(GAP_MARK):
        keys = phrase_keys(part)
        if not keys:
            return []  # a part made only of articles can never be found; the library check warns
        variants = [done + (key,) for done in variants for key in keys]
    return [_Pattern(slug, phrase, strong, parts) for parts in variants]


def _match_at(pattern: _Pattern, tokens: Sequence[Token], index: int) -> PhraseMatch | None:
    """Match the pattern with its first part starting at ``tokens[index]``, or return None."""
    spans = []
    position = index
    for part_number, part in enumerate(pattern.parts):
        window = (
            range(position, position + 1)
            if part_number == 0
            else range(position, min(position + MAX_GAP_WORDS + 1, len(tokens) - len(part) + 1))
        )
        start = next((i for i in window if _keys_equal(tokens, i, part)), None)
        if start is None:
            return None
        end = start + len(part)
        spans.append((tokens[start].start, tokens[end - 1].end))
        position = end
    return PhraseMatch(pattern.slug, pattern.phrase, pattern.strong, index, position - 1, tuple(spans))


def _keys_equal(tokens: Sequence[Token], start: int, part: tuple[str, ...]) -> bool:
    """Whether the tokens from ``start`` spell out ``part``."""
    if start + len(part) > len(tokens):
        return False
    return all(tokens[start + i].key == key for i, key in enumerate(part))


def _drop_contained(found: list[PhraseMatch]) -> list[PhraseMatch]:
    """Let the longest phrase speak for the words it covers.

    Within a competency, a match inside a longer one ("compiler" in "compiler features") adds
    nothing. Across competencies, a word inside a longer strong phrase means what the longer phrase
    means: "budget" in "error budgets" is reliability, "vision" in "computer vision" is machine
    learning. Only contiguous phrases claim words this way; a gapped phrase ("own ... customer")
    does not own the words in its gap.
    """
    kept: list[PhraseMatch] = []
    for match in sorted(found, key=lambda m: (m.first_token - m.last_token, m.first_token, not m.strong)):
        if not any(_covers(other, match) for other in kept):
            kept.append(match)
    return sorted(kept, key=lambda m: (m.first_token, m.slug, m.phrase))


def _covers(longer: PhraseMatch, shorter: PhraseMatch) -> bool:
    """Whether ``longer`` (already kept) makes ``shorter`` redundant; see ``_drop_contained``."""
    inside = longer.first_token <= shorter.first_token and shorter.last_token <= longer.last_token
    if not inside:
        return False
    if longer.slug == shorter.slug:
        return longer.strong or not shorter.strong
    strictly_longer = (longer.last_token - longer.first_token) > (shorter.last_token - shorter.first_token)
    return longer.strong and strictly_longer and len(longer.spans) == 1
