"""Solve a neighbourhood with CP-SAT: some loops re-planned while every other seat stays where it is.

The model itself is in ``cpsat_model``. Here: the lexicographic objective (weights derived from bounds on
the lower tiers), a complete hint from the current plans, deterministic solver settings, and reading
the answer back. Because the hint is the current plan, the answer is never worse than it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter

from planner.core.scheduling.availability import Calendar, Week
from planner.core.scheduling.cpsat_model import ModelBuilder
from planner.core.scheduling.cpsat_solver import flat_solver, seconds_left
from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.panels import RoundPools
from planner.core.scheduling.problem import Interview, Loop, LoopPlan, Problem
from planner.core.scheduling.retime import RETIME_BUDGET, shorten_days


@dataclass
class SubResult:
    """Plans found for the neighbourhood's loops, with how the solver ended."""

    plans: dict[str, LoopPlan]
    status: str
    deterministic_time: float = 0.0
    improved: bool = False
    #: With ``defer_retime``: the idle-time pass of an improved answer, still to run. It returns the
    #: re-timed plans (None when no day got shorter) and its deterministic seconds; it only reads what the
    #: step built, so it may run on another thread while the next step is solved.
    retime: Callable[[float], tuple[dict[str, LoopPlan] | None, float]] | None = None
    #: Wall-clock seconds spent building the model (Python), so callers can tell whether another step
    #: still fits before a deadline on this machine.
    build_seconds: float = 0.0


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
    max_moved: int | None = None,
    retime_unchanged: bool = False,
    defer_retime: bool = False,
    loops_only: bool = False,
    deadline: float | None = None,
) -> SubResult:
    """Re-plan ``loops`` optimally (within the budget) around the seats already in ``ledger``.

    ``hints`` must be feasible around the ledger (they are the current plans of those loops); the
    answer is never worse than them. ``keep`` rewards unchanged rounds above fairness (for repairs),
    ``max_moved`` caps how many of those rounds may change time, and ``banned`` forbids (loop, round,
    person) seats. ``retime_unchanged`` runs the idle-time
    pass even when nothing better is found above it (the hints' times may come from first-fit, which
    takes the earliest start that works, not the one that keeps the candidate's day short).
    ``defer_retime`` returns an improved answer before its idle-time pass, with the pass as
    ``SubResult.retime`` (not with ``retime_unchanged``). ``loops_only`` maximises the loops scheduled and
    nothing else (an answer is then improved only when it places more loops). ``deadline``
    (``perf_counter()``): the solves stop by then, whatever ``wall_time`` says.
    """
    began = perf_counter()
    builder = ModelBuilder(problem, calendars, ledger, loops, pools, banned)
    for loop in loops:
        builder.build_loop(loop)
    fairness = builder.caps_and_load()
    stays = builder.keep_terms(keep or {}, max_moved)
    trainee_vars = [o.trainee for rv in builder.rounds.values() for o in rv.options if o.trainee is not None]
    trainee_rounds = sum(1 for rv in builder.rounds.values() if any(o.trainee is not None for o in rv.options))
    # Lexicographic objective in two solves: first loops > kept rounds > fairness > trainee seats, then,
    # with every seat kept, the candidates' idle time (``retime``). Mixing idle time into the first solve
    # made CP-SAT spend its budget proving idle-minute bounds instead of the tiers that matter more.
    if loops_only:
        main = [(1, v) for v in builder.scheduled.values()]
    else:
        w_keep = (trainee_rounds + 1) * (sum(c for c, _ in fairness) + 1)
        w_loop = w_keep * (len(stays) + 1)
        main = [(w_loop, v) for v in builder.scheduled.values()]
        main += [(w_keep, v) for v, _l, _i in stays]
        main += [(-(trainee_rounds + 1) * c, v) for c, v in fairness]
        main += [(1, v) for v in trainee_vars]
    model = builder.model
    main_expr = sum(c * v for c, v in main)
    model.maximize(main_expr)
    hint = _hint_values(builder, hints, stays)
    # Same proto as ``add_hint`` per variable (all are positive new variables), without a Python call each.
    proto_hint = model.proto.solution_hint
    proto_hint.vars.extend([var.index for var in hint])
    proto_hint.values.extend([int(value) for value in hint.values()])
    hint_main = sum(c * hint.get(v, 0) for c, v in main)

    built = perf_counter() - began
    first = _run(builder, seed, deterministic_time * 0.8, seconds_left(wall_time, deadline), presolve=loops_only)
    found = first.status_name in ("OPTIMAL", "FEASIBLE")
    unchanged = found and first.objective <= hint_main
    if not found or (unchanged and not retime_unchanged):
        # Nothing better on the tiers above idle time: keep the current plans untouched, which also
        # keeps reruns stable and skips the timing pass.
        return SubResult(dict(hints), first.status_name, first.deterministic_time, improved=False, build_seconds=built)
    if defer_retime and not unchanged:
        values = first.values

        def retime(wall: float) -> tuple[dict[str, LoopPlan] | None, float]:
            return _retimed(builder, values, seed, wall)

        return SubResult(_extract(builder, values), "FEASIBLE", first.deterministic_time, True, retime, built)
    if unchanged:
        # Re-time the current plans themselves: they stay unless the candidates' days get shorter.
        values = _values_of(model, hint)
    else:
        values = first.values
    # A problem solved whole (``retime_unchanged``) may use the rest of its budget to prove the days too.
    left = deterministic_time - first.deterministic_time if retime_unchanged else 0.0
    shorter = shorten_days(builder, values, seed, seconds_left(wall_time, deadline), budget=max(RETIME_BUDGET, left))
    # Proven optimal only when the candidates' days are proven as short as they can be too.
    status = first.status_name if shorter.optimal else "FEASIBLE"
    det = first.deterministic_time + shorter.deterministic_time
    if unchanged and not shorter.improved:
        return SubResult(dict(hints), status, det, improved=False, build_seconds=built)
    return SubResult(_extract(builder, shorter.values), status, det, improved=True, build_seconds=built)


