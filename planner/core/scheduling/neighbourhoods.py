"""Which loops the large-neighbourhood search re-plans together.

Neighbourhoods of loops close in time (they compete for the same people), the wider circle around a loop
still unplaced, and the independent parts of a problem (no shared person-week) that are improved apart.
"""

from __future__ import annotations

import random
from bisect import bisect_left

from planner.core.scheduling.availability import Calendar, Week
from planner.core.scheduling.panels import RoundPools
from planner.core.scheduling.problem import LoopPlan, Problem


def time_order(problem: Problem, part: list[int]) -> list[int]:
    """Loop indices by the start of their first window (then input order): neighbours in time compete."""
    return sorted(part, key=lambda n: (min(w.start for w in problem.loops[n].windows), n))


def time_neighbourhoods(problem: Problem, order: list[int], size: int, shift: int, rng: random.Random | None):
    """Groups of ``size`` loops of ``order``: consecutive from ``shift`` on, or with ``rng`` random runs of
    loops close in time."""
    if rng is not None:
        # Random groups of loops that are close in time, so that they compete for the same people.
        spread = order[:]
        groups = []
        while spread:
            anchor = rng.randrange(len(spread))
            lo = max(0, min(anchor - size // 2, len(spread) - size))
            groups.append(spread[lo : lo + size])
            del spread[lo : lo + size]
        return groups
    shifted = order[shift:] + order[:shift]
    return [shifted[n : n + size] for n in range(0, len(shifted), size)]


def unscheduled_first(groups: list[list[int]], plans: list[LoopPlan]) -> list[list[int]]:
    """Neighbourhoods holding an unscheduled loop first, otherwise in the same order.

    Loops come first in the objective, so a time limit should cut fairness work rather than the search
    for a place for every candidate.
    """
    return sorted(groups, key=lambda members: all(plans[n].scheduled for n in members))


def related_group(
    problem: Problem,
    pools: dict[str, dict[str, RoundPools]],
    plans: list[LoopPlan],
    n: int,
    order: list[int],
    size: int,
) -> list[int]:
    """The unscheduled loop ``n`` with the ``size - 1`` scheduled loops whose seats stand most in its way.

    Time-ordered neighbourhoods hold a loop's neighbours in time, but a loop may be blocked by people
    who could sit in it and are at their cap, or busy, because of loops on other days of the week. A seat
    of such a person counts 2 when it falls inside one of the loop's windows and 1 when it starts within a
    week of one; the loops with the most weight join it (ties: nearest in time, then input order).
    """
    loop = problem.loops[n]
    people = {p.id for rp in pools[loop.id].values() for p in (*rp.assessors, *rp.trainees)}
    week = 7 * 24 * 60

    def distance(minute: int) -> int:
        return min(max(0, w.start - minute, minute - w.end + 1) for w in loop.windows)

    ranked = []
    for other in order:
        if other == n or not plans[other].scheduled:
            continue
        weight = 0
        for interview in plans[other].interviews:
            gap = distance(interview.start)
            if gap < week:
                seated = sum(1 for p in (*interview.interviewers, *interview.trainees) if p in people)
                weight += seated * (2 if gap == 0 else 1)
        if weight:
            ranked.append((-weight, min(distance(i.start) for i in plans[other].interviews), other))
    return [n] + [other for _weight, _distance, other in sorted(ranked)[: size - 1]]


def independent_components(
    problem: Problem, calendars: dict[str, Calendar], pools: dict[str, dict[str, RoundPools]]
) -> list[list[int]]:
    """Loop indices grouped so that no two groups can seat the same person in the same ISO week.

    Days belong to one week, so groups also never share a (person, local day) cap or a free block:
    a plan change in one group changes nothing another group's model sees.
    """
    loops = problem.loops
    parent = list(range(len(loops)))

    def find(n: int) -> int:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    owner: dict[tuple[str, Week], int] = {}
    for n, loop in enumerate(loops):
        people = {
            person.id
            for round_pools in pools[loop.id].values()
            for person in (*round_pools.assessors, *round_pools.trainees)
        }
        for person_id in sorted(people):
            calendar = calendars[person_id]
            blocks, starts = calendar.blocks, calendar.block_starts
            for window in loop.windows:
                index = bisect_left(starts, window.end) - 1
                while index >= 0 and blocks[index].end > window.start:
                    key = (person_id, blocks[index].week)
                    other = owner.setdefault(key, n)
                    if other != n:
                        parent[find(n)] = find(other)
                    index -= 1
    groups: dict[int, list[int]] = {}
    for n in range(len(loops)):
        groups.setdefault(find(n), []).append(n)
    return sorted(groups.values(), key=lambda group: group[0])


def pass_groups(
    problem: Problem,
    pools: dict[str, dict[str, RoundPools]],
    plans: list[LoopPlan],
    order: list[int],
    size: int,
    pass_number: int,
    rng: random.Random,
    escalation: tuple[int, int] | None = None,
) -> list[list[int]]:
    """The neighbourhoods of pass ``pass_number`` over the loops ``order`` (time order), ``size`` loops each.

    The first two passes take loops consecutive in time (the second shifted by half a neighbourhood), later
    ones random runs of loops close in time. ``escalation`` (circle, steps): the loops still unplaced are
    re-planned instead, the first ``steps`` of them, each with up to ``circle`` loops in its way.
    """
    count = len(order)
    shift = (pass_number * size // 2) % count if pass_number < 2 else 0
    groups = time_neighbourhoods(problem, order, size, shift, rng if pass_number >= 2 else None)
    if pass_number == 0:
        return unscheduled_first(groups, plans)
    if escalation is not None:
        # Loops are still unplaced: each is re-planned with a wider circle of the loops in its way, for
        # loops alone (fairness and seats made CP-SAT spend the step improving the load instead of
        # finding the one placement: the tight fixture of seed 2 placed its 40th loop only this way).
        # The passes after it restore the fair load around the new placements.
        circle, steps = escalation
        return [related_group(problem, pools, plans, n, order, circle) for n in order if not plans[n].scheduled][:steps]
    if size < count:
        # A loop still unplaced after the first pass is next re-planned with the loops holding the
        # people it needs, wherever they are in the week (tight 40-loop family, 3 fixtures x 3 seeds:
        # 350 loops instead of 345, median 2.9 s instead of 1.9 s; from the first pass on: 347).
        return [related_group(problem, pools, plans, n, order, size) for n in order if not plans[n].scheduled] + groups
    return groups
