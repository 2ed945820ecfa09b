"""Who may sit in a round, and the least-loaded free panel for a round at a start.

Pools list the qualified assessors and eligible trainees of each round; ``pick_panel`` chooses from them
the people first-fit (and the local fixes after a decline) seat, covering every competency and the
outside-team rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.core.scheduling.availability import Calendar, FreeBlock
from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.problem import Interviewer, Loop, Problem, Round, is_outside

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


def all_pools(problem: Problem) -> dict[str, dict[str, RoundPools]]:
    """Round pools of every loop: ``{loop_id: {round_id: RoundPools}}``."""
    index = _skill_index(problem)
    return {loop.id: {r.id: round_pools(problem, loop, r, index) for r in loop.rounds} for loop in problem.loops}


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
