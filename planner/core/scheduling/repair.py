"""After a decline: ranked substitutes for a seat, and a repaired plan that changes as little as possible."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from time import perf_counter
from typing import Any

from planner.core.errors import PlannerError
from planner.core.scheduling.availability import build_calendars, minute_to_local
from planner.core.scheduling.cpsat import solve_neighbourhood
from planner.core.scheduling.engine import stats_of
from planner.core.scheduling.explain import explain_unscheduled
from planner.core.scheduling.greedy import place_loop
from planner.core.scheduling.ledger import Ledger, ledger_of, ledger_without
from planner.core.scheduling.neighbourhoods import related_group
from planner.core.scheduling.panels import RoundPools, all_pools
from planner.core.scheduling.parse import parse_instant
from planner.core.scheduling.problem import Interview, LoopPlan, Problem, Solution, is_outside
from planner.core.scheduling.result import solution_to_dict

#: Deterministic seconds for a re-plan; the notes measured about 1 s for a day-sized neighbourhood.
REPLAN_BUDGET = 1.0
#: Loops in the re-plan that may re-seat the people a loop could use, wherever they sit that week.
RELATED_LOOPS = 16
#: A re-plan after a decline changes the time of at most this many rounds (over every loop it touches).
MAX_MOVED = 2


class RepairError(PlannerError):
    """The seat to repair does not exist in the given result."""


@dataclass(frozen=True)
class Substitute:
    """Someone who can take the seat, keeping coverage, caps and seat rules, and why they fit."""

    interviewer_id: str
    role: str  # "interviewer" or "trainee"
    why: str
    week_load: int  # assessor seats that ISO week if they take it (trainees: all seats)


def plans_from_result(problem: Problem, result: dict[str, Any]) -> list[LoopPlan]:
    """Loop plans (problem order) read back from a DESIGN 5.2 result document."""
    by_id = {entry.get("id"): entry for entry in result.get("loops", [])}
    plans = []
    for loop in problem.loops:
        entry = by_id.get(loop.id, {})
        if entry.get("status") != "scheduled":
            plans.append(LoopPlan(loop.id, reason=entry.get("reason"), fixes=tuple(entry.get("fixes", ()))))
            continue
        interviews = []
        for item in entry.get("interviews", []):
            start = _result_minute(item["start"], "start")
            end = _result_minute(item["end"], "end")
            interviews.append(
                Interview(
                    item["round"],
                    start,
                    end,
                    tuple(sorted(item.get("interviewers", []))),
                    tuple(sorted(item.get("trainees", []))),
                )
            )
        plans.append(LoopPlan(loop.id, tuple(sorted(interviews, key=lambda i: (i.start, i.round_id)))))
    return plans


@lru_cache(maxsize=16384)
def _result_minute(text: str, where: str) -> int:
    """Minutes since the epoch of a result's RFC 3339 time. Remembered: the same result is read back on every
    decline of a loop (parsing was half of the time to list substitutes)."""
    return int(parse_instant(text, where).timestamp() // 60)


def _locate(problem: Problem, plans: list[LoopPlan], loop_id: str, round_id: str, leaving_id: str):
    try:
        index = [p.loop_id for p in plans].index(loop_id)
        loop = problem.loop(loop_id)
        rnd = loop.round(round_id)
    except (ValueError, KeyError):
        raise RepairError(f"there is no round {round_id!r} in loop {loop_id!r}") from None
    interview = next((i for i in plans[index].interviews if i.round_id == round_id), None)
    if interview is None:
        raise RepairError(f"round {round_id!r} of loop {loop_id!r} is not scheduled")
    if leaving_id not in interview.interviewers + interview.trainees:
        raise RepairError(f"{leaving_id!r} does not sit in round {round_id!r} of loop {loop_id!r}")
    return index, loop, rnd, interview


def substitutes(
    problem: Problem,
    result: dict[str, Any],
    loop_id: str,
    round_id: str,
    leaving_id: str,
    *,
    keep_out: Collection[str] = (),
) -> list[Substitute]:
    """People who can take ``leaving_id``'s seat at the same time, best first (fairest load, then id).

    ``keep_out``: people not to seat in this loop (taken off it before, e.g. after declining).

    :raise RepairError: when that person does not sit in that round.
    """
    calendars = build_calendars(problem)
    plans = plans_from_result(problem, result)
    return _substitutes(problem, calendars, ledger_of(calendars, plans), plans, loop_id, round_id, leaving_id, keep_out)


def _substitutes(
    problem, calendars, ledger: Ledger, plans, loop_id, round_id, leaving_id, keep_out: Collection[str] = ()
) -> list[Substitute]:
    index, loop, rnd, interview = _locate(problem, plans, loop_id, round_id, leaving_id)
    as_assessor = leaving_id in interview.interviewers
    ledger.remove(leaving_id, interview.start, interview.end, assessor=as_assessor)
    try:
        in_loop = {p for i in plans[index].interviews for p in i.interviewers + i.trainees} | set(keep_out)
        staying = [calendars[p].person for p in interview.interviewers if p != leaving_id]
        found = []
        for person in problem.interviewers:
            if person.id in in_loop:
                continue
            if as_assessor:
                held = [c for c in rnd.competencies if person.is_qualified(c)]
                panel = staying + [person]
                covered = all(any(p.is_qualified(c) for p in panel) for c in rnd.competencies)
                outside = sum(is_outside(p, loop) for p in panel) >= rnd.outside_hiring_team
                if not held or not covered or not outside:
                    continue
            else:
                held = [c for c in rnd.competencies if person.is_trainee_in(c)]
                if not held:
                    continue
            block = ledger.fits(person.id, interview.start, interview.end)
            if block is None:
                continue
            calendar = calendars[person.id]
            load = (
                ledger.assessor_load(person.id, block.week)
                if as_assessor
                else ledger.week_seats[(person.id, block.week)] + calendar.existing_per_week.get(block.week, 0)
            ) + 1
            cap = person.max_per_week
            local = minute_to_local(interview.start, person.timezone)
            level = "qualified" if as_assessor else "in training"
            why = (
                f"{level} in {', '.join(held)}; free at {local:%a %H:%M} their time; "
                f"would have {load} interview{'s' if load != 1 else ''} that week"
                + (f" (cap {cap})" if cap is not None else "")
                + (
                    "; from outside the hiring team"
                    if as_assessor and is_outside(person, loop) and loop.hiring_team is not None
                    else ""
                )
            )
            found.append(Substitute(person.id, "interviewer" if as_assessor else "trainee", why, load))
        found.sort(key=lambda s: (s.week_load, s.interviewer_id))
        return found
    finally:
        ledger.add(leaving_id, interview.start, interview.end, assessor=as_assessor)


def repair(
    problem: Problem,
    result: dict[str, Any],
    loop_id: str,
    round_id: str,
    leaving_id: str,
    *,
    seed: int = 0,
    keep_out: Collection[str] = (),
) -> dict[str, Any]:
    """A new result without ``leaving_id`` in that round: the best local substitute when one exists,
    otherwise a re-plan that keeps every loop it can and moves as few rounds as possible.

    Neither ``leaving_id`` nor anyone in ``keep_out`` (taken off this loop before, e.g. after declining) is
    seated anywhere in this loop by the repair: someone who declines a candidate's interview is not moved
    into another round of the same candidate's day.

    :raise RepairError: when that person does not sit in that round.
    """
    started = perf_counter()
    calendars = build_calendars(problem)
    plans = plans_from_result(problem, result)
    ledger = ledger_of(calendars, plans)
    index, loop, _rnd, interview = _locate(problem, plans, loop_id, round_id, leaving_id)
    options = _substitutes(problem, calendars, ledger, plans, loop_id, round_id, leaving_id, keep_out)
    as_assessor = leaving_id in interview.interviewers
    if options or not as_assessor:
        # A declined trainee seat with nobody to fill it is simply left empty.
        replacement = (options[0].interviewer_id,) if options else ()
        people = tuple(p for p in (interview.interviewers if as_assessor else interview.trainees) if p != leaving_id)
        people = tuple(sorted(people + replacement))
        fixed = (
            Interview(interview.round_id, interview.start, interview.end, people, interview.trainees)
            if as_assessor
            else Interview(interview.round_id, interview.start, interview.end, interview.interviewers, people)
        )
        plans[index] = LoopPlan(loop_id, tuple(fixed if i is interview else i for i in plans[index].interviews))
        return _as_result(problem, calendars, plans, started)
    away = frozenset(keep_out) | {leaving_id}
    try:
        plans = _replan(problem, calendars, plans, index, away, seed)
    except ImportError:
        plans = _replan_first_fit(problem, calendars, plans, index, away)
    return _as_result(problem, calendars, plans, started)


def _replan_first_fit(problem, calendars, plans, index, away: frozenset[str]) -> list[LoopPlan]:
    """Without OR-Tools: plan the loop again by first-fit, without the people ``away`` in any of its rounds."""
    loop = problem.loops[index]
    pools = {
        round_id: RoundPools(
            tuple(p for p in each.assessors if p.id not in away), tuple(p for p in each.trainees if p.id not in away)
        )
        for round_id, each in all_pools(problem)[loop.id].items()
    }
    new = list(plans)
    new[index] = LoopPlan(loop.id)
    ledger = ledger_of(calendars, new)
    new[index] = place_loop(problem, loop, ledger, pools) or LoopPlan(loop.id)
    return new


def _replan(problem, calendars, plans, index, away: frozenset[str], seed) -> list[LoopPlan]:
    pools = all_pools(problem)
    loop = problem.loops[index]
    banned = frozenset((loop.id, rnd.id, person_id) for rnd in loop.rounds for person_id in away)
    old = plans[index]
    # First the loop alone around everybody else; if it cannot stay scheduled, also let the loops whose
    # windows share its days move, still rewarding every round that stays where it was.
    days = {w.start // 1440 for w in loop.windows} | {(w.end - 1) // 1440 for w in loop.windows}
    neighbours = [
        n
        for n, other in enumerate(problem.loops)
        if n != index and any(w.start // 1440 in days or (w.end - 1) // 1440 in days for w in other.windows)
    ]
    # At most MAX_MOVED rounds may change time; only when no such plan keeps the loop is the cap lifted
    # (moving more rounds is still better than losing the candidate's loop). Before that, the loops holding
    # the people it could use, on any day of their week, may change too: a substitute at their weekly cap
    # is freed by a seat elsewhere changing hands. On the tight 40-loop benchmark one decline had no
    # 2-round plan among the loops of its days (proven) and moved 3 rounds; with those loops it moves 2.
    holders = related_group(problem, pools, plans, index, list(range(len(plans))), RELATED_LOOPS)
    attempts = (
        ([index], MAX_MOVED),
        ([index, *neighbours[:15]], MAX_MOVED),
        (holders, MAX_MOVED),
        ([index, *neighbours[:15]], None),
    )
    for group, max_moved in attempts:
        ledger = ledger_without(calendars, plans, group)
        hints = {problem.loops[n].id: plans[n] for n in group}
        hints[loop.id] = LoopPlan(loop.id)
        keep = {problem.loops[n].id: plans[n] for n in group if plans[n].scheduled}
        keep[loop.id] = old
        outcome = solve_neighbourhood(
            problem,
            calendars,
            ledger,
            [problem.loops[n] for n in group],
            pools,
            hints,
            seed=seed,
            deterministic_time=REPLAN_BUDGET,
            keep=keep,
            banned=banned,
            max_moved=max_moved,
        )
        if outcome.plans[loop.id].scheduled or max_moved is None:
            new = list(plans)
            for n in group:
                new[n] = outcome.plans[problem.loops[n].id]
            if sum(p.scheduled for p in new) >= sum(p.scheduled for p in plans) - 1:
                return new
    new = list(plans)
    new[index] = LoopPlan(loop.id)
    return new


def _as_result(problem: Problem, calendars, plans: list[LoopPlan], started: float) -> dict[str, Any]:
    ledger = ledger_of(calendars, plans)
    pools = all_pools(problem)
    final = [
        p if p.scheduled else (p if p.reason else explain_unscheduled(problem, calendars, ledger, pools, p.loop_id))
        for p in plans
    ]
    solution = Solution(
        tuple(final),
        seconds=perf_counter() - started,
        method="repair",
        stats=stats_of(problem, final, calendars),
    )
    return solution_to_dict(solution)
