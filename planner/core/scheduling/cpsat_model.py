"""The CP-SAT model of a neighbourhood: variables and hard rules, plus the fairness cost terms.

Seats held by loops outside the neighbourhood are already in the ``Ledger``: they are removed from the
free time offered to the model and count as fixed load. Variables follow scheduling-notes §4: one start
per round on the slot grid, an optional interval per (round, person, local day), ``NoOverlap`` per
person and per candidate, at most one seat per person per loop, caps as linear bounds and the fairness
cost as a convex unary encoding (exact in the LP relaxation).

Shared pieces (the candidate's day, caps, the fairness encoding) are in ``cpsat_rules``, the solver
settings in ``cpsat_solver``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, field

from planner.core.scheduling.availability import Calendar, Week, grid_starts
from planner.core.scheduling.cpsat_rules import add_caps, candidate_day, fairness_units
from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.panels import RoundPools
from planner.core.scheduling.problem import Loop, LoopPlan, is_outside


@dataclass
class Option:
    person_id: str
    day: int
    week: Week
    ranges: list[tuple[int, int]]  # inclusive grid-index ranges (relative to the model origin)
    assessor: object = None  # BoolVar
    trainee: object = None  # BoolVar


@dataclass
class RoundVars:
    loop: Loop
    rnd: object
    start: object
    options: list[Option] = field(default_factory=list)
    ranges: list[tuple[int, int]] = field(default_factory=list)


def _free_pieces(calendar: Calendar, ledger: Ledger, person_id: str) -> tuple[list[tuple], list[int]]:
    """Free blocks of a person minus the seats the ledger already gives them, as (start, end, day, week).

    Days and weeks whose cap the ledger has already filled are left out: the ledger does not change
    while a model is built, so this check is made once per person instead of once per option.
    """
    booked = sorted(ledger.booked.get(person_id, ()))
    pieces = []
    for block in calendar.blocks:
        day_room = calendar.day_room(block.day)
        if day_room is not None and ledger.day_seats[(person_id, block.day)] >= day_room:
            continue
        week_room = calendar.week_room(block.week)
        if week_room is not None and ledger.week_seats[(person_id, block.week)] >= week_room:
            continue
        cursor = block.start
        for lo, hi in booked:
            if hi <= cursor or lo >= block.end:
                continue
            if lo > cursor:
                pieces.append((cursor, lo, block.day, block.week))
            cursor = max(cursor, hi)
        if cursor < block.end:
            pieces.append((cursor, block.end, block.day, block.week))
    return pieces, [p[1] for p in pieces]


class ModelBuilder:
    """Builds the variables and hard rules for a set of loops around the seats in a ledger."""

    def __init__(self, problem, calendars, ledger, loops, pools, banned):
        from ortools.sat.python import cp_model

        self.cp = cp_model
        self.model = cp_model.CpModel()
        self.problem = problem
        self.calendars = calendars
        self.ledger = ledger
        self.loops = loops
        self.pools = pools
        self.banned = banned
        self.slot = problem.slot_minutes
        self.origin = min(w.start for loop in loops for w in loop.windows) // self.slot
        self.pieces: dict[str, tuple[list[tuple], list[int]]] = {}
        self.scheduled: dict[str, object] = {}
        self.rounds: dict[tuple[str, str], RoundVars] = {}
        # (person, local day) -> [(loop id, optional interval)]: seats on different local days never
        # overlap, and one loop's seats of a person are already exclusive (at most one per loop).
        self.person_intervals: dict[tuple[str, int], list] = defaultdict(list)
        self.spans: dict[str, tuple] = {}
        self.gap_vars: dict[str, tuple] = {}
        self.same_times: list[tuple] = []  # (bool, loop id, kept interview), see keep_terms
        self.load_units: dict = {}  # (person, week) -> unary load literals, see caps_and_load

    def _pieces(self, person_id):
        if person_id not in self.pieces:
            self.pieces[person_id] = _free_pieces(self.calendars[person_id], self.ledger, person_id)
        return self.pieces[person_id]

    def _options(self, loop: Loop, rnd, person_id: str) -> list[Option]:
        pieces, ends = self._pieces(person_id)
        slot, origin, minutes = self.slot, self.origin, rnd.minutes
        count = len(pieces)
        by_day: dict[int, Option] = {}
        # Called for every (round, person) of every step: grid_starts() is inlined here.
        for window in loop.windows:
            index = bisect_left(ends, window.start + 1)
            while index < count:
                start, end, day, week = pieces[index]
                if start >= window.end:
                    break
                index += 1
                first = -(-max(start, window.start) // slot)
                last = (min(end, window.end) - minutes) // slot
                if last < first:
                    continue
                option = by_day.get(day)
                if option is None:
                    option = by_day[day] = Option(person_id, day, week, [])
                option.ranges.append((first - origin, last - origin))
        return list(by_day.values())

    def build_loop(self, loop: Loop) -> None:
        model = self.model
        present = model.new_bool_var(f"L[{loop.id}]")
        self.scheduled[loop.id] = present
        if loop.minutes > loop.room_minutes():
            # It cannot fit its windows whatever the calendars. Said up front: proving it by search took
            # CP-SAT 0.7 s for one loop, and with it in the model a loop that fits was not found at all.
            model.add(present == 0)
        loop_seats: dict[str, list] = defaultdict(list)
        round_vars = []
        for rnd in loop.rounds:
            pools: RoundPools = self.pools[loop.id][rnd.id]
            rv = RoundVars(loop, rnd, None)
            seen: dict[tuple[str, int], Option] = {}
            for role, people in (("a", pools.assessors), ("t", pools.trainees)):
                for person in people:
                    if (loop.id, rnd.id, person.id) in self.banned:
                        continue
                    for option in self._options(loop, rnd, person.id):
                        existing = seen.get((person.id, option.day))
                        if existing is None:
                            rv.options.append(option)
                            existing = seen[(person.id, option.day)] = option
                        var = model.new_bool_var(f"{role}[{loop.id},{rnd.id},{person.id},{option.day}]")
                        if role == "a":
                            existing.assessor = var
                        else:
                            existing.trainee = var
            window_ranges = sorted(
                (g.start - self.origin, g.stop - 1 - self.origin)
                for w in loop.windows
                for g in [grid_starts(w.start, w.end, rnd.minutes, self.slot)]
                if g
            )
            if not window_ranges or not any(o.assessor is not None for o in rv.options):
                model.add(present == 0)
                window_ranges = window_ranges or [(0, 0)]
            domain = self.cp.Domain.from_intervals([list(r) for r in window_ranges])
            rv.start = model.new_int_var_from_domain(domain, f"g[{loop.id},{rnd.id}]")
            rv.ranges = window_ranges
            self.rounds[(loop.id, rnd.id)] = rv
            round_vars.append(rv)
            self._link_round(loop, rnd, rv, present, window_ranges, loop_seats)
        for seats in loop_seats.values():
            if len(seats) > 1:
                model.add_at_most_one(seats)
        self._candidate_rules(loop, round_vars, present)

    def _link_round(self, loop, rnd, rv: RoundVars, present, window_ranges, loop_seats) -> None:
        model = self.model
        full = window_ranges
        start_minute = self.slot * rv.start
        assessors = []
        trainees = []
        for option in rv.options:
            ranges = sorted(option.ranges)
            domain = None if ranges == full else self.cp.Domain.from_intervals([list(r) for r in ranges])
            intervals = self.person_intervals[(option.person_id, option.day)]
            for var, bucket in ((option.assessor, assessors), (option.trainee, trainees)):
                if var is None:
                    continue
                bucket.append((option, var))
                loop_seats[option.person_id].append(var)
                if domain is not None:
                    model.add_linear_expression_in_domain(rv.start, domain).only_enforce_if(var)
                interval = model.new_optional_fixed_size_interval_var(start_minute, rnd.minutes, var, "")
                intervals.append((loop.id, interval))
        model.add(sum(v for _, v in assessors) == rnd.interviewers * present)
        for competency in rnd.competencies:
            holders = [v for o, v in assessors if self.problem_person(o.person_id).is_qualified(competency)]
            model.add(sum(holders) >= present)
        if rnd.outside_hiring_team:
            outside = [v for o, v in assessors if is_outside(self.problem_person(o.person_id), loop)]
            model.add(sum(outside) >= rnd.outside_hiring_team * present)
        if trainees:
            model.add(sum(v for _, v in trainees) <= present)

    def problem_person(self, person_id):
        return self.calendars[person_id].person

    def _candidate_rules(self, loop: Loop, round_vars: list[RoundVars], present) -> None:
        rounds = [(rv.rnd.id, rv.start, rv.rnd.minutes, rv.ranges) for rv in round_vars]
        spans, gaps = candidate_day(self.model, self.slot, rounds, loop.max_gap_minutes, present, loop.ordered)
        if spans is not None:
            self.spans[loop.id] = spans
        if gaps is not None:
            self.gap_vars[loop.id] = gaps

    def caps_and_load(self) -> list[tuple[int, object]]:
        """Cap constraints per person and local day / ISO week; returns the unary fairness cost terms."""
        model = self.model
        per_day: dict[tuple[str, int], list] = defaultdict(list)
        per_week: dict[tuple[str, Week], list] = defaultdict(list)
        assessor_week: dict[tuple[str, Week], list] = defaultdict(list)
        for rv in self.rounds.values():
            for option in rv.options:
                for var in (option.assessor, option.trainee):
                    if var is not None:
                        per_day[(option.person_id, option.day)].append(var)
                        per_week[(option.person_id, option.week)].append(var)
                if option.assessor is not None:
                    assessor_week[(option.person_id, option.week)].append((rv.loop.id, option.assessor))
        week_rooms = add_caps(model, self.calendars, self.ledger, per_day, per_week)
        for seats in self.person_intervals.values():
            if len({loop_id for loop_id, _ in seats}) > 1:
                model.add_no_overlap([interval for _, interval in seats])
        terms, self.load_units = fairness_units(model, self.ledger, assessor_week, week_rooms)
        return terms

    def keep_terms(self, keep: dict[str, LoopPlan], max_moved: int | None = None) -> list:
        """Booleans rewarding rounds that stay at their old time with their old assessors (re-planning).

        With ``max_moved``, at most that many of the kept rounds may change time (or be dropped with
        their loop): a repair must not reshuffle a candidate's day, whatever it gains elsewhere.
        """
        model = self.model
        terms = []
        same_times = []
        for loop_id, plan in keep.items():
            for interview in plan.interviews:
                rv = self.rounds.get((loop_id, interview.round_id))
                if rv is None:
                    continue
                same_time = model.new_bool_var(f"same_time[{loop_id},{interview.round_id}]")
                model.add(rv.start == interview.start // self.slot - self.origin).only_enforce_if(same_time)
                model.add_implication(same_time, self.scheduled[loop_id])
                same_times.append(same_time)
                self.same_times.append((same_time, loop_id, interview))
                stay = model.new_bool_var(f"keep[{loop_id},{interview.round_id}]")
                model.add_implication(stay, same_time)
                for person_id in interview.interviewers:
                    seats = [o.assessor for o in rv.options if o.person_id == person_id and o.assessor is not None]
                    if not seats:
                        model.add(stay == 0)
                    else:
                        model.add(sum(seats) >= 1).only_enforce_if(stay)
                terms.append((stay, loop_id, interview))
        if max_moved is not None and len(same_times) > max_moved:
            model.add(sum(same_times) >= len(same_times) - max_moved)
        return terms
