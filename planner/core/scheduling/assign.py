"""Re-choose every person of some scheduled loops with every start time kept: a pure 0-1 model.

With the times fixed, a person's seats either overlap or they do not, so the timing machinery of the
neighbourhood model (start variables, optional intervals, no-overlap, the candidate's day) is not needed:
"no two seats at once" becomes one at-most-one per group of seats that overlap at an instant. That model
is built in a fraction of the time and its LP is tight, so CP-SAT proves it far sooner. It ranks plans
as the neighbourhoods do below the loop count: the fairest load first, then the most trainee seats.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from planner.core.scheduling.availability import Calendar, Week
from planner.core.scheduling.cpsat_rules import add_caps, fairness_units
from planner.core.scheduling.cpsat_solver import flat_solver, seconds_left
from planner.core.scheduling.ledger import Ledger, ledger_without
from planner.core.scheduling.panels import RoundPools
from planner.core.scheduling.problem import Interview, LoopPlan, Problem, is_outside
from planner.core.scheduling.trainees import overlap_cliques


@dataclass
class _Seats:
    """The model and its variables, by the rules they take part in."""

    model: object
    # (loop index, round id) -> [(person id, is assessor, variable)]
    options: dict[tuple[int, str], list[tuple[str, bool, object]]] = field(default_factory=dict)
    per_day: dict[tuple[str, int], list] = field(default_factory=lambda: defaultdict(list))
    per_week: dict[tuple[str, Week], list] = field(default_factory=lambda: defaultdict(list))
    per_person: dict[str, list] = field(default_factory=lambda: defaultdict(list))
    # (person, week) -> [(loop index, assessor variable)]
    assessor_week: dict[tuple[str, Week], list] = field(default_factory=lambda: defaultdict(list))
    load_units: dict[tuple[str, Week], list] = field(default_factory=dict)
    trainee_rounds: int = 0


def reassign_people(
    problem: Problem,
    calendars: dict[str, Calendar],
    plans: list[LoopPlan],
    indices: list[int],
    pools: dict[str, dict[str, RoundPools]],
    *,
    seed: int = 0,
    budget: float = 1.0,
    wall_time: float = 30.0,
    deadline: float | None = None,
) -> tuple[list[LoopPlan], float]:
    """``plans`` with the assessors and trainees of the scheduled loops ``indices`` re-chosen.

    Every start stays; the answer has the smallest Σ load² the budget finds, then the most trainee seats.
    An answer that does not rank strictly higher than the current seats is not used, so ``plans`` itself
    comes back when it is already best. Returns the plans and the deterministic seconds spent. The solve
    stops by ``deadline`` (``perf_counter()``) too.
    """
    from ortools.sat.python import cp_model

    chosen = [n for n in indices if plans[n].scheduled]
    if not chosen:
        return plans, 0.0
    ledger = ledger_without(calendars, plans, chosen)
    seats = _Seats(cp_model.CpModel())
    for n in chosen:
        _add_loop(seats, problem, calendars, ledger, pools, n, plans[n])
    fairness = _caps_overlaps_and_load(seats, calendars, ledger)
    trainees = [v for options in seats.options.values() for _p, assessor, v in options if not assessor]
    weight = seats.trainee_rounds + 1
    terms = [(-weight * cost, unit) for cost, unit in fairness] + [(1, v) for v in trainees]
    model = seats.model
    model.maximize(sum(c * v for c, v in terms))
    hint = _hint(seats, plans)
    proto_hint = model.proto.solution_hint
    proto_hint.vars.extend([var.index for var in hint])
    proto_hint.values.extend(hint.values())
    before = sum(c * hint[v] for c, v in terms)

    solver = flat_solver(cp_model, seed, budget, seconds_left(wall_time, deadline))
    # The complete hint is taken as the first solution anyway; the phase that then searches near it
    # spent 0.23 of 0.35 s on the 40-loop one-week event for one unit of gain before the LP-led search
    # found the optimum in 0.03 s.
    solver.parameters.hint_conflict_limit = 0
    status = solver.solve(model)
    spent = solver.deterministic_time
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE) or solver.objective_value <= before:
        return plans, spent
    new = list(plans)
    for n in chosen:
        interviews = []
        for interview in plans[n].interviews:
            options = seats.options.get((n, interview.round_id), [])
            assessors = tuple(sorted(p for p, assessor, v in options if assessor and solver.value(v)))
            trainees_now = tuple(sorted(p for p, assessor, v in options if not assessor and solver.value(v)))
            interviews.append(Interview(interview.round_id, interview.start, interview.end, assessors, trainees_now))
        new[n] = LoopPlan(plans[n].loop_id, tuple(interviews), plans[n].reason, plans[n].fixes)
    return new, spent


def _add_loop(seats: _Seats, problem: Problem, calendars, ledger: Ledger, pools, n: int, plan: LoopPlan) -> None:
    """A loop's seats: each round keeps its panel size, coverage, outside-team and trainee rules."""
    model = seats.model
    loop = problem.loops[n]
    in_loop: dict[str, list] = defaultdict(list)
    for interview in plan.interviews:
        rnd = loop.round(interview.round_id)
        round_pools = pools[loop.id][rnd.id]
        options = []
        for role, people in ((True, round_pools.assessors), (False, round_pools.trainees)):
            for person in people:
                block = ledger.fits(person.id, interview.start, interview.end)
                if block is None:
                    continue
                var = model.new_bool_var("")
                options.append((person.id, role, var))
                in_loop[person.id].append(var)
                seats.per_day[(person.id, block.day)].append(var)
                seats.per_week[(person.id, block.week)].append(var)
                seats.per_person[person.id].append((interview.start, interview.end, var))
                if role:
                    seats.assessor_week[(person.id, block.week)].append((n, var))
        assessors = [(calendars[p].person, v) for p, role, v in options if role]
        model.add(sum(v for _, v in assessors) == rnd.interviewers)
        for competency in rnd.competencies:
            model.add(sum(v for person, v in assessors if person.is_qualified(competency)) >= 1)
        if rnd.outside_hiring_team:
            model.add(sum(v for person, v in assessors if is_outside(person, loop)) >= rnd.outside_hiring_team)
        trainee_vars = [v for _p, role, v in options if not role]
        if trainee_vars:
            model.add_at_most_one(trainee_vars)
            seats.trainee_rounds += 1
        seats.options[(n, rnd.id)] = options
    for person_seats in in_loop.values():
        if len(person_seats) > 1:
            model.add_at_most_one(person_seats)


def _caps_overlaps_and_load(seats: _Seats, calendars, ledger: Ledger) -> list[tuple[int, object]]:
    """Caps per local day and ISO week, one seat at a time, and the unary Σ load² cost terms."""
    model = seats.model
    week_rooms = add_caps(model, calendars, ledger, seats.per_day, seats.per_week)
    for intervals in seats.per_person.values():
        for clique in overlap_cliques(intervals):
            model.add_at_most_one(clique)
    terms, seats.load_units = fairness_units(model, ledger, seats.assessor_week, week_rooms)
    return terms


def _hint(seats: _Seats, plans: list[LoopPlan]) -> dict:
    """The current seats as a complete hint (they satisfy every rule of the model)."""
    values: dict = {}
    for (n, round_id), options in seats.options.items():
        interview = next(i for i in plans[n].interviews if i.round_id == round_id)
        for person_id, assessor, var in options:
            values[var] = int(person_id in (interview.interviewers if assessor else interview.trainees))
    # Units fill from the first, as many as the person's assessor seats of that week.
    for key, units in seats.load_units.items():
        count = sum(values[v] for _, v in seats.assessor_week[key])
        for k, unit in enumerate(units, start=1):
            values[unit] = int(k <= count)
    return values
