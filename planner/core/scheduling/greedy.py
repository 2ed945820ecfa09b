"""First-fit construction: the always-available planner, the warm start and the benchmark baseline.

Loops are taken hardest first; each loop is packed in time from the earliest start that works, each
round staffed with the least-loaded free people who together cover its competencies and seat rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from planner.core.scheduling.availability import Calendar, FreeBlock, grid_starts
from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.problem import Interview, Interviewer, Loop, LoopPlan, Problem, Round, is_outside

# Bounds the combinations tried when picking a panel, so a pathological round cannot stall the build.
_PANEL_SEARCH_NODES = 4000


@dataclass(frozen=True)
class RoundPools:
    """People who may assess a round, and people who may take its trainee seat."""

    assessors: tuple[Interviewer, ...]
    trainees: tuple[Interviewer, ...]


def round_pools(problem: Problem, loop: Loop, rnd: Round, index: dict[str, tuple] | None = None) -> RoundPools:
    """Qualified assessors (in any of the round's competencies) and eligible trainees, in pool order."""
    index = index if index is not None else _skill_index(problem)
    qualified = {p.id for c in rnd.competencies for p in index.get(c, ((), ()))[0]}
    assessors = tuple(p for p in problem.interviewers if p.id in qualified)
    trainees: tuple[Interviewer, ...] = ()
    if rnd.trainee:
        learning = {p.id for c in rnd.competencies for p in index.get(c, ((), ()))[1]}
        trainees = tuple(p for p in problem.interviewers if p.id in learning)
    return RoundPools(assessors, trainees)


def _skill_index(problem: Problem) -> dict[str, tuple[list[Interviewer], list[Interviewer]]]:
    """competency -> (qualified people, trainees), so pools need not scan the whole pool per round."""
    index: dict[str, tuple[list[Interviewer], list[Interviewer]]] = {}
    for person in problem.interviewers:
        for competency in person.skills:
            qualified, learning = index.setdefault(competency, ([], []))
            (qualified if person.is_qualified(competency) else learning).append(person)
    return index


class CalendarFree:
    """Who of a round's pools has the time free in their calendar (working hours, busy blocks) at a start.

    Calendars never change while first-fit runs (seats are booked in the ledger and checked apart), and every
    round assessing the same competencies has the same pools, so this is worked out once per (competencies,
    start, minutes) instead of once per loop and start: first-fit of 200 loops asked the calendars a million
    times. Only for pools made by ``round_pools``.
    """

    def __init__(self, calendars: dict[str, Calendar]) -> None:
        self.calendars = calendars
        self.known: dict[tuple, list[tuple[Interviewer, FreeBlock]]] = {}

    def people(self, rnd: Round, role: str, people: tuple[Interviewer, ...], start: int) -> list:
        key = (rnd.competencies, role, start, rnd.minutes)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = _free_by_calendar(self.calendars, people, start, start + rnd.minutes)
        return found


def _free_by_calendar(calendars: dict[str, Calendar], people, start: int, end: int) -> list:
    """(person, block) of ``people`` whose calendar has ``[start, end)`` free (seats are checked apart)."""
    return [(p, b) for p in people if (b := calendars[p.id].block_for(start, end)) is not None]


def _candidates(ledger: Ledger, rnd: Round, role: str, people, start: int, calendar_free: CalendarFree | None):
    """``_free_by_calendar`` for a seat of ``rnd`` at ``start``, remembered when ``calendar_free`` is given."""
    if calendar_free is not None:
        return calendar_free.people(rnd, role, people, start)
    return _free_by_calendar(ledger.calendars, people, start, start + rnd.minutes)


def pick_panel(
    rnd: Round,
    loop: Loop,
    start: int,
    ledger: Ledger,
    pools: RoundPools,
    exclude: set[str],
    calendar_free: CalendarFree | None = None,
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Least-loaded assessors (and a trainee if one is free) for ``rnd`` at ``start``, or None."""
    end = start + rnd.minutes
    free = []
    for person, in_block in _candidates(ledger, rnd, "a", pools.assessors, start, calendar_free):
        if person.id in exclude:
            continue
        block = ledger.fits_in(person.id, in_block, start, end)
        if block is not None:
            key = (
                ledger.assessor_load(person.id, block.week),
                ledger.day_seats[(person.id, block.day)],
                person.id,
            )
            free.append((key, person))
    free.sort(key=lambda item: item[0])
    panel = _choose_panel(rnd, loop, [person for _, person in free])
    if panel is None:
        return None
    trainees: tuple[str, ...] = ()
    if rnd.trainee:
        chosen = set(panel)
        best = None
        for person, in_block in _candidates(ledger, rnd, "t", pools.trainees, start, calendar_free):
            if person.id in exclude or person.id in chosen:
                continue
            block = ledger.fits_in(person.id, in_block, start, end)
            if block is not None:
                key = (ledger.week_seats[(person.id, block.week)], person.id)
                if best is None or key < best[0]:
                    best = (key, person.id)
        if best is not None:
            trainees = (best[1],)
    return tuple(sorted(panel)), trainees


def _choose_panel(rnd: Round, loop: Loop, ordered: list[Interviewer]) -> list[str] | None:
    """First panel in least-loaded order that covers every competency and the outside-team rule."""
    need = rnd.interviewers
    if len(ordered) < need:
        return None
    comps = rnd.competencies
    qualified = [frozenset(c for c in comps if p.is_qualified(c)) for p in ordered]
    outside = [is_outside(p, loop) for p in ordered]
    nodes = 0
    chosen: list[int] = []

    def search(index: int, covered: frozenset[str], n_outside: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > _PANEL_SEARCH_NODES:
            return False
        slots_left = need - len(chosen)
        if slots_left == 0:
            return len(covered) == len(comps) and n_outside >= rnd.outside_hiring_team
        if rnd.outside_hiring_team - n_outside > slots_left or len(ordered) - index < slots_left:
            return False
        for pos in range(index, len(ordered) - slots_left + 1):
            chosen.append(pos)
            if search(pos + 1, covered | qualified[pos], n_outside + outside[pos]):
                return True
            chosen.pop()
            if nodes > _PANEL_SEARCH_NODES:
                return False
        return False

    if search(0, frozenset(), 0):
        return [ordered[pos].id for pos in chosen]
    return None


def _window_starts(loop: Loop, minutes: int, slot: int) -> Iterable[int]:
    for window in loop.windows:
        for g in grid_starts(window.start, window.end, minutes, slot):
            yield g * slot


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


def all_pools(problem: Problem) -> dict[str, dict[str, RoundPools]]:
    """Round pools of every loop: ``{loop_id: {round_id: RoundPools}}``."""
    index = _skill_index(problem)
    return {loop.id: {r.id: round_pools(problem, loop, r, index) for r in loop.rounds} for loop in problem.loops}


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


def fill_trainee_seats(
    problem: Problem, plans: list[LoopPlan], ledger: Ledger, pools: dict[str, dict[str, RoundPools]]
) -> list[LoopPlan]:
    """Give every empty trainee seat to a free eligible trainee (fewest seats that week first).

    Trainee seats carry no load, so this can only raise objective 3; ``ledger`` is updated.
    """
    filled = []
    for plan in plans:
        loop = problem.loop(plan.loop_id)
        used = {p for i in plan.interviews for p in i.interviewers + i.trainees}
        interviews = []
        for interview in plan.interviews:
            rnd = loop.round(interview.round_id)
            if rnd.trainee and not interview.trainees:
                best = None
                for person in pools[loop.id][rnd.id].trainees:
                    if person.id in used:
                        continue
                    block = ledger.fits(person.id, interview.start, interview.end)
                    if block is not None:
                        key = (ledger.week_seats[(person.id, block.week)], person.id)
                        if best is None or key < best[0]:
                            best = (key, person.id)
                if best is not None:
                    ledger.add(best[1], interview.start, interview.end, assessor=False)
                    used.add(best[1])
                    interview = Interview(
                        interview.round_id, interview.start, interview.end, interview.interviewers, (best[1],)
                    )
            interviews.append(interview)
        filled.append(LoopPlan(plan.loop_id, tuple(interviews), plan.reason, plan.fixes))
    return filled


def rebalance(
    problem: Problem,
    plans: list[LoopPlan],
    ledger: Ledger,
    pools: dict[str, dict[str, RoundPools]],
    max_rounds: int = 3,
) -> list[LoopPlan]:
    """Local search without a solver: swap an assessor for a free, less-loaded one while Σ load² drops.

    Every swap keeps coverage, the outside-team rule, caps and "nobody twice in a loop"; times stay.
    """
    plans = list(plans)
    for _ in range(max_rounds):
        changed = False
        for index, plan in enumerate(plans):
            loop = problem.loop(plan.loop_id)
            interviews = list(plan.interviews)
            for pos, interview in enumerate(interviews):
                for leaving in interview.interviewers:
                    better = _better_assessor(problem, loop, plans[index], interview, leaving, ledger, pools)
                    if better is None:
                        continue
                    ledger.remove(leaving, interview.start, interview.end, assessor=True)
                    ledger.add(better, interview.start, interview.end, assessor=True)
                    people = tuple(sorted({*interview.interviewers, better} - {leaving}))
                    interview = Interview(
                        interview.round_id, interview.start, interview.end, people, interview.trainees
                    )
                    interviews[pos] = interview
                    plans[index] = LoopPlan(plan.loop_id, tuple(interviews), plan.reason, plan.fixes)
                    changed = True
        if not changed:
            break
    return plans


def _better_assessor(problem, loop, plan, interview, leaving, ledger: Ledger, pools) -> str | None:
    rnd = loop.round(interview.round_id)
    in_loop = {p for i in plan.interviews for p in i.interviewers + i.trainees}
    leaving_block = ledger.calendars[leaving].block_for(interview.start, interview.end)
    old_load = ledger.assessor_load(leaving, leaving_block.week)
    staying = [ledger.calendars[p].person for p in interview.interviewers if p != leaving]
    best = None
    for person in pools[loop.id][rnd.id].assessors:
        if person.id in in_loop:
            continue
        block = ledger.fits(person.id, interview.start, interview.end)
        if block is None:
            continue
        load = ledger.assessor_load(person.id, block.week)
        # Moving one seat from a week holding ``old_load`` to one holding ``load`` changes Σ load² by
        # 2 * (load - old_load + 1); only strict improvements are taken, so the search ends.
        if load + 1 >= old_load:
            continue
        panel = [*staying, person]
        if not all(any(p.is_qualified(c) for p in panel) for c in rnd.competencies):
            continue
        if sum(is_outside(p, loop) for p in panel) < rnd.outside_hiring_team:
            continue
        if best is None or (load, person.id) < best[0]:
            best = ((load, person.id), person.id)
    return None if best is None else best[1]
