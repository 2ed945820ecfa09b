"""One step of the large-neighbourhood search and the passes that settle around it.

A step re-plans a group of loops with CP-SAT around everyone else's seats; the idle-time pass an improved
step hands back is settled into the plan after later steps; the fixed-time re-assignment of people runs in
chunks; and the wall-clock checks decide whether a step can still be started.
"""

from __future__ import annotations

from time import perf_counter

from planner.core.scheduling.assign import reassign_people
from planner.core.scheduling.cpsat import retime_plans, solve_neighbourhood
from planner.core.scheduling.neighbourhoods import time_order
from planner.core.scheduling.problem import Problem
from planner.core.scheduling.result import score
from planner.core.scheduling.trainees import match_trainees

#: Deterministic seconds per neighbourhood; 0.5 proved every hiring-event day optimal in the notes.
STEP_BUDGET = 0.5
#: Deterministic seconds for the all-loops re-assignment at fixed times.
ASSIGN_BUDGET = 1.0
#: Python seconds to build a model, per round in it: a step is not started when the time left is shorter.
BUILD_SECONDS_PER_ROUND = 0.01
#: Loops per fixed-time re-assignment model (bigger models cost more to build than they gain).
REASSIGN_LOOPS = 60


def solve_step(problem, calendars, ledger, current, group, pools, seed, det, deadline, retime=False, loops_only=False):
    """One neighbourhood solve of ``group`` around ``ledger`` (which must not hold the group's seats).

    ``retime``: shorten the candidates' days even when nothing better is found above idle time (a problem
    solved whole, whose idle-time pass runs at once); otherwise an improved answer's pass is left to
    the caller (``SubResult.retime``). ``loops_only``: the loop count is the only objective.
    """
    loops = problem.loops
    return solve_neighbourhood(
        problem,
        calendars,
        ledger,
        [loops[n] for n in group],
        pools,
        {loops[n].id: current[n] for n in group},
        seed=seed,
        deterministic_time=det,
        retime_unchanged=retime,
        defer_retime=not retime,
        loops_only=loops_only,
        deadline=deadline,
    )


def settle_retimed(problem, calendars, ledger, current, pools, group, taken, shorter, seed, deadline):
    """An idle-time pass of the loops ``group`` (``shorter``: their re-timed plans by loop id, or None)
    into ``current`` and ``ledger`` after later steps re-planned the loops ``taken``.

    Loops whose new times still fit take them. A loop whose new times collide with a seat taken since gets
    a pass of its own around the plan as it is now (one model for all such loops). Returns whether any
    loop moved and the deterministic seconds of that extra pass.
    """
    if shorter is None:
        return False, 0.0
    loops = problem.loops
    moved, missed = apply_retimed(ledger, current, loops, group, taken, shorter)
    if not missed:
        return moved, 0.0
    for n in missed:
        ledger.remove_plan(current[n])
    again, used = retime_plans(
        problem,
        calendars,
        ledger,
        [loops[n] for n in missed],
        pools,
        {loops[n].id: current[n] for n in missed},
        seed=seed,
        wall_time=wall_left(deadline),
    )
    for n in missed:
        if again is not None:
            current[n] = again[loops[n].id]
        ledger.add_plan(current[n])
    return moved or again is not None, used


def apply_retimed(ledger, current, loops, group, taken, shorter) -> tuple[bool, list[int]]:
    """Re-timed plans of ``group`` into ``current`` and ``ledger``, loop by loop in group order, where
    every seat still fits (a later step may have taken the place); loops of ``taken`` (re-planned since)
    are left alone. Seats and local days are the pass's own, so only overlaps can stop a loop.
    Returns whether a loop moved and the loops that could not."""
    moved, missed = False, []
    for n in group:
        new = shorter[loops[n].id]
        if n in taken or new == current[n]:
            continue
        ledger.remove_plan(current[n])
        if ledger.plan_fits(new):
            current[n] = new
            moved = True
        else:
            missed.append(n)
        ledger.add_plan(current[n])
    return moved, missed


def time_for(problem: Problem, group: list[int], deadline: float | None, pace: float = BUILD_SECONDS_PER_ROUND) -> bool:
    """Whether a step over ``group`` can still be built and run before the wall-clock deadline, building
    at ``pace`` seconds per round."""
    if deadline is None:
        return True
    rounds = sum(len(problem.loops[n].rounds) for n in group)
    return deadline - perf_counter() > rounds * pace


def wall_left(deadline: float | None) -> float:
    """A solve's wall-clock cap: the time to the deadline (at least 0.05 s), or 30 s without one."""
    return 30.0 if deadline is None else max(0.05, deadline - perf_counter())


def reassign_in_chunks(problem, calendars, plans, order, pools, seed, deadline):
    """Fixed-time re-assignment (``assign``) over ``order`` in chunks of REASSIGN_LOOPS, while there is
    time to build them. Returns the plans, the deterministic seconds spent and the number of chunks solved.
    """
    spent, chunks = 0.0, 0
    for start in range(0, len(order), REASSIGN_LOOPS):
        group = order[start : start + REASSIGN_LOOPS]
        if not time_for(problem, group, deadline):
            break
        plans, used = reassign_people(
            problem, calendars, plans, group, pools, seed=seed, budget=ASSIGN_BUDGET, deadline=deadline
        )
        spent += used
        chunks += 1
    return plans, spent, chunks


def reassign_and_match(problem, calendars, plans, pools, part, seed, steps_deadline, deadline, progress):
    """The part's plans with every person re-chosen at the settled times, then trainee seats matched.

    Every person of the part is re-chosen at once (fair load first, then trainee seats; loops cannot
    change), and then the trainee seats are matched over the whole part (times and assessors kept). On the
    one-week hiring event the re-assignment takes 0.1-0.3 s and closes most of the trainee-seat gap (seed 1:
    131 -> 135 seats). Returns the plans and the deterministic seconds of the re-assignment and the matching.
    """
    final, reassigned, _chunks = reassign_in_chunks(
        problem, calendars, plans, time_order(problem, part), pools, seed, steps_deadline
    )
    if progress and final is not plans:
        figures = score(problem, final, calendars)
        progress(
            f"improve: people re-assigned at the final times, Σ load² {figures.load_sum_squares}, "
            f"{figures.trainee_seats} trainee seats"
        )
    matched, used = match_trainees(
        problem,
        calendars,
        final,
        pools,
        part,
        seed=seed,
        deadline=deadline,
    )
    if progress and matched is not final:
        figures = score(problem, matched, calendars)
        progress(f"improve: trainee seats matched over {len(part)} loops, {figures.trainee_seats} seats")
    return matched, reassigned, used
