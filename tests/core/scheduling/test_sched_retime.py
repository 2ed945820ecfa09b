"""The idle-time pass: candidates' days get shorter while every seat keeps its person and day."""

import pytest
from core.scheduling.schedbuild import random_problem

from planner.core.scheduling import load_problem, solution_to_dict, validate
from planner.core.scheduling.availability import build_calendars
from planner.core.scheduling.cpsat import solve_neighbourhood
from planner.core.scheduling.engine import stats_of
from planner.core.scheduling.greedy import all_pools, greedy_plans
from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.problem import Solution
from planner.core.scheduling.result import score


def _seats(plans):
    return sorted(
        (plan.loop_id, i.round_id, person)
        for plan in plans
        for i in plan.interviews
        for person in i.interviewers + i.trainees
    )


@pytest.mark.parametrize("seed", range(16))
def test_re_timing_first_fit_keeps_every_seat_and_never_lengthens_a_day(seed):
    """Random problems (zones, busy time, caps, gap rules, a daylight-saving week on some seeds), solved
    whole from first-fit's plan: when nothing ranks higher, the same people sit and only times move."""
    prob = load_problem(random_problem(seed, people=8, loops=4, dst_week=seed % 2 == 0))
    calendars, pools = build_calendars(prob), all_pools(prob)
    plans = greedy_plans(prob, calendars)
    outcome = solve_neighbourhood(
        prob,
        calendars,
        Ledger(calendars),
        list(prob.loops),
        pools,
        {p.loop_id: p for p in plans},
        seed=seed,
        retime_unchanged=True,
    )
    new = [outcome.plans[loop.id] for loop in prob.loops]
    before, after = score(prob, plans, calendars), score(prob, new, calendars)
    document = solution_to_dict(Solution(tuple(new), stats=stats_of(prob, new, calendars)))
    assert validate(prob, document) == []
    tiers = (after.scheduled, -after.load_sum_squares, after.trainee_seats)
    assert tiers >= (before.scheduled, -before.load_sum_squares, before.trainee_seats)
    if tiers == (before.scheduled, -before.load_sum_squares, before.trainee_seats):
        assert _seats(new) == _seats(plans)
        assert after.idle_minutes <= before.idle_minutes
