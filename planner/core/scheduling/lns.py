"""Large-neighbourhood search: re-optimise a few loops at a time with CP-SAT, everything else fixed.

Each neighbourhood starts from the current plan as a complete hint, so a step can only keep or improve
the plan; budgets are deterministic (``max_deterministic_time``) so the same input and seed always walk
the same path. A wall-clock deadline exists only as a safety net.

This module holds the search's tuning and its passes; which loops go together is ``neighbourhoods``, one
step and the passes settled around it ``lns_steps``, the work on threads ``lns_threads``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter

from planner.core.scheduling.availability import Calendar
from planner.core.scheduling.ledger import ledger_of
from planner.core.scheduling.lns_steps import (
    BUILD_SECONDS_PER_ROUND,
    STEP_BUDGET,
    reassign_and_match,
    reassign_in_chunks,
    settle_retimed,
    solve_step,
    time_for,
)
from planner.core.scheduling.lns_threads import Cores as _Cores
from planner.core.scheduling.lns_threads import Retiming, run_parts, serialised
from planner.core.scheduling.lns_threads import StepAhead as _Ahead
from planner.core.scheduling.neighbourhoods import independent_components, pass_groups, time_order
from planner.core.scheduling.panels import RoundPools
from planner.core.scheduling.problem import LoopPlan, Problem
from planner.core.scheduling.result import score

#: Loops per neighbourhood. With the steps' SAT inprocessing off (a third to a half less solve time), 7 loops
#: against 6 on the one-ISO-week event (fixtures 1 and 3 x solver seeds 0-7, the ones with a trainee-seat gap):
#: 2115 trainee seats instead of 2107, Σ load² at the best known on 14 of 16 runs instead of 10, CPU +11%;
#: 8 loops (seeds 0-3): +0.4 seats a run more for +70% CPU. The two-week event: the same loops and seats;
#: scarce and tight calendars: the same loops, some fixtures slower. (Before, with inprocessing: 6 against 8
#: loops cut the one-week median from 3.4 to 2.8 s for about 1% of trainee seats; 4-5 loops lost loops, 10 was
#: slower.)
NEIGHBOURHOOD_LOOPS = 7
#: Deterministic seconds for a loop first-fit could not place, tried alone (one that fits takes ~0.003).
ALONE_BUDGET = 0.05
#: Default ceiling of deterministic seconds, so a week of hundreds of loops still ends in minutes.
MAX_BUDGET = 10.0
#: Independent parts improved at once (one CP-SAT worker each; the target machine has 2 cores).
PARALLEL_PARTS = 2
#: Deterministic seconds kept in reserve before a step is solved ahead (a step may overrun its budget a bit).
SPECULATION_MARGIN = 0.5
#: Seconds kept for the final trainee matching, per loop (200 loops: about 0.3 s to build, 0.1-1.2 s to
#: solve), at most MATCH_SHARE of the time left; with less than its build time left it is skipped.
MATCH_SECONDS_PER_LOOP = 0.01
MATCH_SHARE = 0.15
MATCH_BUILD_SECONDS_PER_LOOP = 0.003
#: Loops still unplaced after ESCALATE_AFTER passes (or when the search goes stale first) are re-planned
#: once more, one step each for the first ESCALATED_STEPS of them, with up to ESCALATED_LOOPS loops in their
#: way and the loop count as the only objective, ESCALATED_BUDGET deterministic seconds a step. Measured on
#: the tight 40-loop family (3 fixtures x 3 solver seeds): 357 of 360 loops instead of 350, median 5.5 s
#: instead of 2.9 s; after the first pass instead of the second: 6.4 s for the same loops; when stale:
#: 7.9 s; the part's loops in one step: 350 loops; 1 det-s a step: the same plans as 0.5.
ESCALATE_AFTER = 2
ESCALATED_LOOPS = 24
ESCALATED_BUDGET = 0.5
ESCALATED_STEPS = 4
#: Up to this many loops the whole problem is one neighbourhood.
MONOLITHIC_LOOPS = 12


@dataclass
class LnsOutcome:
    """Improved plans plus what the search spent and whether everything was proven optimal."""

    plans: list[LoopPlan]
    deterministic_time: float
    proven_optimal: bool
    steps: int


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

    Loops that cannot share a person's week (no common (person, ISO week) among the people and days
    they could use) are independent: no cap, overlap or load term links them. Each such component is
    improved on its own, on its own thread when there are several (CP-SAT releases the GIL), and the
    answers merge exactly, so the result is the same as running the components one after the other.

    :param budget: total deterministic seconds for all CP-SAT calls (None: sized from the problem).
    :param deadline: ``perf_counter()`` value after which no new step starts (safety net).
    """
    count = len(problem.loops)
    if count == 0:
        return LnsOutcome(list(plans), 0.0, True, 0)
    components = independent_components(problem, calendars, pools)
    cores = _Cores(PARALLEL_PARTS)
    if len(components) == 1:
        return _improve_part(problem, calendars, plans, pools, components[0], seed, budget, deadline, progress, cores)
    if budget is None:
        budget = _default_budget(count)
    shares = [budget * len(part) / count for part in components]
    if progress is not None:
        progress = serialised(progress)
        progress(f"improve: {len(components)} independent parts of {[len(p) for p in components]} loops")
    outcomes = run_parts(
        lambda part, share: _improve_part(
            problem, calendars, plans, pools, part, seed, share, deadline, progress, cores
        ),
        components,
        shares,
        min(len(components), PARALLEL_PARTS),
    )
    current = list(plans)
    for part, outcome in zip(components, outcomes, strict=True):
        for n in part:
            current[n] = outcome.plans[n]
    return LnsOutcome(
        current,
        sum(o.deterministic_time for o in outcomes),
        all(o.proven_optimal for o in outcomes),
        sum(o.steps for o in outcomes),
    )


