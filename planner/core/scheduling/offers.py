"""Offered start times: every start at which one whole loop can be staffed, each with the plan that staffs it.

What a candidate choosing their own time is shown. From each start the loop is packed with the first-fit
rules of :mod:`.greedy`: the first round starts exactly then, every next round at the earliest start
where it can be staffed (rounds with the fewest qualified people first), each panel the least-loaded
qualified people free then, within caps, seat rules, the gap limit and the candidate's windows, sparing
the few people a later round cannot do without; when that path dead-ends, a small bounded search
backtracks (other rounds next, other panels). A start is offered only together with such a plan, so every
offer can be handed to the validator as it stands; a start where the bounded search finds no plan is not
offered (it may miss a start only a wider search could staff, never offer one nobody can).

The calendars do not change while the starts are tried, so a round's panel at a time is asked once
(:class:`_Panels`): with nobody of the loop excluded first, and the answer reused whenever it seats
nobody the loop already holds.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from planner.core.scheduling.availability import build_calendars, grid_starts
from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.panels import CalendarFree, RoundPools, all_pools, pick_panel
from planner.core.scheduling.problem import Interview, Loop, LoopPlan, Problem, Round

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NOBODY: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Offer:
    """A start (UTC minute of the first round) and the plan that staffs the whole loop from it."""

    start: int
    plan: LoopPlan

    @property
    def end(self) -> int:
        return max(i.end for i in self.plan.interviews)


class _Panels:
    """``pick_panel`` answers for one loop against fixed calendars, keyed by round, grid index and exclusions."""

    def __init__(self, problem: Problem, loop: Loop, pools: dict[str, RoundPools]) -> None:
        calendars = build_calendars(problem)
        self.loop, self.pools, self.slot = loop, pools, problem.slot_minutes
        self.ledger = Ledger(calendars)
        self.calendar_free = CalendarFree(calendars)
        self.known: dict[tuple, tuple[tuple[str, ...], tuple[str, ...]] | None] = {}

    def _ask(self, rnd: Round, g: int, excluded: frozenset[str]):
        key = (rnd.id, g, excluded)
        if key not in self.known:
            self.known[key] = pick_panel(rnd, self.loop, g * self.slot, self.ledger, self.pools[rnd.id],
                                         set(excluded), self.calendar_free)
        return self.known[key]

    def panel(self, rnd: Round, g: int, excluded: frozenset[str]):
        """Assessors and trainees for ``rnd`` at grid index ``g`` with ``excluded`` people taken, or None.

        The answer with nobody excluded decides most questions: no panel then means none with fewer people
        either, and a panel seating none of ``excluded`` is the very one ``pick_panel`` would pick without
        them (it takes the first fitting panel in least-loaded order, and leaving out people it passed over
        changes neither that order nor that panel).
        """
        free = self._ask(rnd, g, _NOBODY)
        if free is None or not excluded:
            return free
        assessors, trainees = free
        if excluded.isdisjoint(assessors) and excluded.isdisjoint(trainees):
            return free
        return self._ask(rnd, g, excluded)


class _Grid:
    """The grid starts of each round length inside the loop's windows, with each window's local day."""

    def __init__(self, loop: Loop, slot: int, zone: ZoneInfo) -> None:
        self.slot = slot
        windows = sorted(loop.windows, key=lambda w: w.start)
        days = [(_EPOCH + timedelta(minutes=w.start)).astimezone(zone).date().toordinal() for w in windows]
        self.starts: dict[int, list[int]] = {}
        self.days: dict[int, list[int]] = {}
        #: Local day -> end (UTC minute) of its last window: no round of a one-day loop ends later.
        self.day_ends: dict[int, int] = {}
        for window, day in zip(windows, days, strict=True):
            self.day_ends[day] = max(self.day_ends.get(day, window.end), window.end)
        for minutes in {r.minutes for r in loop.rounds}:
            starts, start_days = [], []
            for window, day in zip(windows, days, strict=True):
                for g in grid_starts(window.start, window.end, minutes, slot):
                    starts.append(g)
                    start_days.append(day)
            self.starts[minutes], self.days[minutes] = starts, start_days

    def index(self, minutes: int, g: int) -> int:
        """Position of the first grid start at or after index ``g`` for a round of ``minutes``."""
        return bisect_left(self.starts[minutes], g)

    def holds(self, minutes: int, g: int) -> bool:
        starts = self.starts[minutes]
        at = bisect_left(starts, g)
        return at < len(starts) and starts[at] == g

    def day(self, minutes: int, g: int) -> int:
        return self.days[minutes][bisect_left(self.starts[minutes], g)]


def offers(problem: Problem, loop_id: str, *, starts: Iterable[int] | None = None, step: int | None = None,
           earliest: int | None = None, max_days: int = 1) -> list[Offer]:
    """Every start at which the loop ``loop_id`` can be staffed whole, with the plan for each, in time order.

    :param starts: the starts (UTC minutes) to try; by default every grid start inside the loop's windows.
    :param step: only default starts on whole multiples of this many minutes (from 00:00 UTC) are tried.
    :param earliest: no default start before this UTC minute.
    :param max_days: the rounds lie within this many of the candidate's local days, counted from the day of
        the first round (rounds go to later days only when the loop's gap limit allows such breaks).
    """
    loop = problem.loop(loop_id)
    slot = problem.slot_minutes
    zone = ZoneInfo(loop.candidate.get("timezone") or "UTC")
    pools = all_pools(problem)[loop.id]
    # Scarcest first, unless the loop keeps its listed order (then only the next round in it may come next).
    order = list(loop.rounds) if loop.ordered else sorted(loop.rounds, key=lambda r: (len(pools[r.id].assessors),
                                                                                      -r.minutes))
    grid = _Grid(loop, slot, zone)
    panels = _Panels(problem, loop, pools)
    if starts is None:
        shortest = min(r.minutes for r in loop.rounds)
        step = max(step or slot, slot)
        starts = [g * slot for g in grid.starts[shortest]
                  if (earliest is None or g * slot >= earliest) and (g * slot) % step == 0]
    found = []
    for start in sorted(set(starts)):
        if start % slot:
            continue
        plan = _pack(loop, start // slot, order, grid, panels, max_days)
        if plan is not None:
            found.append(Offer(start, plan))
    return found


#: Placements tried from one start beyond one per round (the first path tried is first-fit with look-ahead).
BACKTRACKS = 14
#: Alternatives tried at each step: the earliest placements of the remaining rounds, and other panels.
BRANCHES = 4
#: A one-seat round that at most this many people can staff alone has them spared by earlier rounds.
RESERVE = 3


def _pack(loop: Loop, first: int, order: list[Round], grid: _Grid, panels: _Panels,
          max_days: int, nodes: int | None = None) -> LoopPlan | None:
    """The loop packed from grid index ``first`` (one round starts exactly then), or None.

    The first path tried is first-fit with one look-ahead: a panel spares, where it can, the few people who
    alone can staff a one-seat round still to come. When that path dead-ends (typically: a panel chosen early took the
    only person a later round needs, as with one person qualified in both halves of a two-competency
    round), a bounded depth-first search backtracks: at each step it also tries the next-earliest
    placements and panels without the people the first choice seated. ``nodes`` bounds the placements
    tried, so a start nobody can staff costs a fixed amount of work.
    """
    budget = [len(order) + BACKTRACKS if nodes is None else nodes]
    solo = _solo_coverers(order, panels)
    if max_days == 1:  # a one-day loop that cannot end by the day's last window is not worth a search
        shortest = min(r.minutes for r in order)
        if grid.holds(shortest, first) and (first * grid.slot + sum(r.minutes for r in order)
                                            > grid.day_ends[grid.day(shortest, first)]):
            return None
    for rnd in order[:1] if loop.ordered else order:  # a first round that can be staffed at the start itself
        if not grid.holds(rnd.minutes, first):
            continue
        for panel in _panels_at(rnd, first, panels, _NOBODY):
            if budget[0] <= 0:
                return None
            budget[0] -= 1
            first_day = grid.day(rnd.minutes, first)
            plan = _extend(loop, [(rnd, first, panel)], [r for r in order if r is not rnd], order, grid, panels,
                           first_day + max_days, budget, solo)
            if plan is not None:
                return plan
    return None


def _extend(loop: Loop, placed: list, remaining: list[Round], order: list[Round], grid: _Grid, panels: _Panels,
            day_limit: int, budget: list[int], solo: dict[str, frozenset[str]]) -> LoopPlan | None:
    slot = grid.slot
    if not remaining:
        return LoopPlan(loop.id, tuple(Interview(rnd.id, g * slot, g * slot + rnd.minutes, a, t)
                                       for rnd, g, (a, t) in placed))
    used = frozenset(person for _, _, (a, t) in placed for person in (*a, *t))
    rnd_last, g_last, _ = placed[-1]
    cursor = g_last * slot + rnd_last.minutes
    for rnd, g, panel in _placements(loop, cursor, remaining, order, grid, panels, used, day_limit, solo):
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        plan = _extend(loop, [*placed, (rnd, g, panel)], [r for r in remaining if r is not rnd], order, grid,
                       panels, day_limit, budget, solo)
        if plan is not None:
            return plan
    return None


def _panels_at(rnd: Round, g: int, panels: _Panels, excluded: frozenset[str], spare: frozenset[str] = _NOBODY):
    """Panels for ``rnd`` at ``g``, best first (at most BRANCHES).

    First the least-loaded panel that spares ``spare`` (the few people who alone can staff a round still to
    come), then plain first-fit's panel, then panels that leave out one of its assessors.
    """
    panel = panels.panel(rnd, g, excluded)
    if panel is None:
        return
    seen = set()
    if spare and not spare.isdisjoint(panel[0]):
        sparing = panels.panel(rnd, g, excluded | spare)
        if sparing is not None:
            seen.add(sparing)
            yield sparing
    if panel not in seen:
        seen.add(panel)
        yield panel
    for person in panel[0]:
        if len(seen) >= BRANCHES:
            return
        other = panels.panel(rnd, g, excluded | {person})
        if other is not None and other not in seen:
            seen.add(other)
            yield other


def _placements(loop: Loop, cursor: int, remaining: list[Round], order: list[Round], grid: _Grid,
                panels: _Panels, excluded: frozenset[str], day_limit: int, solo: dict[str, frozenset[str]]):
    """(round, grid index, panel) after ``cursor`` within the gap limit, earliest first; ties to the scarcer.

    The first one yielded is first-fit's choice; at most BRANCHES (round, time) pairs are yielded, each
    followed by its alternative panels.
    """
    slot = grid.slot
    latest = None if loop.max_gap_minutes is None else cursor + loop.max_gap_minutes
    first_g = -(-cursor // slot)
    heap = []
    for rnd in remaining[:1] if loop.ordered else remaining:
        at = grid.index(rnd.minutes, first_g)
        if at < len(grid.starts[rnd.minutes]):
            heap.append((grid.starts[rnd.minutes][at], order.index(rnd), at, rnd))
    heapq.heapify(heap)
    tried = 0
    while heap and tried < BRANCHES:
        g, rank, at, rnd = heapq.heappop(heap)
        if latest is not None and g * slot > latest:
            return  # every other candidate start is later still
        if grid.days[rnd.minutes][at] >= day_limit:
            continue  # this round's later starts are on later days too
        found = False
        spare = frozenset().union(*(solo.get(r.id, _NOBODY) for r in remaining if r is not rnd)) - excluded
        for panel in _panels_at(rnd, g, panels, excluded, spare):
            found = True
            yield rnd, g, panel
        tried += found
        if at + 1 < len(grid.starts[rnd.minutes]):
            heapq.heappush(heap, (grid.starts[rnd.minutes][at + 1], rank, at + 1, rnd))


def _solo_coverers(order: list[Round], panels: _Panels) -> dict[str, frozenset[str]]:
    """Per one-seat round, the assessors who alone cover all its competencies, when they are few.

    Such people are spared by earlier rounds when someone else can take those (a look-ahead that first-fit
    lacks: it would seat the only person qualified in both halves of a later round in an easier one).
    """
    solo = {}
    for rnd in order:
        if rnd.interviewers != 1:
            continue
        able = frozenset(p.id for p in panels.pools[rnd.id].assessors
                         if all(p.is_qualified(c) for c in rnd.competencies))
        if len(able) <= RESERVE:
            solo[rnd.id] = able
    return solo
