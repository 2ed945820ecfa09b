"""The CP-SAT solver settings of the scheduler's models, and the wall-clock cap of a solve."""

from __future__ import annotations

from time import perf_counter


def seconds_left(wall_time: float, deadline: float | None) -> float:
    """The wall-clock cap of a solve about to start: ``wall_time``, or less when ``deadline`` (a
    ``perf_counter()`` value) comes sooner. Read after the model is built: building a big model can take a
    good part of a short time limit, and a cap read before it let the solve run past the deadline."""
    if deadline is None:
        return wall_time
    return min(wall_time, max(0.01, deadline - perf_counter()))


def flat_solver(cp, seed: int, budget: float, wall_time: float):
    """A deterministic single-worker CP-SAT solver for the assignment models, without presolve.

    On the 40-loop benchmark presolve cost the neighbourhoods and the fixed-time re-assignment 0.1 s each
    and weakened the LP (the unary load encoding is LP-exact as built), so steps ended FEASIBLE at the
    budget where the unpresolved model is proven OPTIMAL in a fifth of the time. CG, MIR and zero-half
    cuts cost more LP time than they save on these models: same optima, about a third less search time.
    All linear constraints go into the LP from the start (not lazily, as violated): on 16 captured
    neighbourhoods of the one-ISO-week hiring event the same optima in 1.9-2.1 s instead of 3.2-3.7 s;
    the event itself went from a median 2.48 to 1.87 s (3 fixtures x 4 seeds). SAT inprocessing (clause
    vivification and the like between restarts) is off: on captured steps of the one- and two-week hiring
    events it took a third to a half of the solve for the same optima (one-week event 5.05 -> 2.85 s median on
    a slower VM, 3 fixtures x 4 seeds).
    """
    solver = cp.CpSolver()
    params = solver.parameters
    params.num_workers = 1
    params.random_seed = seed
    params.cp_model_probing_level = 0
    params.cp_model_presolve = False
    params.add_cg_cuts = False
    params.add_mir_cuts = False
    params.add_zero_half_cuts = False
    params.add_lp_constraints_lazily = False
    params.use_sat_inprocessing = False
    # Conflict reasons from the LP's bound alone, not minimised exactly: on 62 captured neighbourhood and
    # re-assignment solves of three hiring events the same optima for 4% less deterministic time.
    params.use_exact_lp_reason = False
    params.max_deterministic_time = budget
    params.max_time_in_seconds = wall_time
    return solver
