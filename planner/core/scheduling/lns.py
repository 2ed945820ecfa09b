"""Large-neighbourhood search: re-optimise a few loops at a time with CP-SAT, everything else fixed.

Each neighbourhood starts from the current plan as a complete hint, so a step can only keep or improve
the plan; budgets are deterministic (``max_deterministic_time``) so the same input and seed always walk
the same path. A wall-clock deadline exists only as a safety net.
"""

from __future__ import annotations

import random
import threading
from bisect import bisect_left
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from time import perf_counter

from planner.core.scheduling.assign import reassign_people
from planner.core.scheduling.availability import Calendar, Week
from planner.core.scheduling.cpsat import retime_plans, solve_neighbourhood
from planner.core.scheduling.greedy import RoundPools
from planner.core.scheduling.ledger import ledger_of, ledger_without
from planner.core.scheduling.problem import LoopPlan, Problem
from planner.core.scheduling.result import score
from planner.core.scheduling.trainees import match_trainees

#: Loops per neighbourhood. With the steps' SAT inprocessing off (a third to a half less solve time), 7 loops
#: against 6 on the one-ISO-week event (fixtures 1 and 3 x solver seeds 0-7, the ones with a trainee-seat gap):
#: 2115 trainee seats instead of 2107, Σ load² at the best known on 14 of 16 runs instead of 10, CPU +11%;
#: 8 loops (seeds 0-3): +0.4 seats a run more for +70% CPU. The two-week event: the same loops and seats;
#: scarce and tight calendars: the same loops, some fixtures slower. (Before, with inprocessing: 6 against 8
#: loops cut the one-week median from 3.4 to 2.8 s for about 1% of trainee seats; 4-5 loops lost loops, 10 was
#: slower.)
NEIGHBOURHOOD_LOOPS = 7
#: Deterministic seconds per neighbourhood; 0.5 proved every hiring-event day optimal in the notes.
STEP_BUDGET = 0.5
#: Deterministic seconds for a loop first-fit could not place, tried alone (one that fits takes ~0.003).
ALONE_BUDGET = 0.05
#: Deterministic seconds for the all-loops re-assignment at fixed times.
ASSIGN_BUDGET = 1.0
#: Default ceiling of deterministic seconds, so a week of hundreds of loops still ends in minutes.
MAX_BUDGET = 10.0
#: Python seconds to build a model, per round in it: a step is not started when the time left is shorter.
BUILD_SECONDS_PER_ROUND = 0.01
#: Loops per fixed-time re-assignment model (bigger models cost more to build than they gain).
REASSIGN_LOOPS = 60
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