def _improve_part(
    problem: Problem,
    calendars: dict[str, Calendar],
    plans: list[LoopPlan],
    pools: dict[str, dict[str, RoundPools]],
    part: list[int],
    seed: int,
    budget: float | None,
    deadline: float | None,
    progress: Callable[[str], None] | None,
    cores: _Cores | None = None,
) -> LnsOutcome:
    """The LNS over the loops ``part`` (indices into ``problem.loops``); other loops stay as they are."""
    cores = cores or _Cores(PARALLEL_PARTS)
    cores.take()
    pending: list[_Ahead] = []
    try:
        # The neighbourhood steps stop early enough for the trainee matching to run before the deadline,
        # but keep most of a short time limit: they work on loops and fairness, which rank above seats.
        steps_deadline = deadline
        if deadline is not None:
            steps_deadline -= min(MATCH_SECONDS_PER_LOOP * len(part), MATCH_SHARE * (deadline - perf_counter()))
        outcome = _improve_part_on(
            problem, calendars, plans, pools, part, seed, budget, steps_deadline, progress, cores, pending
        )
        if outcome.proven_optimal or (
            deadline is not None and deadline - perf_counter() < MATCH_BUILD_SECONDS_PER_LOOP * len(part)
        ):
            return outcome
        # Neighbourhoods see seven loops at a time: with the times settled, people and trainee seats are
        # re-chosen over the whole part.
        matched, reassigned, used = reassign_and_match(
            problem, calendars, outcome.plans, pools, part, seed, steps_deadline, deadline, progress
        )
        return LnsOutcome(matched, outcome.deterministic_time + reassigned + used, False, outcome.steps + 1)
    finally:
        cores.release()
        # Steps solved ahead and not used: wait for them, so no solver thread outlives the call.
        for ahead in pending:
            ahead.thread.join()


