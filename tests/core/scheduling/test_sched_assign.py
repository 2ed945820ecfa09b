"""People re-chosen at fixed times (the pure 0-1 model): never worse, never invalid, times untouched."""

import pytest
from core.scheduling.schedbuild import loop, person, problem, random_problem, rnd

from planner.core.scheduling import load_problem, solution_to_dict, validate
from planner.core.scheduling.assign import reassign_people
from planner.core.scheduling.availability import build_calendars
from planner.core.scheduling.engine import stats_of
from planner.core.scheduling.greedy import greedy_plans
from planner.core.scheduling.neighbourhoods import related_group
from planner.core.scheduling.panels import all_pools
from planner.core.scheduling.problem import Interview, LoopPlan, Solution
from planner.core.scheduling.result import score


def _document(prob, plans, calendars):
    return solution_to_dict(Solution(tuple(plans), stats=stats_of(prob, plans, calendars)))


def _one_person_holds_both_loops():
    """Loops A (Monday) and B (Tuesday) both assessed by 'busy_bee'; 'idle' is as qualified and free."""
    monday = [("2026-12-07T09:00:00Z", "2026-12-07T12:00:00Z")]
    tuesday = [("2026-12-08T09:00:00Z", "2026-12-08T12:00:00Z")]
    people = [
        person("busy_bee", {"x": "qualified"}),
        person("idle", {"x": "qualified"}),
        person("learner", {"x": "shadow"}),
    ]
    prob = load_problem(
        problem(
            people,
            [
                loop("A", [rnd("ra", ["x"], trainee=True)], monday),
                loop("B", [rnd("rb", ["x"], trainee=True)], tuesday),
            ],
        )
    )
    monday_ten = prob.loops[0].windows[0].start + 60
    tuesday_ten = prob.loops[1].windows[0].start + 60
    plans = [
        LoopPlan("A", (Interview("ra", monday_ten, monday_ten + 60, ("busy_bee",), ()),)),
        LoopPlan("B", (Interview("rb", tuesday_ten, tuesday_ten + 60, ("busy_bee",), ()),)),
    ]
    return prob, plans


def test_reassignment_spreads_the_load_and_fills_trainee_seats_at_the_same_times():
    prob, plans = _one_person_holds_both_loops()
    calendars, pools = build_calendars(prob), all_pools(prob)
    assert score(prob, plans, calendars).load_sum_squares == 4
    new, _det = reassign_people(prob, calendars, plans, [0, 1], pools)
    figures = score(prob, new, calendars)
    assert figures.load_sum_squares == 2  # one seat each instead of two for one person
    assert figures.trainee_seats == 2
    assert [(i.start, i.end) for p in new for i in p.interviews] == [
        (i.start, i.end) for p in plans for i in p.interviews
    ]
    assert validate(prob, _document(prob, new, calendars)) == []


def test_reassignment_keeps_the_plans_object_when_nothing_ranks_higher():
    prob, plans = _one_person_holds_both_loops()
    calendars, pools = build_calendars(prob), all_pools(prob)
    best, _det = reassign_people(prob, calendars, plans, [0, 1], pools)
    again, _det = reassign_people(prob, calendars, best, [0, 1], pools)
    assert again is best


def test_loops_left_out_keep_their_seats_and_block_their_people():
    """Only loop B is re-chosen: A keeps busy_bee, so B moves to the idle interviewer."""
    prob, plans = _one_person_holds_both_loops()
    calendars, pools = build_calendars(prob), all_pools(prob)
    new, _det = reassign_people(prob, calendars, plans, [1], pools)
    assert new[0] is plans[0]
    assert new[1].interviews[0].interviewers == ("idle",)


@pytest.mark.parametrize("seed", range(12))
def test_reassignment_on_random_problems_is_valid_and_never_worse(seed):
    prob = load_problem(random_problem(seed, people=8, loops=4, dst_week=seed % 3 == 0))
    calendars, pools = build_calendars(prob), all_pools(prob)
    plans = greedy_plans(prob, calendars)
    new, _det = reassign_people(prob, calendars, plans, list(range(len(plans))), pools, seed=seed)
    before, after = score(prob, plans, calendars), score(prob, new, calendars)
    assert after.scheduled == before.scheduled
    assert (after.load_sum_squares, -after.trainee_seats) <= (before.load_sum_squares, -before.trainee_seats)
    for old, now in zip(plans, new, strict=True):
        assert [(i.round_id, i.start, i.end) for i in old.interviews] == [
            (i.round_id, i.start, i.end) for i in now.interviews
        ]
    assert validate(prob, _document(prob, new, calendars)) == []


def test_related_group_takes_the_loops_holding_the_people_an_unscheduled_loop_needs():
    """Loop U (unscheduled) needs 'x' people: loop P holds both on Monday, loop W one of them on Wednesday,
    loop Q only other people. The group is U, then P (two seats inside U's window), then W."""
    monday = [("2026-12-07T09:00:00Z", "2026-12-07T12:00:00Z")]
    wednesday = [("2026-12-09T09:00:00Z", "2026-12-09T12:00:00Z")]
    people = [person("x1", {"x": "qualified"}), person("x2", {"x": "qualified"}), person("y1", {"y": "qualified"})]
    prob = load_problem(
        problem(
            people,
            [
                loop("U", [rnd("ru", ["x"])], monday),
                loop("Q", [rnd("rq", ["y"])], monday),
                loop("W", [rnd("rw", ["x"])], wednesday),
                loop("P", [rnd("rp", ["x"], interviewers=2)], monday),
            ],
        )
    )
    ten = prob.loops[0].windows[0].start + 60
    wednesday_ten = prob.loops[2].windows[0].start + 60
    plans = [
        LoopPlan("U"),
        LoopPlan("Q", (Interview("rq", ten, ten + 60, ("y1",), ()),)),
        LoopPlan("W", (Interview("rw", wednesday_ten, wednesday_ten + 60, ("x1",), ()),)),
        LoopPlan("P", (Interview("rp", ten, ten + 60, ("x1", "x2"), ()),)),
    ]
    pools = all_pools(prob)
    assert related_group(prob, pools, plans, 0, [0, 1, 2, 3], 2) == [0, 3]
    assert related_group(prob, pools, plans, 0, [0, 1, 2, 3], 6) == [0, 3, 2]
