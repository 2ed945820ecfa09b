"""Sentences that describe a competency in their own words, the specific entry over the generic one,
and the runner-up a coordinator may prefer.

The rules, in words:

- a sentence *describes* a competency when it shares with the competency's profile (name,
  description, phrases; see ``profiles``) at least two stems, one of them distinctive, and the
  shared stems weigh at least ``FIT_MIN``, one of them from what the competency *is* (its name or
  the head of its description), and the competency is among the sentence's best fits (within
  ``NEAR_TOP`` of the best). It then counts like a strong phrase;
- a competency claimed in a sentence by a single strong phrase, which the sentence does not
  describe, gives way to a competency the sentence does describe, when that one fits at least
  ``OUTRANK_RATIO`` times better and already speaks for the phrase's words (see ``yields_to``):
  "Take ownership of customer outcomes after the sale" is customer ownership, not the generic
  ownership. The competency that gave way is kept as the finding's runner-up;
- every finding names its *runner-up*: the competency not otherwise reported that fits its evidence
  best (one that gave way to it first, then the closest description), so the coordinator can
  switch in one click when the extractor chose the neighbour they did not mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from planner.core.extraction.profiles import ProfileMatch, phrase_stems
from planner.core.extraction.scoring import SentenceScore

#: Smallest weight of shared stems for a sentence to describe a competency.
FIT_MIN = 8.0
#: A described competency fits at least this share of the sentence's best fit.
NEAR_TOP = 0.9
MIN_STEMS = 2
MIN_DISTINCTIVE = 1
#: Shared stems from the competency's name or description head needed for a close description.
MIN_CORE = 1
#: How many times better a described competency must fit to outrank a one-phrase claim.
OUTRANK_RATIO = 1.5
#: Smallest weight of shared stems, over a finding's evidence, for a competency to be its runner-up.
RUNNER_UP_MIN = 6.0
#: What a competency that gave way to the finding in one of its sentences adds to its runner-up weight.
GAVE_WAY_BONUS = 100.0


@dataclass(frozen=True, slots=True)
class Alternative:
    """A competency close to a finding's evidence that was not reported itself."""

    slug: str
    weight: float
    stems: tuple[str, ...]
    gave_way: bool


def described(fits: Mapping[str, ProfileMatch]) -> list[ProfileMatch]:
    """The competencies a sentence describes in its own words, best fit first."""
    top = max((m.weight for m in fits.values()), default=0.0)
    close = [
        m
        for m in fits.values()
        if m.weight >= FIT_MIN
        and m.weight >= NEAR_TOP * top
        and len(m.stems) >= MIN_STEMS
        and m.distinctive >= MIN_DISTINCTIVE
        and m.core >= MIN_CORE
    ]
    return sorted(close, key=lambda m: (-m.weight, m.slug))


def yields_to(
    slug: str,
    claim: SentenceScore,
    fit: float,
    core: frozenset[str],
    close: Sequence[ProfileMatch],
    claims: Mapping[str, SentenceScore],
) -> ProfileMatch | None:
    """The described competency a claim gives way to, closest first, or None when it stands.

    Only a claim that rests on one strong phrase, and that the sentence does not also describe,
    yields; and only to a described competency that fits better and already speaks for the phrase's
    words: the phrase shares words with one of its phrases ("take ownership" beside "ownership of
    customer outcomes"), or, when it fits ``OUTRANK_RATIO`` times better, every word of the phrase
    is one it rests on and none of them names the claimant itself (``core``: its name and
    description head), as "customer" in a sentence about owning customers' outcomes. A phrase
    with words of its own ("hiring decisions" beside a people manager's duties, "coach" in "coach
    sales engineers on demos", "strategy" for Strategy and vision) is that competency's own
    evidence, and so are several phrases of one competency.
    """
    if claim.described:
        return None
    strong = [m for m in claim.matches if m.strong]
    if len({m.phrase for m in strong}) != 1:
        return None
    stems = {stem for m in strong for stem in phrase_stems(m.phrase)}
    mine = [span for m in strong for span in m.spans]
    for other in close:
        if other.slug == slug or other.weight < fit:
            continue
        outranks = other.weight >= OUTRANK_RATIO * max(fit, 1.0)
        if outranks and stems and stems <= set(other.stems) and not stems & core:
            return other
        theirs = [span for m in claims[other.slug].matches if m.strong for span in m.spans]
        if any(a < d and c < b for a, b in mine for c, d in theirs):
            return other
    return None


def runner_up(
    slug: str,
    evidence_fits: Sequence[Mapping[str, ProfileMatch]],
    gave_way: Sequence[str],
    reported: set[str],
) -> Alternative | None:
    """The best alternative to a finding: not reported itself, closest to the finding's evidence.

    :param evidence_fits: the profile matches of each sentence that justifies the finding.
    :param gave_way: competencies whose claim in one of those sentences yielded to this finding.
    :param reported: every competency the posting reports (none of them is an alternative).
    """
    weights: dict[str, float] = {}
    stems: dict[str, set[str]] = {}
    for fits in evidence_fits:
        for other, match in fits.items():
            if len(match.stems) < MIN_STEMS:
                continue
            weights[other] = weights.get(other, 0.0) + match.weight
            stems.setdefault(other, set()).update(match.stems)
    for other in gave_way:
        weights[other] = weights.get(other, 0.0) + GAVE_WAY_BONUS
    candidates = [
        (weight, other) for other, weight in weights.items() if other != slug and other not in reported
    ]
    candidates = [(w, o) for w, o in candidates if w >= RUNNER_UP_MIN]
    if not candidates:
        return None
    weight, best = min(candidates, key=lambda c: (-c[0], c[1]))
    gave = best in gave_way
    return Alternative(
        best,
        round(weight - (GAVE_WAY_BONUS if gave else 0.0), 2),
        tuple(sorted(stems.get(best, ()))),
        gave,
    )