def _improve_part_on(
    problem, calendars, plans, pools, part, seed, budget, deadline, progress, cores, pending
) -> LnsOutcome:
    loops = problem.loops
    count = len(part)
    # Small problems are solved whole, so the answer is proven optimal when the solver says so.
    size = count if count <= MONOLITHIC_LOOPS else NEIGHBOURHOOD_LOOPS
    if budget is None:
        budget = _default_budget(count)
    order = time_order(problem, part)
    ledger = ledger_of(calendars, plans)
    current = list(plans)
    spent = 0.0
    steps = 0
    rng = random.Random(seed)
    stale_passes = 0
    proven = False
    improved_any, all_optimal = False, True

    retiming: Retiming | None = None
    # Seconds per round that building a step's model has taken so far: a slower machine (or two parts
    # building at once) must stop starting steps sooner to keep a time limit.
    pace = BUILD_SECONDS_PER_ROUND

    def settle(group: tuple[int, ...] = ()) -> bool:
        """The pending idle-time pass into the plan, for the loops outside ``group`` whose new times still
        fit; whether any loop moved."""
        nonlocal spent, retiming
        if retiming is None:
            return False
        done, retiming = retiming, None
        shorter, used = done.result()
        moved, again = settle_retimed(
            problem, calendars, ledger, current, pools, done.group, group, shorter, seed, deadline
        )
        spent += used + again
        return moved

    def take(group: list[int], result) -> bool:
        """A step's answer into the plan and the ledger (which no longer holds the group's old seats).

        The idle-time pass of an improved answer runs on its own thread while the next step is solved, and
        is settled after it (``settle_retimed``): the next step sees this step's seats at their times
        before the pass. So each step's model depends only on what came before it, whatever the threads'
        timing (one-week hiring event, 3 fixtures x 3 seeds: median 2.6 -> 2.1-2.35 s, the same loops, gap
        0.9 -> 0.5%). Returns whether the pass settled here changed the plan.
        """
        nonlocal spent, steps, improved_any, all_optimal, retiming, pace
        pace = max(pace, result.build_seconds / max(1, sum(len(loops[n].rounds) for n in group)))
        for n in group:
            current[n] = result.plans[loops[n].id]
            ledger.add_plan(current[n])
        spent += result.deterministic_time
        steps += 1
        improved_any |= result.improved
        all_optimal &= result.status == "OPTIMAL"
        moved = settle(tuple(group))
        if result.retime is not None:
            retiming = Retiming(tuple(group), result.retime, deadline)
        return moved

    # Each loop first-fit could not place is tried alone around everything else first (a lone loop is
    # the whole problem anyway): a loop that fits is found in milliseconds, and one that cannot be placed
    # no longer hides it inside a bigger step (CP-SAT can spend a whole step's budget failing to prove one
    # loop impossible).
    unplaced = [n for n in order if not current[n].scheduled] if count > 1 else []
    for n in unplaced:
        if time_for(problem, [n], deadline, pace) and spent < budget:
            take([n], solve_step(problem, calendars, ledger, current, [n], pools, seed, ALONE_BUDGET, deadline))
    if size < count:
        # Cheap first step over everything at once: keep every start time and re-assign people only.
        # That model has no timing choices (a pure 0-1 model, ``assign``), so CP-SAT proves it fast, and the
        # day-sized steps below start from a far better hint (one-week event: Σ load² 971 -> 891, 0.2 s).
        current, used, chunks = reassign_in_chunks(problem, calendars, current, order, pools, seed, deadline)
        spent += used
        steps += chunks
        ledger = ledger_of(calendars, current)
        if progress:
            progress(f"improve: people re-assigned at fixed times, {spent:.2f} deterministic s spent")
    escalated = False
    escalating = False
    for pass_number in range(1000):
        escalation = (ESCALATED_LOOPS, ESCALATED_STEPS) if escalating else None
        groups = pass_groups(problem, pools, current, order, size, pass_number, rng, escalation)
        improved_any = False
        all_optimal = True
        index = 0
        above_seats = _above_seats(problem, current, calendars, part)
        while index < len(groups):
            group = groups[index]
            if spent >= budget or not time_for(problem, group, deadline, pace):
                settle()
                return LnsOutcome(current, spent, False, steps)
            # When a core is idle (the other part is done), solve the next group at the same time, on
            # the plan as it is now. That answer is exactly what the next step would give if this step
            # changes nothing and the next step would get the same budget; otherwise it is thrown away
            # and the next step runs as usual. So the result never depends on thread timing.
            # Not in the first two passes: nearly every step there improves, so the answer solved ahead was
            # thrown away, and building it took the interpreter from the main chain (one-week event over 9
            # runs: median 2.28 s instead of 2.47 s, the same plans).
            ahead = None
            if (
                pass_number >= 2
                and not escalating
                and index + 1 < len(groups)
                and budget - spent >= 2 * STEP_BUDGET + SPECULATION_MARGIN
                and cores.try_take()
            ):
                ahead = _Ahead(problem, calendars, current, groups[index + 1], pools, seed, deadline, cores)
            for n in group:
                ledger.remove_plan(current[n])
            # Solved whole, the answer may be first-fit's own plan: its times are the earliest that work,
            # so they are re-timed for the candidates' idle time even when nothing else improves.
            step_budget = min(ESCALATED_BUDGET if escalating else STEP_BUDGET, budget - spent)
            result = solve_step(
                problem,
                calendars,
                ledger,
                current,
                group,
                pools,
                seed,
                step_budget,
                deadline,
                retime=size == count,
                loops_only=escalating,
            )
            moved = take(group, result)
            index += 1
            if ahead is None:
                continue
            if (
                result.improved
                or moved
                or budget - spent < STEP_BUDGET
                or not time_for(problem, groups[index], deadline, pace)
            ):
                # Not usable: left to finish on its own (it frees its core when done), never read.
                pending.append(ahead)
                continue
            for n in groups[index]:
                ledger.remove_plan(current[n])
            take(groups[index], ahead.result())
            index += 1
        if len(groups) == 1 and all_optimal:
            proven = True
            break
        # The pass's last idle-time pass, before the pass is judged and the next one is grouped.
        settle()
        if improved_any and above_seats == _above_seats(problem, current, calendars, part) and above_seats[0] == count:
            # Every loop is placed and the pass gained only trainee seats: the final re-assignment and
            # matching fill those over the whole part at once. (While a loop is still unplaced, passes go
            # on: a later one may place it.) Same plans or a seat either way on the 40-loop benchmarks; one
            # pass fewer where the last one found only seats.
            improved_any = False
        stale_passes = 0 if improved_any else stale_passes + 1
        escalating = False
        if (
            (stale_passes >= 1 or pass_number + 1 >= ESCALATE_AFTER)
            and not escalated
            and size < count
            and any(not current[n].scheduled for n in part)
        ):
            escalated = escalating = True
            stale_passes = 0
        if progress:
            figures = score(problem, current, calendars)
            progress(
                f"improve: pass {pass_number + 1} done, {figures.scheduled} loops, "
                f"Σ load² {figures.load_sum_squares}, {figures.trainee_seats} trainee seats, "
                f"{spent:.2f} deterministic s spent"
            )
        if stale_passes >= 1:
            break
    settle()
    return LnsOutcome(current, spent, proven, steps)


def _above_seats(problem: Problem, plans: list[LoopPlan], calendars, part: list[int]) -> tuple[int, int]:
    """The objectives ranked above trainee seats: loops of ``part`` scheduled, and minus Σ load²."""
    return (sum(plans[n].scheduled for n in part), -score(problem, plans, calendars).load_sum_squares)


def _default_budget(count: int) -> float:
    """Deterministic seconds for ``count`` loops: two passes of full steps, within the floor and ceiling."""
    size = count if count <= MONOLITHIC_LOOPS else NEIGHBOURHOOD_LOOPS
    return min(MAX_BUDGET, max(4 * STEP_BUDGET, STEP_BUDGET * 2 * -(-count // size)))
