"""CP-SAT model of a neighbourhood: some loops re-planned while every other seat stays where it is.

Seats held by loops outside the neighbourhood are already in the ``Ledger``: they are removed from
the free time offered to the model and count as fixed load, so the neighbourhood's optimum is also an
improvement of the whole plan. Variables follow scheduling-notes §4: one start per round on the slot
grid, an optional interval per (round, person, local day), ``NoOverlap`` per person and per candidate,
at most one seat per person per loop, caps as linear bounds and the fairness cost as a convex unary
encoding. The objective is lexicographic through weights derived from bounds on the lower tiers.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, field

from planner.core.scheduling.availability import Calendar, FreeBlock, Week, grid_starts
from planner.core.scheduling.greedy import RoundPools
from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.problem import Interview, Loop, LoopPlan, Problem, is_outside

#: Deterministic seconds for the idle-time pass; it only re-times rounds, so it needs little.
IDLE_BUDGET = 0.1


@dataclass
class SubResult:
    """Plans found for the neighbourhood's loops, with how the solver ended."""

    plans: dict[str, LoopPlan]
    status: str
    deterministic_time: float = 0.0
    improved: bool = False


@dataclass
class _Option:
    person_id: str
    day: int
    week: Week
    ranges: list[tuple[int, int]]  # inclusive grid-index ranges (relative to the model origin)
    assessor: object = None  # BoolVar
    trainee: object = None  # BoolVar


@dataclass
class _RoundVars:
    loop: Loop
    rnd: object
    start: object
    options: list[_Option] = field(default_factory=list)
    ranges: list[tuple[int, int]] = field(default_factory=list)


def _free_pieces(calendar: Calendar, ledger: Ledger, person_id: str) -> tuple[list[FreeBlock], list[int]]:
    """Free blocks of a person minus the seats the ledger already gives them."""
    booked = sorted(ledger.booked.get(person_id, ()))
    pieces = []
    for block in calendar.blocks:
        cursor = block.start
        for lo, hi in booked:
            if hi <= cursor or lo >= block.end:
                continue
            if lo > cursor:
                pieces.append(FreeBlock(cursor, lo, block.day, block.week))
            cursor = max(cursor, hi)
        if cursor < block.end:
            pieces.append(FreeBlock(cursor, block.end, block.day, block.week))
    return pieces, [p.end for p in pieces]