def _neighbourhoods(problem: Problem, order: list[int], size: int, shift: int, rng: random.Random | None):
    if rng is not None:
        # Random groups of loops that are close in time, so that they compete for the same people.
        spread = order[:]
        groups = []
        while spread:
            anchor = rng.randrange(len(spread))
            lo = max(0, min(anchor - size // 2, len(spread) - size))
            groups.append(spread[lo : lo + size])
            del spread[lo : lo + size]
        return groups
    shifted = order[shift:] + order[:shift]
    return [shifted[n : n + size] for n in range(0, len(shifted), size)]


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
        lock = threading.Lock()
        inner = progress

        def progress(line: str) -> None:
            with lock:
                inner(line)

        progress(f"improve: {len(components)} independent parts of {[len(p) for p in components]} loops")
    workers = min(len(components), PARALLEL_PARTS)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        # Biggest parts first, so the longest chain starts at once.
        order = sorted(range(len(components)), key=lambda k: (-len(components[k]), k))
        futures = {
            k: pool.submit(
                _improve_part,
                problem,
                calendars,
                plans,
                pools,
                components[k],
                seed,
                shares[k],
                deadline,
                progress,
                cores,
            )
            for k in order
        }
        outcomes = [futures[k].result() for k in range(len(components))]
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


def independent_components(
    problem: Problem, calendars: dict[str, Calendar], pools: dict[str, dict[str, RoundPools]]
) -> list[list[int]]:
    """Loop indices grouped so that no two groups can seat the same person in the same ISO week.

    Days belong to one week, so groups also never share a (person, local day) cap or a free block:
    a plan change in one group changes nothing another group's model sees.
    """
    loops = problem.loops
    parent = list(range(len(loops)))

    def find(n: int) -> int:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    owner: dict[tuple[str, Week], int] = {}
    for n, loop in enumerate(loops):
        people = {
            person.id
            for round_pools in pools[loop.id].values()
            for person in (*round_pools.assessors, *round_pools.trainees)
        }
        for person_id in sorted(people):
            calendar = calendars[person_id]
            blocks, starts = calendar.blocks, calendar.block_starts
            for window in loop.windows:
                index = bisect_left(starts, window.end) - 1
                while index >= 0 and blocks[index].end > window.start:
                    key = (person_id, blocks[index].week)
                    other = owner.setdefault(key, n)
                    if other != n:
                        parent[find(n)] = find(other)
                    index -= 1
    groups: dict[int, list[int]] = {}
    for n in range(len(loops)):
        groups.setdefault(find(n), []).append(n)
    return sorted(groups.values(), key=lambda group: group[0])


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
        # Neighbourhoods see seven loops at a time. With the times settled, every person of the part is
        # re-chosen at once (fair load first, then trainee seats; loops cannot change), and then the trainee
        # seats are matched over the whole part (times and assessors kept). On the one-week hiring event the
        # re-assignment takes 0.1-0.3 s and closes most of the trainee-seat gap (seed 1: 131 -> 135 seats).
        final, reassigned, _chunks = _reassign_chunks(
            problem, calendars, outcome.plans, time_order(problem, part), pools, seed, steps_deadline
        )
        if progress and final is not outcome.plans:
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

    retiming: _Retiming | None = None
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
            retiming = _Retiming(tuple(group), result.retime, deadline)
        return moved

    # Each loop first-fit could not place is tried alone around everything else first (a lone loop is
    # the whole problem anyway): a loop that fits is found in milliseconds, and one that cannot be placed
    # no longer hides it inside a bigger step (CP-SAT can spend a whole step's budget failing to prove one
    # loop impossible).
    unplaced = [n for n in order if not current[n].scheduled] if count > 1 else []
    for n in unplaced:
        if _time_for(problem, [n], deadline, pace) and spent < budget:
            take([n], _step(problem, calendars, ledger, current, [n], pools, seed, ALONE_BUDGET, deadline))
    if size < count:
        # Cheap first step over everything at once: keep every start time and re-assign people only.
        # That model has no timing choices (a pure 0-1 model, ``assign``), so CP-SAT proves it fast, and the
        # day-sized steps below start from a far better hint (one-week event: Σ load² 971 -> 891, 0.2 s).
        current, used, chunks = _reassign_chunks(problem, calendars, current, order, pools, seed, deadline)
        spent += used
        steps += chunks
        ledger = ledger_of(calendars, current)
        if progress:
            progress(f"improve: people re-assigned at fixed times, {spent:.2f} deterministic s spent")
    escalated = False
    escalating = False
    for pass_number in range(1000):
        shift = (pass_number * size // 2) % count if pass_number < 2 else 0
        groups = _neighbourhoods(problem, order, size, shift, rng if pass_number >= 2 else None)
        if pass_number == 0:
            groups = unscheduled_first(groups, current)
        elif escalating:
            # Loops are still unplaced: each is re-planned with a wider circle of the loops in its way, for
            # loops alone (fairness and seats made CP-SAT spend the step improving the load instead of
            # finding the one placement: the tight fixture of seed 2 placed its 40th loop only this way).
            # The passes after it restore the fair load around the new placements.
            groups = [
                related_group(problem, pools, current, n, order, ESCALATED_LOOPS)
                for n in order
                if not current[n].scheduled
            ][:ESCALATED_STEPS]
        elif size < count:
            # A loop still unplaced after the first pass is next re-planned with the loops holding the
            # people it needs, wherever they are in the week (tight 40-loop family, 3 fixtures x 3 seeds:
            # 350 loops instead of 345, median 2.9 s instead of 1.9 s; from the first pass on: 347).
            groups = [
                related_group(problem, pools, current, n, order, size) for n in order if not current[n].scheduled
            ] + groups
        improved_any = False
        all_optimal = True
        index = 0
        above_seats = _above_seats(problem, current, calendars, part)
        while index < len(groups):
            group = groups[index]
            if spent >= budget or not _time_for(problem, group, deadline, pace):
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
            result = _step(
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
                or not _time_for(problem, groups[index], deadline, pace)
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


class _Cores:
    """How many solver threads run now, so a part only solves ahead when a core is idle."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.busy = 0
        self.lock = threading.Lock()

    def take(self) -> None:
        with self.lock:
            self.busy += 1

    def try_take(self) -> bool:
        with self.lock:
            if self.busy >= self.total:
                return False
            self.busy += 1
            return True

    def release(self) -> None:
        with self.lock:
            self.busy -= 1


def _step(problem, calendars, ledger, current, group, pools, seed, det, deadline, retime=False, loops_only=False):
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


class _Background:
    """``work()`` run on its own thread; ``result()`` waits for it and re-raises what it raised."""

    def __init__(self, work, done=None) -> None:
        self.answer = None
        self.error: BaseException | None = None

        def run() -> None:
            try:
                self.answer = work()
            except BaseException as error:  # pragma: no cover - re-raised in result()
                self.error = error
            finally:
                if done is not None:
                    done()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def result(self):
        self.thread.join()
        if self.error is not None:  # pragma: no cover
            raise self.error
        return self.answer


class _Ahead(_Background):
    """The next step solved on its own thread with a full step budget, on a copy of the current plan."""

    def __init__(self, problem, calendars, current, group, pools, seed, deadline, cores) -> None:
        ledger = ledger_without(calendars, current, group)
        snapshot = list(current)
        super().__init__(
            lambda: _step(problem, calendars, ledger, snapshot, group, pools, seed, STEP_BUDGET, deadline),
            cores.release,
        )


class _Retiming(_Background):
    """A step's idle-time pass (``SubResult.retime``) running on its own thread."""

    def __init__(self, group: tuple[int, ...], job, deadline: float | None) -> None:
        self.group = group
        super().__init__(lambda: job(_wall_left(deadline)))


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
    moved, missed = _apply_retimed(ledger, current, loops, group, taken, shorter)
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
        wall_time=_wall_left(deadline),
    )
    for n in missed:
        if again is not None:
            current[n] = again[loops[n].id]
        ledger.add_plan(current[n])
    return moved or again is not None, used


def _apply_retimed(ledger, current, loops, group, taken, shorter) -> tuple[bool, list[int]]:
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


def _above_seats(problem: Problem, plans: list[LoopPlan], calendars, part: list[int]) -> tuple[int, int]:
    """The objectives ranked above trainee seats: loops of ``part`` scheduled, and minus Σ load²."""
    return (sum(plans[n].scheduled for n in part), -score(problem, plans, calendars).load_sum_squares)


def related_group(
    problem: Problem,
    pools: dict[str, dict[str, RoundPools]],
    plans: list[LoopPlan],
    n: int,
    order: list[int],
    size: int,
) -> list[int]:
    """The unscheduled loop ``n`` with the ``size - 1`` scheduled loops whose seats stand most in its way.

    Time-ordered neighbourhoods hold a loop's neighbours in time, but a loop may be blocked by people
    who could sit in it and are at their cap, or busy, because of loops on other days of the week. A seat
    of such a person counts 2 when it falls inside one of the loop's windows and 1 when it starts within a
    week of one; the loops with the most weight join it (ties: nearest in time, then input order).
    """
    loop = problem.loops[n]
    people = {p.id for rp in pools[loop.id].values() for p in (*rp.assessors, *rp.trainees)}
    week = 7 * 24 * 60

    def distance(minute: int) -> int:
        return min(max(0, w.start - minute, minute - w.end + 1) for w in loop.windows)

    ranked = []
    for other in order:
        if other == n or not plans[other].scheduled:
            continue
        weight = 0
        for interview in plans[other].interviews:
            gap = distance(interview.start)
            if gap < week:
                seated = sum(1 for p in (*interview.interviewers, *interview.trainees) if p in people)
                weight += seated * (2 if gap == 0 else 1)
        if weight:
            ranked.append((-weight, min(distance(i.start) for i in plans[other].interviews), other))
    return [n] + [other for _weight, _distance, other in sorted(ranked)[: size - 1]]


def unscheduled_first(groups: list[list[int]], plans: list[LoopPlan]) -> list[list[int]]:
    """Neighbourhoods holding an unscheduled loop first, otherwise in the same order.

    Loops come first in the objective, so a time limit should cut fairness work rather than the search
    for a place for every candidate.
    """
    return sorted(groups, key=lambda members: all(plans[n].scheduled for n in members))


def _default_budget(count: int) -> float:
    """Deterministic seconds for ``count`` loops: two passes of full steps, within the floor and ceiling."""
    size = count if count <= MONOLITHIC_LOOPS else NEIGHBOURHOOD_LOOPS
    return min(MAX_BUDGET, max(4 * STEP_BUDGET, STEP_BUDGET * 2 * -(-count // size)))


def _wall_left(deadline: float | None) -> float:
    """A solve's wall-clock cap: the time to the deadline (at least 0.05 s), or 30 s without one."""
    return 30.0 if deadline is None else max(0.05, deadline - perf_counter())


def _time_for(
    problem: Problem, group: list[int], deadline: float | None, pace: float = BUILD_SECONDS_PER_ROUND
) -> bool:
    """Whether a step over ``group`` can still be built and run before the wall-clock deadline, building
    at ``pace`` seconds per round."""
    if deadline is None:
        return True
    rounds = sum(len(problem.loops[n].rounds) for n in group)
    return deadline - perf_counter() > rounds * pace


def time_order(problem: Problem, part: list[int]) -> list[int]:
    """Loop indices by the start of their first window (then input order): neighbours in time compete."""
    return sorted(part, key=lambda n: (min(w.start for w in problem.loops[n].windows), n))


def _reassign_chunks(problem, calendars, plans, order, pools, seed, deadline):
    """Fixed-time re-assignment (``assign``) over ``order`` in chunks of REASSIGN_LOOPS, while there is
    time to build them. Returns the plans, the deterministic seconds spent and the number of chunks solved.
    """
    spent, chunks = 0.0, 0
    for start in range(0, len(order), REASSIGN_LOOPS):
        group = order[start : start + REASSIGN_LOOPS]
        if not _time_for(problem, group, deadline):
            break
        plans, used = reassign_people(
            problem, calendars, plans, group, pools, seed=seed, budget=ASSIGN_BUDGET, deadline=deadline
        )
        spent += used
        chunks += 1
    return plans, spent, chunks
