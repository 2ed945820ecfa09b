"""``solve``: construct with first-fit, improve with CP-SAT neighbourhoods, explain what is left."""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter

from planner.core.scheduling.availability import build_calendars
from planner.core.scheduling.explain import explain_unscheduled
from planner.core.scheduling.greedy import greedy_plans
from planner.core.scheduling.ledger import ledger_of
from planner.core.scheduling.local_search import fill_trainee_seats, rebalance
from planner.core.scheduling.panels import all_pools
from planner.core.scheduling.problem import LoopPlan, Problem, Solution
from planner.core.scheduling.result import score

#: Without an explicit time limit, the wall clock only guards against a runaway solve.
SAFETY_SECONDS = 300.0
#: Share of the wall-clock limit the optimiser may use...
FINISH_SHARE = 0.85
#: ...leaving at least this per loop for filling seats, explaining leftovers and the figures (200 loops,
#: 35 of them unscheduled: about 0.3 s).
FINISH_SECONDS_PER_LOOP = 0.002


def solve(
    problem: Problem,
    *,
    seed: int = 0,
    time_limit: float | None = None,
    progress: Callable[[str], None] | None = None,
    improve: bool = True,
    budget: float | None = None,
) -> Solution:
    """Plan every loop of ``problem``: most loops, then fairest load, trainee seats, least idle time.

    The answer depends only on the problem and ``seed`` (work is bounded by deterministic budgets);
    ``time_limit`` is a wall-clock cap after which the best plan so far is returned.

    :param progress: called with short status lines (intended for standard error).
    :param improve: False returns the first-fit plan (the benchmark's baseline).
    :param budget: deterministic seconds for the optimiser (None: sized from the problem).
    """
    started = perf_counter()
    # The optimiser stops early enough to leave time for filling trainee seats and explaining leftovers.
    limit = time_limit if time_limit is not None else SAFETY_SECONDS
    deadline = started + limit - max((1 - FINISH_SHARE) * limit, FINISH_SECONDS_PER_LOOP * len(problem.loops))
    say = progress or (lambda _line: None)
    calendars = build_calendars(problem)
    pools = all_pools(problem)
    plans = greedy_plans(problem, calendars)
    say(f"first-fit: {sum(p.scheduled for p in plans)}/{len(plans)} loops in {perf_counter() - started:.2f} s")
    method, optimal, det_time = "greedy", False, 0.0
    if improve and problem.loops:
        try:
            from planner.core.scheduling.lns import improve as lns_improve

            outcome = lns_improve(
                problem, calendars, plans, pools, seed=seed, budget=budget, deadline=deadline, progress=say
            )
        except ImportError:
            say("optimiser unavailable (OR-Tools not installed): first-fit plan with local search")
            plans = rebalance(problem, plans, ledger_of(calendars, plans), pools)
            method = "greedy+local-search"
        else:
            plans, optimal, det_time, method = (
                outcome.plans,
                outcome.proven_optimal,
                outcome.deterministic_time,
                "cp-sat",
            )
            say(
                f"optimised: {sum(p.scheduled for p in plans)}/{len(plans)} loops, "
                f"{outcome.steps} steps, {det_time:.2f} deterministic s"
            )
    ledger = ledger_of(calendars, plans)
    plans = fill_trainee_seats(problem, plans, ledger, pools)
    plans = [
        plan if plan.scheduled else explain_unscheduled(problem, calendars, ledger, pools, plan.loop_id)
        for plan in plans
    ]
    return Solution(
        plans=tuple(plans),
        seconds=perf_counter() - started,
        method=method,
        optimal=optimal,
        deterministic_time=det_time,
        stats=stats_of(problem, plans, calendars),
    )


def stats_of(problem: Problem, plans: list[LoopPlan], calendars) -> dict[str, int]:
    """The contract's stats figures (all but seconds) of ``plans``."""
    figures = score(problem, plans, calendars)
    return {
        "scheduled": figures.scheduled,
        "unscheduled": len(plans) - figures.scheduled,
        "load_sum_squares": figures.load_sum_squares,
        "max_load": figures.max_load,
        "trainee_seats": figures.trainee_seats,
    }
