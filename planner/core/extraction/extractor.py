"""extract(): the competencies a posting asks for, each with the sentences that justify it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from planner.core.extraction.findings import Evidence, Finding, PhraseSpan, RunnerUp
from planner.core.extraction.matching import PhraseIndex, PhraseMatch
from planner.core.extraction.paraphrases import described, runner_up, yields_to
from planner.core.extraction.priority import sentence_stance, suggest_priority
from planner.core.extraction.profiles import ProfileIndex, ProfileMatch
from planner.core.extraction.scoring import (
    SentenceScore,
    combine,
    score_sentence,
    sentence_weight,
    with_description,
)
from planner.core.extraction.sentences import Sentence, split_sentences
from planner.core.library import CompetencyDef

DEFAULT_MIN_SCORE = 1.0
DEFAULT_MAX_EVIDENCE = 5


@dataclass(slots=True)
class _Claims:
    """What the sentences say, per competency, before findings are chosen."""

    scores: dict[str, list[SentenceScore]] = field(default_factory=lambda: defaultdict(list))
    #: Profile matches of every sentence that claims something, by the sentence's start offset.
    fits: dict[int, dict[str, ProfileMatch]] = field(default_factory=dict)
    #: For each competency, the competencies that gave way to it in one of its sentences.
    gave_way: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))


def extract(
    text: str,
    library: Sequence[CompetencyDef],
    *,
    min_score: float = DEFAULT_MIN_SCORE,
    max_evidence: int = DEFAULT_MAX_EVIDENCE,
    paraphrases: bool = True,
) -> list[Finding]:
    """Find the library's competencies in a posting, deterministically and offline.

    :param text: the posting text (any string; empty text finds nothing).
    :param library: the competency definitions to look for.
    :param min_score: the smallest score reported; 1.0 is one strong phrase in one responsibility.
    :param max_evidence: at most this many evidence sentences per finding, strongest first.
    :param paraphrases: also match sentences against each competency's description (see
        ``paraphrases``); False matches the library's phrases only.
    :return: findings ordered by score (highest first), then slug, each with its suggested
        priority and the reason (decided from the evidence kept, see ``priority``) and its
        runner-up.
    """
    phrase_index, profile_index = _indexes_for(tuple(library))
    by_slug = {c.slug: c for c in library}
    claims = _Claims()
    for sentence in split_sentences(text):
        weight = sentence_weight(sentence)
        fits = profile_index.matches(sentence.text, sentence.start) if paraphrases and weight else {}
        matches = phrase_index.matches(sentence.text, sentence.start)
        _read_sentence(sentence, weight, matches, fits, profile_index, claims)

    chosen = []
    for slug, scores in claims.scores.items():
        score = round(combine(scores), 2)
        if any(s.describes_job for s in scores) and score >= min_score:
            chosen.append((slug, score, [s for s in scores if s.justifies]))
    reported = {slug for slug, _score, _justifying in chosen}
    findings = [
        _finding(by_slug, slug, score, justifying, claims, reported, max_evidence)
        for slug, score, justifying in chosen
    ]
    findings.sort(key=lambda f: (-f.score, f.slug))
    return findings


def _read_sentence(
    sentence: Sentence,
    weight: float,
    matches: list[PhraseMatch],
    fits: dict[str, ProfileMatch],
    profiles: ProfileIndex,
    claims: _Claims,
) -> None:
    """Add one sentence's claims: phrase matches, close descriptions, and the claims that gave way."""
    grouped: dict[str, list[PhraseMatch]] = defaultdict(list)
    for match in matches:
        grouped[match.slug].append(match)
    scored = {slug: score_sentence(sentence, weight, tuple(found)) for slug, found in grouped.items()}
    close = described(fits)
    for match in close:
        base = scored.get(match.slug) or score_sentence(sentence, weight, ())
        scored[match.slug] = with_description(base, match.spans)
    for slug in sorted(scored):
        fit = fits[slug].weight if slug in fits else 0.0
        winner = yields_to(slug, scored[slug], fit, profiles.core(slug), close, scored)
        if winner is not None:
            del scored[slug]
            claims.gave_way[winner.slug].append(slug)
    if not scored:
        return
    claims.fits[sentence.start] = fits
    for slug, score in scored.items():
        claims.scores[slug].append(score)


