"""Trainee seats placed all at once: every start and every assessor kept, trainees chosen to fill most seats.

Trainee seats are the third objective and carry no load, so with the times and assessors fixed they
can be re-chosen freely: the most seats is a matching of trainees to trainee rounds under each
person's free time, caps (assessor seats use part of the room) and "one seat per person per loop".
First-fit fills seats one by one and a neighbourhood sees eight loops; this sees every loop of a
part, and CP-SAT solves it exactly in a fraction of a second (no timing choices, no load terms).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from planner.core.scheduling.availability import Calendar
from planner.core.scheduling.cpsat_rules import add_caps
from planner.core.scheduling.cpsat_solver import seconds_left
from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.panels import RoundPools
from planner.core.scheduling.problem import Interview, LoopPlan, Problem

#: Deterministic seconds for one matching; 200 loops were proven optimal in 0.03-0.6.
MATCH_BUDGET = 1.0


@dataclass
class _Matching:
    """The boolean model: one variable per (trainee round, free eligible trainee)."""

    model: object
    seats: dict[tuple[int, str], list[tuple[str, object]]] = field(default_factory=dict)
    per_day: dict[tuple[str, int], list] = field(default_factory=lambda: defaultdict(list))
    per_week: dict[tuple[str, object], list] = field(default_factory=lambda: defaultdict(list))
    per_person: dict[str, list] = field(default_factory=lambda: defaultdict(list))
    seated_before: int = 0


def match_trainees(
    problem: Problem,
    calendars: dict[str, Calendar],
    plans: list[LoopPlan],
    pools: dict[str, dict[str, RoundPools]],
    indices: list[int] | None = None,
    *,
    seed: int = 0,
    budget: float = MATCH_BUDGET,
    wall_time: float = 30.0,
    deadline: float | None = None,
) -> tuple[list[LoopPlan], float]:
    """``plans`` with the trainees of the loops ``indices`` (default: all) re-chosen for the most seats.

    Never fewer seats than before: an answer that is not strictly better is not used, and then
    ``plans`` itself comes back (a plan that is already best is not reshuffled). Returns the plans and
    the deterministic seconds spent. The solve stops by ``deadline`` (``perf_counter()``) too.
    """
    from ortools.sat.python import cp_model

    chosen = [n for n in (indices if indices is not None else range(len(problem.loops))) if plans[n].scheduled]
    if not chosen:
        return plans, 0.0
    ledger = _fixed_seats(calendars, plans, set(chosen))
    matching = _Matching(cp_model.CpModel())
    for n in chosen:
        _add_loop(matching, problem, ledger, pools, n, plans[n])
    _add_caps_and_overlaps(matching, calendars, ledger)
    model = matching.model
    model.maximize(sum(v for options in matching.seats.values() for _, v in options))
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1
    params.random_seed = seed
    params.max_deterministic_time = budget
    params.max_time_in_seconds = seconds_left(wall_time, deadline)
    # Measured on the 200-loop benchmarks: without presolve and without a hint this model is proven in
    # 0.03-0.6 deterministic s; with presolve, or following the old seats first, it took 2-40x longer.
    params.cp_model_presolve = False
    status = solver.solve(model)
    spent = solver.deterministic_time
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE) or solver.objective_value <= matching.seated_before:
        return plans, spent
    new = list(plans)
    for n in chosen:
        interviews = []
        for interview in plans[n].interviews:
            options = matching.seats.get((n, interview.round_id), [])
            trainees = tuple(sorted(p for p, v in options if solver.value(v)))
            interviews.append(
                Interview(interview.round_id, interview.start, interview.end, interview.interviewers, trainees)
            )
        new[n] = LoopPlan(plans[n].loop_id, tuple(interviews), plans[n].reason, plans[n].fixes)
    return new, spent


def _fixed_seats(calendars: dict[str, Calendar], plans: list[LoopPlan], rechosen: set[int]) -> Ledger:
    """Every assessor seat, and the trainee seats of the loops that are not re-chosen."""
    ledger = Ledger(calendars)
    for n, plan in enumerate(plans):
        for interview in plan.interviews:
            for person_id in interview.interviewers:
                ledger.add(person_id, interview.start, interview.end, assessor=True)
            if n not in rechosen:
                for person_id in interview.trainees:
                    ledger.add(person_id, interview.start, interview.end, assessor=False)
    return ledger


def _add_loop(matching: _Matching, problem: Problem, ledger: Ledger, pools, n: int, plan: LoopPlan) -> None:
    """Options for the loop's trainee rounds: eligible, free then, not already sitting in the loop."""
    model = matching.model
    loop = problem.loops[n]
    assessors = {p for i in plan.interviews for p in i.interviewers}
    in_loop: dict[str, list] = defaultdict(list)
    for interview in plan.interviews:
        if not loop.round(interview.round_id).trainee:
            continue
        matching.seated_before += bool(interview.trainees)
        options = []
        for person in pools[loop.id][interview.round_id].trainees:
            block = None if person.id in assessors else ledger.fits(person.id, interview.start, interview.end)
            if block is None:
                continue
            var = model.new_bool_var("")
            options.append((person.id, var))
            in_loop[person.id].append(var)
            matching.per_day[(person.id, block.day)].append(var)
            matching.per_week[(person.id, block.week)].append(var)
            matching.per_person[person.id].append((interview.start, interview.end, var))
        if options:
            model.add_at_most_one(v for _, v in options)
            matching.seats[(n, interview.round_id)] = options
    for seats in in_loop.values():
        if len(seats) > 1:
            model.add_at_most_one(seats)


def _add_caps_and_overlaps(matching: _Matching, calendars: dict[str, Calendar], ledger: Ledger) -> None:
    model = matching.model
    add_caps(model, calendars, ledger, matching.per_day, matching.per_week)
    for intervals in matching.per_person.values():
        for clique in overlap_cliques(intervals):
            model.add_at_most_one(clique)


def overlap_cliques(intervals: list[tuple[int, int, object]]) -> list[list]:
    """Groups of seats that overlap at one instant (every overlap is seen at the later seat's start).

    Times are fixed, so "no two seats of a person overlap" is one at-most-one per such group: a pure
    boolean model whose LP is far tighter than interval reasoning.
    """
    cliques = []
    previous: set[int] = set()
    for start in sorted({lo for lo, _hi, _var in intervals}):
        group = {id(var): var for lo, hi, var in intervals if lo <= start < hi}
        if len(group) > 1 and not set(group) <= previous:
            cliques.append(list(group.values()))
        previous = set(group)
    return cliques
