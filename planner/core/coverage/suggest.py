"""Suggest a loop plan: rounds that cover every must-have at its required coverage within a time budget.

How a plan is built:

1. Competencies are pooled by category (technical; behavioural; leadership). Each pool gets as few
   rounds as its rules allow: at least as many as its largest required coverage (each required round
   must be a distinct round) and at most three primary competencies per round.
2. Each competency is dealt, as a primary focus, to its ``required`` least-loaded rounds of the pool,
   which keeps rounds within one competency of each other in load.
3. Every round starts at 45 minutes (15 minutes per primary competency at three per round). When the
   separate pools do not fit the budget, behavioural and leadership share rounds, then everything
   does; the first grouping that fits wins.
4. Nice-to-haves join in posting order while they still fit; with a bench given, those nobody is
   qualified to assess are left out because no round could staff them.
5. Left-over budget lengthens the busiest rounds to 60 minutes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from planner.core.coverage.risks import MAX_PRIMARY_PER_ROUND
from planner.core.coverage.types import (
    BenchEntry,
    CompetencyReq,
    RoundCompetency,
    RoundPlan,
    SeatRules,
)
from planner.core.coverage.wording import counted, join_names
from planner.core.errors import ValidationFailed

BASE_MINUTES = 45
LONG_MINUTES = 60
STEP_MINUTES = 15

#: Groupings tried in order, from most separated to fully shared.
GROUPINGS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("technical",), ("behavioural",), ("leadership",)),
    (("technical",), ("behavioural", "leadership")),
    (("technical", "behavioural", "leadership"),),
)
#: Round kinds a round of each dominant category takes in turn.
KIND_CYCLES = {
    "technical": ("technical", "design"),
    "behavioural": ("behavioural",),
    "leadership": ("hiring-manager", "bar-raiser", "behavioural"),
}
#: Loop order: technical work first, the bar raiser last.
KIND_ORDER = ("screen", "technical", "design", "behavioural", "hiring-manager", "bar-raiser")
#: Ties for a round's dominant category go to the earlier one.
CATEGORY_PRECEDENCE = ("technical", "leadership", "behavioural")


@dataclass(frozen=True)
class _Draft:
    """A round before it has a kind, name and duration: just its primary competencies."""

    members: tuple[CompetencyReq, ...]


def minimum_rounds(competencies: Sequence[CompetencyReq]) -> int:
    """The fewest rounds that can hold every competency at its required coverage.

    Each competency needs ``required`` distinct rounds and a round holds at most three primaries.
    """
    if not competencies:
        return 0
    slots = sum(req.required for req in competencies)
    return max(max(req.required for req in competencies), math.ceil(slots / MAX_PRIMARY_PER_ROUND))


def suggest_plan(
    competencies: Sequence[CompetencyReq],
    budget_minutes: int,
    *,
    bench: Mapping[str, BenchEntry] | None = None,
) -> list[RoundPlan]:
    """Propose rounds covering every must-have in ``required`` distinct rounds within the budget.

    :param competencies: the posting's competencies, in posting order.
    :param budget_minutes: the most interview time the whole loop may take.
    :param bench: bench depth per slug; when given, nice-to-haves with nobody qualified are skipped.
    :return: rounds in loop order, each 45 or 60 minutes, at most three primary competencies each.
    :raise ValidationFailed: when there is nothing to plan, or the budget cannot hold the must-haves.
    """
    if not competencies:
        raise ValidationFailed("The posting has no competencies to plan rounds for.")
    if not isinstance(budget_minutes, int) or budget_minutes <= 0:
        raise ValidationFailed("The time budget must be a positive number of minutes.")
    slugs = [req.slug for req in competencies]
    if len(set(slugs)) != len(slugs):
        raise ValidationFailed("Each competency may appear only once in a plan suggestion.")

    must_haves = [req for req in competencies if req.is_must_have]
    chosen = list(must_haves)
    if _fit(chosen, budget_minutes) is None:
        raise ValidationFailed(_budget_sentence(must_haves, budget_minutes))
    for req in competencies:
        if req.is_must_have or not _staffable(req, bench):
            continue
        if _fit([*chosen, req], budget_minutes) is not None:
            chosen.append(req)
    # Keep posting order so names and round contents read in the order the posting lists them.
    chosen.sort(key=competencies.index)
    drafts = _fit(chosen, budget_minutes)
    if not drafts:
        # Only nice-to-haves, none of which fits (or is staffable): an empty plan would look like success.
        raise ValidationFailed(
            f"A budget of {budget_minutes} minutes cannot fit any competency at its required coverage.")
    return _finish(drafts, budget_minutes)


def _staffable(req: CompetencyReq, bench: Mapping[str, BenchEntry] | None) -> bool:
    if bench is None:
        return True
    entry = bench.get(req.slug)
    return entry is not None and entry.qualified > 0


def _budget_sentence(must_haves: list[CompetencyReq], budget: int) -> str:
    rounds = minimum_rounds(must_haves)
    slots = sum(req.required for req in must_haves)
    return (
        f"A budget of {budget} minutes cannot cover every must-have at its required coverage: "
        f"{counted(len(must_haves), 'must-have')} need {counted(slots, 'round slot')}, which takes at least "
        f"{counted(rounds, 'round')} of {BASE_MINUTES} minutes ({rounds * BASE_MINUTES} minutes)."
    )


def _fit(competencies: list[CompetencyReq], budget: int) -> list[_Draft] | None:
    """The most separated grouping whose rounds, at 45 minutes each, fit the budget; None if none does."""
    for grouping in GROUPINGS:
        drafts: list[_Draft] = []
        for categories in grouping:
            drafts.extend(_deal([req for req in competencies if req.category in categories]))
        if len(drafts) * BASE_MINUTES <= budget:
            return drafts
    return None


def _deal(pool: list[CompetencyReq]) -> list[_Draft]:
    """Deal each competency to its ``required`` least-loaded rounds (distinct rounds by construction)."""
    count = minimum_rounds(pool)
    bins: list[list[CompetencyReq]] = [[] for _ in range(count)]
    # Largest requirement first: dealing into least-loaded bins then keeps loads within one of each
    # other, so no round exceeds ceil(slots / rounds) <= three primaries.
    for req in sorted(pool, key=lambda item: (-item.required, not item.is_must_have, pool.index(item))):
        targets = sorted(range(count), key=lambda index: (len(bins[index]), index))[: req.required]
        for index in targets:
            bins[index].append(req)
    return [_Draft(tuple(sorted(members, key=pool.index))) for members in bins]


def _finish(drafts: list[_Draft], budget: int) -> list[RoundPlan]:
    """Give drafts kinds, names, keys and durations, in loop order."""
    turns: dict[str, int] = {}
    kinded: list[tuple[str, _Draft]] = []
    for draft in drafts:
        category = _dominant_category(draft)
        cycle = KIND_CYCLES[category]
        kinded.append((cycle[turns.get(category, 0) % len(cycle)], draft))
        turns[category] = turns.get(category, 0) + 1
    kinded.sort(key=lambda pair: KIND_ORDER.index(pair[0]))  # stable: dealing order within a kind

    minutes = [BASE_MINUTES] * len(kinded)
    spare = budget - BASE_MINUTES * len(kinded)
    # The busiest rounds gain time first: 20 minutes per primary beats 15 where evidence is thin.
    for index in sorted(range(len(kinded)), key=lambda i: -len(kinded[i][1].members)):
        if spare < LONG_MINUTES - BASE_MINUTES:
            break
        minutes[index] = LONG_MINUTES
        spare -= LONG_MINUTES - BASE_MINUTES

    rounds: list[RoundPlan] = []
    used_names: set[str] = set()
    kind_counts: dict[str, int] = {}
    for (kind, draft), length in zip(kinded, minutes, strict=True):
        kind_counts[kind] = kind_counts.get(kind, 0) + 1
        name = _unique(_round_name(kind, draft, kind_counts[kind] - 1), used_names)
        rounds.append(RoundPlan(
            key=f"{kind}-{kind_counts[kind]}",
            name=name,
            kind=kind,
            minutes=length,
            interviewers=1,
            competencies=tuple(RoundCompetency(req.slug, "primary") for req in draft.members),
            # A bar raiser is there to hold the bar from outside the hiring team.
            seat_rules=SeatRules(min_outside_team=1) if kind == "bar-raiser" else SeatRules(),
        ))
    return rounds


def _dominant_category(draft: _Draft) -> str:
    categories = [req.category for req in draft.members]
    return max(CATEGORY_PRECEDENCE, key=lambda c: (categories.count(c), -CATEGORY_PRECEDENCE.index(c)))


KIND_LABELS = {"technical": "Technical deep-dive", "design": "Design problem-solving",
               "behavioural": "Behavioural interview", "hiring-manager": "Hiring manager", "bar-raiser": "Bar raiser"}


def _round_name(kind: str, draft: _Draft, turn: int) -> str:
    members = [req.name for req in draft.members]
    if len(members) > 2:
        # Long lists make unreadable round names; the competencies are listed on the round anyway.
        return f"{KIND_LABELS[kind]}: {members[0]} + {len(members) - 1} more"
    names = join_names(members)
    if kind == "technical":
        return f"{names} deep-dive"
    if kind == "design":
        return f"{names} problem-solving"
    if kind == "behavioural":
        # A second behavioural round on the same ground asks about hypotheticals, not the past.
        return f"{names} {'situational' if turn % 2 else 'behavioural'} interview"
    if kind == "hiring-manager":
        return f"Hiring manager: {names}"
    return f"Bar raiser: {names}"


def _unique(name: str, used: set[str]) -> str:
    candidate, number = name, 2
    while candidate in used:
        candidate, number = f"{name} ({number})", number + 1
    used.add(candidate)
    return candidate
