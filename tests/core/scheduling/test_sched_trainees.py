"""Trainee seats matched over every loop at once: more seats than first-fit, nothing else changes."""

import pytest
from core.scheduling.schedbuild import loop, person, problem, random_problem, rnd

from planner.core.scheduling import load_problem, solution_to_dict, validate
from planner.core.scheduling.availability import build_calendars
from planner.core.scheduling.engine import stats_of
from planner.core.scheduling.greedy import greedy_plans
from planner.core.scheduling.ledger import ledger_of
from planner.core.scheduling.local_search import fill_trainee_seats
from planner.core.scheduling.panels import all_pools
from planner.core.scheduling.problem import Interview, LoopPlan, Solution
from planner.core.scheduling.trainees import match_trainees


def _document(prob, plans, calendars):
    return solution_to_dict(Solution(tuple(plans), stats=stats_of(prob, plans, calendars)))


def _two_loops_at_the_same_hour():
    """Loops A and B both at 10:00 Monday; 'wide' may shadow either round, 'narrow' only A's, and
    'narrow' already shadows loop C on Tuesday (so first-fit, fewest seats first, prefers 'wide' for A)."""
    monday = [("2026-12-07T09:00:00Z", "2026-12-07T12:00:00Z")]
    tuesday = [("2026-12-08T09:00:00Z", "2026-12-08T12:00:00Z")]
    people = [
        person("lead_a", {"x": "qualified"}),
        person("lead_b", {"y": "qualified"}),
        person("wide", {"x": "shadow", "y": "shadow"}),
        person("narrow", {"x": "reverse-shadow"}),
    ]
    prob = load_problem(
        problem(
            people,
            [
                loop("A", [rnd("ra", ["x"], trainee=True)], monday),
                loop("B", [rnd("rb", ["y"], trainee=True)], monday),
                loop("C", [rnd("rc", ["x"], trainee=True)], tuesday),
            ],
        )
    )
    ten = prob.loops[0].windows[0].start + 60
    tuesday_ten = prob.loops[2].windows[0].start + 60
    plans = [
        LoopPlan("A", (Interview("ra", ten, ten + 60, ("lead_a",), ()),)),
        LoopPlan("B", (Interview("rb", ten, ten + 60, ("lead_b",), ()),)),
        LoopPlan("C", (Interview("rc", tuesday_ten, tuesday_ten + 60, ("lead_a",), ("narrow",)),)),
    ]
    return prob, plans


def test_matching_fills_seats_that_one_by_one_filling_leaves_empty():
    """First-fit gives 'wide' to A (fewer seats that week), so B stays empty; matching seats both."""
    prob, plans = _two_loops_at_the_same_hour()
    calendars = build_calendars(prob)
    pools = all_pools(prob)
    one_by_one = fill_trainee_seats(prob, plans, ledger_of(calendars, plans), pools)
    assert sum(bool(i.trainees) for p in one_by_one for i in p.interviews) == 2
    matched, _det = match_trainees(prob, calendars, plans, pools)
    seats = {p.loop_id: p.interviews[0].trainees for p in matched}
    assert seats["A"] == ("narrow",) and seats["B"] == ("wide",) and len(seats["C"]) == 1
    assert validate(prob, _document(prob, matched, calendars)) == []


def test_matching_keeps_the_plans_when_it_cannot_add_a_seat():
    """An already best plan comes back as the very same object: no reshuffle of equal seats."""
    prob, plans = _two_loops_at_the_same_hour()
    calendars = build_calendars(prob)
    pools = all_pools(prob)
    best, _det = match_trainees(prob, calendars, plans, pools)
    again, _det = match_trainees(prob, calendars, best, pools)
    assert again is best


@pytest.mark.parametrize(("cap", "seated"), [(1, False), (2, True)])
def test_matching_respects_caps_that_assessor_seats_already_use(cap, seated):
    """A trainee whose weekly cap is used by their assessor seat in another loop gets no trainee seat."""
    window = [("2026-12-07T09:00:00Z", "2026-12-07T12:00:00Z")]
    people = [
        person("lead", {"x": "qualified"}),
        person("learner", {"x": "shadow", "y": "qualified"}, max_per_week=cap),
    ]
    prob = load_problem(
        problem(
            people,
            [loop("A", [rnd("rx", ["x"], trainee=True)], window), loop("B", [rnd("ry", ["y"])], window)],
        )
    )
    nine = prob.loops[0].windows[0].start
    plans = [
        LoopPlan("A", (Interview("rx", nine, nine + 60, ("lead",), ()),)),
        LoopPlan("B", (Interview("ry", nine + 120, nine + 180, ("learner",), ()),)),
    ]
    calendars = build_calendars(prob)
    matched, _det = match_trainees(prob, calendars, plans, all_pools(prob))
    assert (matched[0].interviews[0].trainees == ("learner",)) is seated
    assert validate(prob, _document(prob, matched, calendars)) == []


@pytest.mark.parametrize("seed", range(8))
def test_matching_random_plans_keeps_every_rule_times_and_assessors(seed):
    """On random first-fit plans: valid, never fewer seats, the same starts and assessors."""
    prob = load_problem(random_problem(seed, people=9, loops=4, dst_week=seed % 2 == 1))
    calendars = build_calendars(prob)
    pools = all_pools(prob)
    plans = greedy_plans(prob, calendars)
    matched, _det = match_trainees(prob, calendars, plans, pools)
    assert validate(prob, _document(prob, matched, calendars)) == []
    seats = lambda ps: sum(len(i.trainees) for p in ps for i in p.interviews)  # noqa: E731
    assert seats(matched) >= seats(plans)
    for old, new in zip(plans, matched, strict=True):
        assert [(i.round_id, i.start, i.interviewers) for i in old.interviews] == [
            (i.round_id, i.start, i.interviewers) for i in new.interviews
        ]
