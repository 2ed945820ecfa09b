"""Improvements of a plan without a solver, at fixed times: empty trainee seats filled, assessors swapped.

Every plan gets its empty trainee seats filled last; where the optimiser is unavailable, assessors are also
swapped for free, less-loaded ones while Σ load² drops.
"""

from __future__ import annotations

from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.panels import RoundPools
from planner.core.scheduling.problem import Interview, LoopPlan, Problem, is_outside


def fill_trainee_seats(
    problem: Problem, plans: list[LoopPlan], ledger: Ledger, pools: dict[str, dict[str, RoundPools]]
) -> list[LoopPlan]:
    """Give every empty trainee seat to a free eligible trainee (fewest seats that week first).

    Trainee seats carry no load, so this can only raise objective 3; ``ledger`` is updated.
    """
    filled = []
    for plan in plans:
        loop = problem.loop(plan.loop_id)
        used = {p for i in plan.interviews for p in i.interviewers + i.trainees}
        interviews = []
        for interview in plan.interviews:
            rnd = loop.round(interview.round_id)
            if rnd.trainee and not interview.trainees:
                best = None
                for person in pools[loop.id][rnd.id].trainees:
                    if person.id in used:
                        continue
                    block = ledger.fits(person.id, interview.start, interview.end)
                    if block is not None:
                        key = (ledger.week_seats[(person.id, block.week)], person.id)
                        if best is None or key < best[0]:
                            best = (key, person.id)
                if best is not None:
                    ledger.add(best[1], interview.start, interview.end, assessor=False)
                    used.add(best[1])
                    interview = Interview(
                        interview.round_id, interview.start, interview.end, interview.interviewers, (best[1],)
                    )
            interviews.append(interview)
        filled.append(LoopPlan(plan.loop_id, tuple(interviews), plan.reason, plan.fixes))
    return filled


def rebalance(
    problem: Problem,
    plans: list[LoopPlan],
    ledger: Ledger,
    pools: dict[str, dict[str, RoundPools]],
    max_rounds: int = 3,
) -> list[LoopPlan]:
    """Local search without a solver: swap an assessor for a free, less-loaded one while Σ load² drops.

    Every swap keeps coverage, the outside-team rule, caps and "nobody twice in a loop"; times stay.
    """
    plans = list(plans)
    for _ in range(max_rounds):
        changed = False
        for index, plan in enumerate(plans):
            loop = problem.loop(plan.loop_id)
            interviews = list(plan.interviews)
            for pos, interview in enumerate(interviews):
                for leaving in interview.interviewers:
                    better = _better_assessor(problem, loop, plans[index], interview, leaving, ledger, pools)
                    if better is None:
                        continue
                    ledger.remove(leaving, interview.start, interview.end, assessor=True)
                    ledger.add(better, interview.start, interview.end, assessor=True)
                    people = tuple(sorted({*interview.interviewers, better} - {leaving}))
                    interview = Interview(
                        interview.round_id, interview.start, interview.end, people, interview.trainees
                    )
                    interviews[pos] = interview
                    plans[index] = LoopPlan(plan.loop_id, tuple(interviews), plan.reason, plan.fixes)
                    changed = True
        if not changed:
            break
    return plans


def _better_assessor(problem, loop, plan, interview, leaving, ledger: Ledger, pools) -> str | None:
    rnd = loop.round(interview.round_id)
    in_loop = {p for i in plan.interviews for p in i.interviewers + i.trainees}
    leaving_block = ledger.calendars[leaving].block_for(interview.start, interview.end)
    old_load = ledger.assessor_load(leaving, leaving_block.week)
    staying = [ledger.calendars[p].person for p in interview.interviewers if p != leaving]
    best = None
    for person in pools[loop.id][rnd.id].assessors:
        if person.id in in_loop:
            continue
        block = ledger.fits(person.id, interview.start, interview.end)
        if block is None:
            continue
        load = ledger.assessor_load(person.id, block.week)
        # Moving one seat from a week holding ``old_load`` to one holding ``load`` changes Σ load² by
        # 2 * (load - old_load + 1); only strict improvements are taken, so the search ends.
        if load + 1 >= old_load:
            continue
        panel = [*staying, person]
        if not all(any(p.is_qualified(c) for p in panel) for c in rnd.competencies):
            continue
        if sum(is_outside(p, loop) for p in panel) < rnd.outside_hiring_team:
            continue
        if best is None or (load, person.id) < best[0]:
            best = ((load, person.id), person.id)
    return None if best is None else best[1]