def _finding(
    by_slug: dict[str, CompetencyDef],
    slug: str,
    score: float,
    justifying: list[SentenceScore],
    claims: _Claims,
    reported: set[str],
    max_evidence: int,
) -> Finding:
    """The finding of one chosen competency: evidence, suggested priority and runner-up."""
    justifying.sort(key=lambda s: (-s.strength, s.sentence.start))
    competency = by_slug[slug]
    kept = justifying[:max_evidence]
    evidence = tuple(_evidence(s) for s in kept)
    suggestion = suggest_priority(
        sentence_stance(s.sentence, [(span.start, span.end) for span in item.spans])
        for s, item in zip(kept, evidence, strict=True)
    )
    phrased = any(any(m.strong for m in s.matches) for s in justifying)
    by_description = any(s.described for s in justifying)
    matched_by = (
        "phrases and description" if phrased and by_description else "description" if by_description else "phrases"
    )
    alternative = runner_up(
        slug,
        [claims.fits.get(s.sentence.start, {}) for s in justifying],
        claims.gave_way.get(slug, []),
        reported,
    )
    runner = None
    if alternative is not None:
        if alternative.gave_way:
            reason = "it fits the same sentence, less closely"
        else:
            words = _shared_words(alternative.slug, justifying, claims)
            reason = f"the words {', '.join(repr(w) for w in words[:4])} fit it too"
        runner = RunnerUp(alternative.slug, by_slug[alternative.slug].name, reason)
    return Finding(
        slug,
        competency.name,
        competency.category,
        score,
        evidence,
        suggestion.priority,
        suggestion.reason,
        matched_by,
        runner,
    )


def _shared_words(slug: str, justifying: list[SentenceScore], claims: _Claims) -> list[str]:
    """The words of the evidence, as written, that ``slug``'s profile shares (first use of each, in order)."""
    seen: dict[str, str] = {}
    for scored in sorted(justifying, key=lambda s: s.sentence.start):
        match = claims.fits.get(scored.sentence.start, {}).get(slug)
        if match is None:
            continue
        for start, end in match.spans:
            word = scored.sentence.text[start - scored.sentence.start : end - scored.sentence.start]
            seen.setdefault(word.casefold(), word)
    return list(seen.values())


@lru_cache(maxsize=8)
def _indexes_for(library: tuple[CompetencyDef, ...]) -> tuple[PhraseIndex, ProfileIndex]:
    """Build (once per library) the phrase and profile indexes; the library is immutable, so caching is safe."""
    return PhraseIndex(library), ProfileIndex(library)


def _evidence(scored: SentenceScore) -> Evidence:
    """The evidence record of a sentence: its text, offsets, and the spans of what matched in it.

    Phrase spans come first; a sentence found by its description highlights the words it shares
    with the description (as supporting spans, unless a phrase already covers them).
    """
    sentence = scored.sentence
    spans = []
    for match in scored.matches:
        for start, end in match.spans:
            spans.append(PhraseSpan(match.phrase, start - sentence.start, end - sentence.start, match.strong))
    if scored.described:
        covered = [(s.start, s.end) for s in spans]
        for start, end in scored.described_spans:
            local = (start - sentence.start, end - sentence.start)
            if not any(a <= local[0] and local[1] <= b for a, b in covered):
                word = sentence.text[local[0] : local[1]]
                spans.append(PhraseSpan(word, local[0], local[1], False))
    spans.sort(key=lambda s: (s.start, s.end, s.phrase))
    return Evidence(sentence.text, sentence.start, sentence.end, tuple(spans))