def retime_plans(
    problem: Problem,
    calendars: dict[str, Calendar],
    ledger: Ledger,
    loops: list[Loop],
    pools: dict[str, dict[str, RoundPools]],
    plans: dict[str, LoopPlan],
    *,
    seed: int = 0,
    wall_time: float = 30.0,
) -> tuple[dict[str, LoopPlan] | None, float]:
    """The idle-time pass alone on ``plans`` of ``loops`` around ``ledger`` (which must not hold their
    seats): every seat and local day kept, starts moved for shorter candidate days. Returns the re-timed
    plans (None when no day got shorter) and the deterministic seconds spent."""
    builder = ModelBuilder(problem, calendars, ledger, loops, pools, frozenset())
    for loop in loops:
        builder.build_loop(loop)
    return _retimed(builder, _values_of(builder.model, _hint_values(builder, plans, [])), seed, wall_time)


def _retimed(builder: ModelBuilder, values: list[int], seed: int, wall_time: float):
    """The idle-time pass (``shorten_days``) on ``values``: the re-timed plans, or None when no day got
    shorter, and the deterministic seconds spent."""
    shorter = shorten_days(builder, values, seed, wall_time)
    return (_extract(builder, shorter.values) if shorter.improved else None), shorter.deterministic_time


def _values_of(model, hint: dict) -> list[int]:
    """A full solution vector of ``model`` from a complete hint."""
    values = [0] * len(model.proto.variables)
    for var, value in hint.items():
        values[var.index] = int(value)
    return values


@dataclass
class _Run:
    status_name: str
    objective: float
    values: list[int]
    deterministic_time: float


def _run(
    builder: ModelBuilder,
    seed: int,
    deterministic_time: float,
    wall_time: float,
    presolve: bool = False,
) -> _Run:
    """One deterministic single-worker solve (``flat_solver``) branching on the LP solution.

    ``presolve``: for a model whose objective is the loop count alone. Without presolve the LP keeps the
    unary load encoding as built (LP-exact convex costs), and branching on the LP solution proves 8-loop
    neighbourhoods in a fraction of the former time; with no load terms that reason is gone, and presolve
    finds the placements: on two captured 22- and 24-loop re-plans of the tight family x 3 solver seeds it
    placed every loop in 0.03-0.11 deterministic s, where the unpresolved model ran out of its 0.4 on 3 of 6.
    """
    solver = flat_solver(builder.cp, seed, deterministic_time, wall_time)
    solver.parameters.search_branching = builder.cp.LP_SEARCH
    solver.parameters.cp_model_presolve = presolve
    status = solver.solve(builder.model)
    name = solver.status_name(status)
    values = list(solver.response_proto.solution) if name in ("OPTIMAL", "FEASIBLE") else []
    objective = solver.objective_value if values else float("-inf")
    return _Run(name, objective, values, solver.deterministic_time)


def _hint_values(builder: ModelBuilder, hints: dict[str, LoopPlan], stays) -> dict:
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
                    chosen = interview is not None and option.person_id in interview.interviewers and day == option.day
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
    for same_time, loop_id, old in builder.same_times:
        current = hints.get(loop_id) or LoopPlan(loop_id)
        values[same_time] = int(any(i.round_id == old.round_id and i.start == old.start for i in current.interviews))
    for stay, loop_id, old in stays:
        current = hints.get(loop_id) or LoopPlan(loop_id)
        values[stay] = int(
            any(
                i.round_id == old.round_id and i.start == old.start and set(old.interviewers) <= set(i.interviewers)
                for i in current.interviews
            )
        )
    return values


def _extract(builder: ModelBuilder, values: list[int]) -> dict[str, LoopPlan]:
    plans = {}
    for loop in builder.loops:
        if not values[builder.scheduled[loop.id].index]:
            plans[loop.id] = LoopPlan(loop.id)
            continue
        interviews = []
        for rnd in loop.rounds:
            rv = builder.rounds[(loop.id, rnd.id)]
            start = (values[rv.start.index] + builder.origin) * builder.slot
            assessors = sorted(o.person_id for o in rv.options if o.assessor is not None and values[o.assessor.index])
            trainees = sorted(o.person_id for o in rv.options if o.trainee is not None and values[o.trainee.index])
            interviews.append(Interview(rnd.id, start, start + rnd.minutes, tuple(assessors), tuple(trainees)))
        plans[loop.id] = LoopPlan(loop.id, tuple(sorted(interviews, key=lambda i: (i.start, i.round_id))))
    return plans