class _Builder:
    def __init__(self, problem, calendars, ledger, loops, pools, banned, fixed_starts=None):
        from ortools.sat.python import cp_model

        self.fixed_starts: dict[tuple[str, str], tuple[int, int]] = fixed_starts or {}
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
        self.pieces: dict[str, tuple[list[FreeBlock], list[int]]] = {}
        self.scheduled: dict[str, object] = {}
        self.rounds: dict[tuple[str, str], _RoundVars] = {}
        self.person_intervals: dict[str, list] = defaultdict(list)
        self.spans: dict[str, tuple] = {}
        self.gap_vars: dict[str, tuple] = {}

    def _pieces(self, person_id):
        if person_id not in self.pieces:
            self.pieces[person_id] = _free_pieces(self.calendars[person_id], self.ledger, person_id)
        return self.pieces[person_id]

    def _options(self, loop: Loop, rnd, person_id: str) -> list[_Option]:
        calendar = self.calendars[person_id]
        pieces, ends = self._pieces(person_id)
        by_day: dict[int, _Option] = {}
        for window in loop.windows:
            index = bisect_left(ends, window.start + 1)
            while index < len(pieces) and pieces[index].start < window.end:
                piece = pieces[index]
                index += 1
                starts = grid_starts(
                    max(piece.start, window.start), min(piece.end, window.end), rnd.minutes, self.slot
                )
                if not starts:
                    continue
                day_room = calendar.day_room(piece.day)
                if day_room is not None and self.ledger.day_seats[(person_id, piece.day)] >= day_room:
                    continue
                week_room = calendar.week_room(piece.week)
                if week_room is not None and self.ledger.week_seats[(person_id, piece.week)] >= week_room:
                    continue
                option = by_day.setdefault(piece.day, _Option(person_id, piece.day, piece.week, []))
                option.ranges.append((starts.start - self.origin, starts.stop - 1 - self.origin))
        limits = self.fixed_starts.get((loop.id, rnd.id))
        if limits is None:
            return list(by_day.values())
        first, last = (m // self.slot - self.origin for m in limits)
        kept = []
        for option in by_day.values():
            option.ranges = [
                (max(lo, first), min(hi, last)) for lo, hi in option.ranges if lo <= last and hi >= first
            ]
            if option.ranges:
                kept.append(option)
        return kept

    def build_loop(self, loop: Loop) -> None:
        model = self.model
        present = model.new_bool_var(f"L[{loop.id}]")
        self.scheduled[loop.id] = present
        loop_seats: dict[str, list] = defaultdict(list)
        round_vars = []
        for rnd in loop.rounds:
            pools: RoundPools = self.pools[loop.id][rnd.id]
            rv = _RoundVars(loop, rnd, None)
            for role, people in (("a", pools.assessors), ("t", pools.trainees)):
                for person in people:
                    if (loop.id, rnd.id, person.id) in self.banned:
                        continue
                    for option in self._options(loop, rnd, person.id):
                        existing = next(
                            (o for o in rv.options if o.person_id == person.id and o.day == option.day), None
                        )
                        if existing is None:
                            rv.options.append(option)
                            existing = option
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
            if (loop.id, rnd.id) in self.fixed_starts:
                first, last = (m // self.slot - self.origin for m in self.fixed_starts[(loop.id, rnd.id)])
                window_ranges = [
                    (max(lo, first), min(hi, last)) for lo, hi in window_ranges if lo <= last and hi >= first
                ]
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

    def _link_round(self, loop, rnd, rv: _RoundVars, present, window_ranges, loop_seats) -> None:
        model = self.model
        full = window_ranges
        assessors = []
        trainees = []
        for option in rv.options:
            for var, bucket in ((option.assessor, assessors), (option.trainee, trainees)):
                if var is None:
                    continue
                bucket.append((option, var))
                loop_seats[option.person_id].append(var)
                if sorted(option.ranges) != full:
                    domain = self.cp.Domain.from_intervals([list(r) for r in option.ranges])
                    model.add_linear_expression_in_domain(rv.start, domain).only_enforce_if(var)
                interval = model.new_optional_fixed_size_interval_var(
                    self.slot * rv.start, rnd.minutes, var, f"i[{var.name}]"
                )
                self.person_intervals[option.person_id].append(interval)
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

    def _candidate_rules(self, loop: Loop, round_vars: list[_RoundVars], present) -> None:
        model = self.model
        if len(round_vars) < 2:
            return
        intervals = [
            model.new_optional_fixed_size_interval_var(self.slot * rv.start, rv.rnd.minutes, present, "")
            for rv in round_vars
        ]
        model.add_no_overlap(intervals)
        lo = min(self.slot * r.ranges[0][0] for r in round_vars)
        hi = max(self.slot * r.ranges[-1][1] + r.rnd.minutes for r in round_vars)
        first = model.new_int_var(lo, hi, f"first[{loop.id}]")
        last = model.new_int_var(lo, hi, f"last[{loop.id}]")
        span = model.new_int_var(0, hi - lo, f"span[{loop.id}]")
        model.add(span == last - first)
        for rv in round_vars:
            model.add(first <= self.slot * rv.start).only_enforce_if(present)
            model.add(last >= self.slot * rv.start + rv.rnd.minutes).only_enforce_if(present)
        self.spans[loop.id] = (span, first, last, hi - lo)
        gap = loop.max_gap_minutes
        if gap is None:
            return
        firsts = []
        follows = {}
        for rv in round_vars:
            is_first = model.new_bool_var("")
            firsts.append(is_first)
            preds = []
            for other in round_vars:
                if other is rv:
                    continue
                after = model.new_bool_var("")
                gap_expr = self.slot * rv.start - self.slot * other.start - other.rnd.minutes
                model.add(gap_expr >= 0).only_enforce_if(after)
                model.add(gap_expr <= gap).only_enforce_if(after)
                preds.append(after)
                follows[(rv.rnd.id, other.rnd.id)] = after
            model.add(is_first + sum(preds) >= present)
        model.add(sum(firsts) == present)
        self.gap_vars[loop.id] = (dict(zip([rv.rnd.id for rv in round_vars], firsts, strict=True)), follows)

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
        for (person_id, day), seats in per_day.items():
            room = self.calendars[person_id].day_room(day)
            if room is not None:
                room -= self.ledger.day_seats[(person_id, day)]
                if len(seats) > room:
                    model.add(sum(seats) <= room)
        week_rooms = {}
        for (person_id, week), seats in per_week.items():
            room = self.calendars[person_id].week_room(week)
            if room is not None:
                room -= self.ledger.week_seats[(person_id, week)]
                week_rooms[(person_id, week)] = room
                if len(seats) > room:
                    model.add(sum(seats) <= room)
        for intervals in self.person_intervals.values():
            if len(intervals) > 1:
                model.add_no_overlap(intervals)
        terms = []
        self.load_units: dict[tuple[str, Week], list] = {}
        for key, seats in sorted(assessor_week.items()):
            person_id, week = key
            base = self.ledger.assessor_load(person_id, week)
            most = len({loop_id for loop_id, _ in seats})
            room = week_rooms.get(key)
            if room is not None:
                most = min(most, room)
            units = [model.new_bool_var("") for _ in range(most)]
            model.add(sum(v for _, v in seats) == sum(units))
            for higher, lower in zip(units[1:], units, strict=False):
                model.add_implication(higher, lower)
            # Adding the k-th seat to a week already holding ``base`` costs (base+k)^2 - (base+k-1)^2.
            terms += [(2 * (base + k) - 1, unit) for k, unit in enumerate(units, start=1)]
            self.load_units[key] = units
        return terms

    def keep_terms(self, keep: dict[str, LoopPlan]) -> list:
        """Booleans rewarding rounds that stay at their old time with their old assessors (re-planning)."""
        model = self.model
        terms = []
        for loop_id, plan in keep.items():
            for interview in plan.interviews:
                rv = self.rounds.get((loop_id, interview.round_id))
                if rv is None:
                    continue
                stay = model.new_bool_var(f"keep[{loop_id},{interview.round_id}]")
                model.add(rv.start == interview.start // self.slot - self.origin).only_enforce_if(stay)
                for person_id in interview.interviewers:
                    seats = [
                        o.assessor for o in rv.options if o.person_id == person_id and o.assessor is not None
                    ]
                    if not seats:
                        model.add(stay == 0)
                    else:
                        model.add(sum(seats) >= 1).only_enforce_if(stay)
                terms.append((stay, loop_id, interview))
        return terms


def solve_neighbourhood(
    problem: Problem,
    calendars: dict[str, Calendar],
    ledger: Ledger,
    loops: list[Loop],
    pools: dict[str, dict[str, RoundPools]],
    hints: dict[str, LoopPlan],
    *,
    seed: int = 0,
    deterministic_time: float = 1.0,
    wall_time: float = 30.0,
    keep: dict[str, LoopPlan] | None = None,
    banned: frozenset[tuple[str, str, str]] = frozenset(),
    fixed_starts: dict[tuple[str, str], tuple[int, int]] | None = None,
) -> SubResult:
    """Re-plan ``loops`` optimally (within the budget) around the seats already in ``ledger``.

    ``hints`` must be feasible around the ledger (they are the current plans of those loops); the
    answer is never worse than them. ``keep`` rewards unchanged rounds above fairness (for repairs),
    and ``banned`` forbids (loop, round, person) seats. ``fixed_starts`` limits rounds (by ``(loop id,
    round id)``) to start between two minutes; equal bounds turn the model into a pure assignment.
    """
    builder = _Builder(problem, calendars, ledger, loops, pools, banned, fixed_starts)
    for loop in loops:
        builder.build_loop(loop)
    fairness = builder.caps_and_load()
    stays = builder.keep_terms(keep or {})
    trainee_vars = [o.trainee for rv in builder.rounds.values() for o in rv.options if o.trainee is not None]
    trainee_rounds = sum(
        1 for rv in builder.rounds.values() if any(o.trainee is not None for o in rv.options)
    )
    # Lexicographic objective in two solves: first loops > kept rounds > fairness > trainee seats, then,
    # with that value held, the candidates' idle time. Mixing idle time into the first solve made
    # CP-SAT spend its budget proving idle-minute bounds instead of the tiers that matter more.
    w_keep = (trainee_rounds + 1) * (sum(c for c, _ in fairness) + 1)
    w_loop = w_keep * (len(stays) + 1)
    main = [(w_loop, v) for v in builder.scheduled.values()]
    main += [(w_keep, v) for v, _l, _i in stays]
    main += [(-(trainee_rounds + 1) * c, v) for c, v in fairness]
    main += [(1, v) for v in trainee_vars]
    idle = [(1, span) for span, _f, _l, _b in builder.spans.values()]
    model = builder.model
    main_expr = sum(c * v for c, v in main)
    model.maximize(main_expr)
    hint = _hint_values(builder, hints, stays)
    for var, value in hint.items():
        model.add_hint(var, value)
    hint_main = sum(c * hint.get(v, 0) for c, v in main)

    first = _run(builder, seed, deterministic_time * 0.8, wall_time)
    if first.status_name not in ("OPTIMAL", "FEASIBLE") or first.objective <= hint_main:
        # Nothing better on the tiers above idle time: keep the current plans untouched, which also
        # keeps reruns stable and skips the timing pass.
        return SubResult(dict(hints), first.status_name, first.deterministic_time, improved=False)
    best_main = int(round(first.objective))
    det = first.deterministic_time
    solution = first.values
    status = first.status_name
    if idle:
        # Idle time only re-times rounds: every seat keeps its person and local day, so loads, caps
        # and trainee seats cannot change and the small timing model is usually proven fast.
        model.add(main_expr >= best_main)
        for rv in builder.rounds.values():
            for option in rv.options:
                for var in (option.assessor, option.trainee):
                    if var is not None:
                        model.add(var == first.values[var.index])
        model.minimize(sum(c * v for c, v in idle))
        model.clear_hints()
        for index, value in enumerate(first.values):
            model.add_hint(model.get_int_var_from_proto_index(index), value)
        second = _run(builder, seed, min(IDLE_BUDGET, max(0.02, deterministic_time - det)), wall_time)
        det += second.deterministic_time
        if second.status_name in ("OPTIMAL", "FEASIBLE"):
            solution = second.values
            if second.status_name != "OPTIMAL":
                status = "FEASIBLE"
    plans = _extract(builder, solution)
    return SubResult(plans, status, det, improved=True)


@dataclass
class _Run:
    status_name: str
    objective: float
    values: list[int]
    deterministic_time: float


def _run(builder: _Builder, seed: int, deterministic_time: float, wall_time: float) -> _Run:
    solver = builder.cp.CpSolver()
    params = solver.parameters
    params.num_workers = 1
    params.random_seed = seed
    params.cp_model_probing_level = 0
    params.max_deterministic_time = deterministic_time
    params.max_time_in_seconds = wall_time
    status = solver.solve(builder.model)
    name = solver.status_name(status)
    values = list(solver.response_proto.solution) if name in ("OPTIMAL", "FEASIBLE") else []
    objective = solver.objective_value if values else float("-inf")
    return _Run(name, objective, values, solver.deterministic_time)


def _hint_values(builder: _Builder, hints: dict[str, LoopPlan], stays) -> dict:
    slot, origin = builder.slot, builder.origin
    values: dict = {}
    units_used: dict[tuple[str, Week], int] = defaultdict(int)
    for loop in builder.loops:
        plan = hints.get(loop.id) or LoopPlan(loop.id)
        values[builder.scheduled[loop.id]] = int(plan.scheduled)
        by_round = {i.round_id: i for i in plan.interviews}
        for rnd in loop.rounds:
            rv = builder.rounds[(loop.id, rnd.id)]
            interview = by_round.get(rnd.id)
            values[rv.start] = interview.start // slot - origin if interview else rv.ranges[0][0]
            for option in rv.options:
                day = None
                if interview is not None:
                    block = builder.calendars[option.person_id].block_for(interview.start, interview.end)
                    day = block.day if block else None
                if option.assessor is not None:
                    chosen = (
                        interview is not None
                        and option.person_id in interview.interviewers
                        and day == option.day
                    )
                    values[option.assessor] = int(chosen)
                    if chosen:
                        units_used[(option.person_id, option.week)] += 1
                if option.trainee is not None:
                    values[option.trainee] = int(
                        interview is not None and option.person_id in interview.trainees and day == option.day
                    )
        if loop.id in builder.spans:
            span, first, last, _bound = builder.spans[loop.id]
            if plan.scheduled:
                lo = min(i.start for i in plan.interviews) - slot * origin
                hi = max(i.end for i in plan.interviews) - slot * origin
            else:
                lo = hi = min(slot * builder.rounds[(loop.id, r.id)].ranges[0][0] for r in loop.rounds)
            values[first], values[last], values[span] = lo, hi, hi - lo
        if loop.id in builder.gap_vars:
            firsts, follows = builder.gap_vars[loop.id]
            ordered = sorted(plan.interviews, key=lambda i: i.start)
            for round_id, var in firsts.items():
                values[var] = int(bool(ordered) and ordered[0].round_id == round_id)
            pairs = {(b.round_id, a.round_id) for a, b in zip(ordered, ordered[1:], strict=False)}
            for key, var in follows.items():
                values[var] = int(key in pairs)
    for key, units in builder.load_units.items():
        for k, unit in enumerate(units, start=1):
            values[unit] = int(k <= units_used[key])
    for stay, loop_id, old in stays:
        current = hints.get(loop_id) or LoopPlan(loop_id)
        values[stay] = int(
            any(
                i.round_id == old.round_id
                and i.start == old.start
                and set(old.interviewers) <= set(i.interviewers)
                for i in current.interviews
            )
        )
    return values


def _extract(builder: _Builder, values: list[int]) -> dict[str, LoopPlan]:
    plans = {}
    for loop in builder.loops:
        if not values[builder.scheduled[loop.id].index]:
            plans[loop.id] = LoopPlan(loop.id)
            continue
        interviews = []
        for rnd in loop.rounds:
            rv = builder.rounds[(loop.id, rnd.id)]
            start = (values[rv.start.index] + builder.origin) * builder.slot
            assessors = sorted(
                o.person_id for o in rv.options if o.assessor is not None and values[o.assessor.index]
            )
            trainees = sorted(
                o.person_id for o in rv.options if o.trainee is not None and values[o.trainee.index]
            )
            interviews.append(
                Interview(rnd.id, start, start + rnd.minutes, tuple(assessors), tuple(trainees))
            )
        plans[loop.id] = LoopPlan(loop.id, tuple(sorted(interviews, key=lambda i: (i.start, i.round_id))))
    return plans
