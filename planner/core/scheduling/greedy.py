"""First-fit construction: the always-available planner, the warm start and the benchmark baseline.

Loops are taken hardest first; each loop is packed in time from the earliest start that works, each
round staffed with the least-loaded free people who together cover its competencies and seat rules
(``panels``); ``local_search`` then fills trainee seats and, without the optimiser, evens out the load.
"""

from __future__ import annotations

from planner.core.scheduling.availability import Calendar, grid_starts
from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.panels import CalendarFree, RoundPools, all_pools, pick_panel
from planner.core.scheduling.problem import Interview, Loop, LoopPlan, Problem, Round


def place_loop(
    problem: Problem,
    loop: Loop,
    ledger: Ledger,
    pools: dict[str, RoundPools],
    calendar_free: CalendarFree | None = None,
) -> LoopPlan | None:
    """Pack ``loop`` at the earliest start that lets every round be staffed; None if first-fit fails."""
    slot = problem.slot_minutes
    # An ordered loop starts with its first round; otherwise any round may open the day.
    shortest = loop.rounds[0].minutes if loop.ordered else min(r.minutes for r in loop.rounds)
    order = list(loop.rounds) if loop.ordered else sorted(
        loop.rounds, key=lambda r: (len(pools[r.id].assessors), -r.minutes))
    answers = _Answers(loop, ledger, pools, calendar_free)
    tried: set[int] = set()
    for window in loop.windows:
        for g in grid_starts(window.start, window.end, shortest, slot):
            start = g * slot
            if start in tried:
                continue
            tried.add(start)
            plan = _pack_from(problem, loop, window.end, start, answers, order)
            if plan is not None:
                return plan
    return None


class _Answers:
    """``pick_panel`` answers while one loop is placed, and the grid starts known not to work.

    The ledger does not change while ``place_loop`` tries its first starts, so whether a round can be staffed
    at a start (with the loop's people so far excluded) is asked once; starts known to fail are jumped over.
    Without this, a loop that cannot be packed costs the square of its grid starts (slot 1, a two-day window:
    minutes instead of a fraction of a second). The answers are the same, so the plan is too.
    """

    def __init__(
        self, loop: Loop, ledger: Ledger, pools: dict[str, RoundPools], calendar_free: CalendarFree | None
    ) -> None:
        self.loop, self.ledger, self.pools, self.calendar_free = loop, ledger, pools, calendar_free
        self.panels: dict[tuple, tuple[tuple[str, ...], tuple[str, ...]] | None] = {}
        self.failed: dict[tuple, dict[int, int]] = {}  # (round, excluded) -> {grid index: next one to ask}

    def panel(self, rnd: Round, g: int, slot: int, excluded: frozenset[str]):
        key = (rnd.id, g, excluded)
        if key not in self.panels:
            self.panels[key] = pick_panel(
                rnd, self.loop, g * slot, self.ledger, self.pools[rnd.id], set(excluded), self.calendar_free
            )
        return self.panels[key]

    def next_to_ask(self, rnd: Round, excluded: frozenset[str], g: int) -> int:
        """The first grid index from ``g`` on not known to fail for ``rnd``."""
        failed = self.failed.get((rnd.id, excluded))
        if not failed:
            return g
        path = []
        while g in failed:
            path.append(g)
            g = failed[g]
        for index in path:  # later questions from these indexes jump straight here
            failed[index] = g
        return g

    def fail(self, rnd: Round, excluded: frozenset[str], g: int) -> None:
        self.failed.setdefault((rnd.id, excluded), {})[g] = g + 1


def _pack_from(problem, loop, window_end, first_start, answers: _Answers, order) -> LoopPlan | None:
    slot = problem.slot_minutes
    gap = loop.max_gap_minutes
    remaining = list(order)
    interviews: list[Interview] = []
    used: set[str] = set()
    cursor = first_start
    while remaining:
        latest = window_end if gap is None or not interviews else min(window_end, cursor + gap)
        first = -(-cursor // slot)
        last = latest // slot
        if not interviews:  # the first round starts at first_start itself
            last = min(last, first)
        excluded = frozenset(used)
        # Starts are taken in time order and, at each start, rounds in ``order``: the earliest start at which
        # any remaining round can be staffed wins, ties going to the first round in order. An ordered loop
        # only ever places its next round.
        candidates = remaining[:1] if loop.ordered else remaining
        ask = {rnd.id: answers.next_to_ask(rnd, excluded, first) for rnd in candidates}
        placed = None
        while placed is None:
            g = min(ask.values(), default=last + 1)
            if g > last:
                break
            for rnd in candidates:
                if ask[rnd.id] != g:
                    continue
                if g * slot + rnd.minutes > window_end:
                    ask[rnd.id] = last + 1  # no later start in this window fits it either
                    continue
                panel = answers.panel(rnd, g, slot, excluded)
                if panel is not None:
                    placed = (rnd, g * slot, panel)
                    break
                answers.fail(rnd, excluded, g)
                ask[rnd.id] = answers.next_to_ask(rnd, excluded, g + 1)
        if placed is None:
            return None
        rnd, start, (assessors, trainees) = placed
        interviews.append(Interview(rnd.id, start, start + rnd.minutes, assessors, trainees))
        used.update(assessors)
        used.update(trainees)
        remaining.remove(rnd)
        cursor = start + rnd.minutes
    return LoopPlan(loop.id, tuple(interviews))


def loop_difficulty(loop: Loop, pools: dict[str, RoundPools]) -> tuple:
    """Sort key putting the loops with the fewest qualified people and least window time first."""
    scarcity = min(len(pools[r.id].assessors) - r.interviewers for r in loop.rounds)
    window = sum(w.minutes for w in loop.windows) - loop.minutes
    return (scarcity, window)


def greedy_plans(problem: Problem, calendars: dict[str, Calendar], ledger: Ledger | None = None) -> list[LoopPlan]:
    """First-fit plan of every loop, in input order; unscheduled loops get an empty plan.

    :param ledger: seats already taken (e.g. by other loops); it is updated with the new seats.
    """
    ledger = ledger if ledger is not None else Ledger(calendars)
    pools = all_pools(problem)
    order = sorted(
        range(len(problem.loops)),
        key=lambda n: (loop_difficulty(problem.loops[n], pools[problem.loops[n].id]), n),
    )
    plans: dict[int, LoopPlan] = {}
    calendar_free = CalendarFree(calendars)
    for n in order:
        loop = problem.loops[n]
        plan = place_loop(problem, loop, ledger, pools[loop.id], calendar_free)
        if plan is None:
            plans[n] = LoopPlan(loop.id)
        else:
            ledger.add_plan(plan)
            plans[n] = plan
    return [plans[n] for n in range(len(problem.loops))]
