"""Large-neighbourhood search: re-optimise a few loops at a time with CP-SAT, everything else fixed.

Each neighbourhood starts from the current plan as a complete hint, so a step can only keep or improve
the plan; budgets are deterministic (``max_deterministic_time``) so the same input and seed always walk
the same path. A wall-clock deadline exists only as a safety net.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter

from planner.core.scheduling.availability import Calendar
from planner.core.scheduling.cpsat import solve_neighbourhood
from planner.core.scheduling.greedy import RoundPools
from planner.core.scheduling.ledger import ledger_of
from planner.core.scheduling.problem import LoopPlan, Problem

#: Loops per neighbourhood: past about 8 loops CP-SAT's presolve eats the budget (scheduling-notes §3.3).
NEIGHBOURHOOD_LOOPS = 8
#: Deterministic seconds per neighbourhood; 0.5 proved every hiring-event day optimal in the notes.
STEP_BUDGET = 0.5
#: Up to this many loops the whole problem is one neighbourhood.
MONOLITHIC_LOOPS = 12


@dataclass
class LnsOutcome:
    """Improved plans plus what the search spent and whether everything was proven optimal."""

    plans: list[LoopPlan]
    deterministic_time: float
    proven_optimal: bool
    steps: int


def _neighbourhoods(problem: Problem, order: list[int], size: int, shift: int, rng: random.Random | None):
    if rng is not None:
        # Random groups of loops that are close in time, so that they compete for the same people.
        spread = order[:]
        groups = []
        while spread:
            anchor = rng.randrange(len(spread))
            lo = max(0, min(anchor - size // 2, len(spread) - size))
            groups.append(spread[lo:lo + size])
            del spread[lo:lo + size]
        return groups
    shifted = order[shift:] + order[:shift]
    return [shifted[n:n + size] for n in range(0, len(shifted), size)]


def improve(
    problem: Problem,
    calendars: dict[str, Calendar],
    plans: list[LoopPlan],
    pools: dict[str, dict[str, RoundPools]],
    *,
    seed: int = 0,
    budget: float | None = None,
    deadline: float | None = None,
    progress: Callable[[str], None] | None = None,
) -> LnsOutcome:
    """Improve ``plans`` (input order) neighbourhood by neighbourhood until no step helps or budgets end.

    :param budget: total deterministic seconds for all CP-SAT calls (None: sized from the problem).
    :param deadline: ``perf_counter()`` value after which no new step starts (safety net).
    """
    loops = problem.loops
    count = len(loops)
    if count == 0:
        return LnsOutcome(list(plans), 0.0, True, 0)
    # Small problems are solved whole, so the answer is proven optimal when the solver says so.
    size = count if count <= MONOLITHIC_LOOPS else NEIGHBOURHOOD_LOOPS
    if budget is None:
        budget = max(4 * STEP_BUDGET, STEP_BUDGET * 3 * -(-count // size))
    order = sorted(range(count), key=lambda n: (min(w.start for w in loops[n].windows), n))
    ledger = ledger_of(calendars, plans)
    current = list(plans)
    spent = 0.0
    steps = 0
    rng = random.Random(seed)
    stale_passes = 0
    proven = False
    for pass_number in range(1000):
        shift = (pass_number * size // 2) % count if pass_number < 2 else 0
        groups = _neighbourhoods(problem, order, size, shift, rng if pass_number >= 2 else None)
        improved_any = False
        all_optimal = True
        for group in groups:
            if spent >= budget or (deadline is not None and perf_counter() > deadline):
                return LnsOutcome(current, spent, False, steps)
            group_loops = [loops[n] for n in group]
            for n in group:
                ledger.remove_plan(current[n])
            step_wall = 30.0 if deadline is None else max(0.05, deadline - perf_counter())
            result = solve_neighbourhood(
                problem, calendars, ledger, group_loops, pools, {loops[n].id: current[n] for n in group},
                seed=seed, deterministic_time=min(STEP_BUDGET, budget - spent), wall_time=step_wall,
            )
            for n in group:
                current[n] = result.plans[loops[n].id]
                ledger.add_plan(current[n])
            spent += result.deterministic_time
            steps += 1
            improved_any |= result.improved
            all_optimal &= result.status == "OPTIMAL"
        if len(groups) == 1 and all_optimal:
            proven = True
            break
        stale_passes = 0 if improved_any else stale_passes + 1
        if progress:
            progress(f"improve: pass {pass_number + 1} done, {spent:.2f} deterministic s spent")
        if stale_passes >= 1:
            break
    return LnsOutcome(current, spent, proven, steps)
