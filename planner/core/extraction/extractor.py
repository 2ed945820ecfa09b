"""extract(): the competencies a posting asks for, each with the sentences that justify it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import lru_cache

from planner.core.extraction.findings import Evidence, Finding, PhraseSpan
from planner.core.extraction.matching import PhraseIndex, PhraseMatch
from planner.core.extraction.priority import sentence_stance, suggest_priority
from planner.core.extraction.scoring import SentenceScore, combine, score_sentence, sentence_weight
from planner.core.extraction.sentences import split_sentences
from planner.core.library import CompetencyDef

DEFAULT_MIN_SCORE = 1.0
DEFAULT_MAX_EVIDENCE = 5


def extract(
    text: str,
    library: Sequence[CompetencyDef],
    *,
    min_score: float = DEFAULT_MIN_SCORE,
    max_evidence: int = DEFAULT_MAX_EVIDENCE,
) -> list[Finding]:
    """Find the library's competencies in a posting, deterministically and offline.

    :param text: the posting text (any string; empty text finds nothing).
    :param library: the competency definitions to look for.
    :param min_score: the smallest score reported; 1.0 is one strong phrase in one responsibility.
    :param max_evidence: at most this many evidence sentences per finding, strongest first.
    :return: findings ordered by score (highest first), then slug, each with its suggested
        priority and the reason (decided from the evidence kept, see ``priority``).
    """
    index = _index_for(tuple(library))
    by_slug = {c.slug: c for c in library}
    per_competency: dict[str, list[SentenceScore]] = defaultdict(list)
    for sentence in split_sentences(text):
        matches = index.matches(sentence.text, sentence.start)
        if not matches:
            continue
        weight = sentence_weight(sentence)
        grouped: dict[str, list[PhraseMatch]] = defaultdict(list)
        for match in matches:
            grouped[match.slug].append(match)
        for slug, slug_matches in grouped.items():
            per_competency[slug].append(score_sentence(sentence, weight, tuple(slug_matches)))

    findings = []
    for slug, scores in per_competency.items():
        justifying = [s for s in scores if s.justifies]
        score = round(combine(scores), 2)
        if not any(s.describes_job for s in scores) or score < min_score:
            continue
        justifying.sort(key=lambda s: (-s.strength, s.sentence.start))
        competency = by_slug[slug]
        kept = justifying[:max_evidence]
        evidence = tuple(_evidence(s) for s in kept)
        suggestion = suggest_priority(
            sentence_stance(s.sentence, [(span.start, span.end) for span in item.spans])
            for s, item in zip(kept, evidence, strict=True)
        )
        findings.append(
            Finding(
                slug,
                competency.name,
                competency.category,
                score,
                evidence,
                suggestion.priority,
                suggestion.reason,
            )
        )
    findings.sort(key=lambda f: (-f.score, f.slug))
    return findings


@lru_cache(maxsize=8)
def _index_for(library: tuple[CompetencyDef, ...]) -> PhraseIndex:
    """Build (once per library) the phrase index; the library is immutable, so caching is safe."""
    return PhraseIndex(library)


def _evidence(scored: SentenceScore) -> Evidence:
    """The evidence record of a sentence: its text, offsets, and phrase spans relative to it."""
    sentence = scored.sentence
    spans = []
    for match in scored.matches:
        for start, end in match.spans:
            spans.append(PhraseSpan(match.phrase, start - sentence.start, end - sentence.start, match.strong))
    spans.sort(key=lambda s: (s.start, s.end, s.phrase))
    return Evidence(sentence.text, sentence.start, sentence.end, tuple(spans))
