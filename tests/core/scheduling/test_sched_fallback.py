"""Without OR-Tools the engine still answers: first-fit plus local search, always valid."""

import sys

import pytest
from core.scheduling.schedbuild import loop, person, problem, random_problem, rnd

from planner.core.scheduling import greedy, load_problem, repair, solution_to_dict, solve, validate


@pytest.fixture
def no_ortools(monkeypatch):
    """Make `from ortools.sat.python import cp_model` fail as it would where OR-Tools is not installed."""
    monkeypatch.setitem(sys.modules, "ortools.sat.python", None)
    monkeypatch.setitem(sys.modules, "ortools.sat.python.cp_model", None)


@pytest.mark.parametrize("seed", range(8))
def test_fallback_results_are_valid_and_no_worse_than_first_fit(no_ortools, seed):
    """The fallback plan passes the validator and never has a larger Σ load² than plain first-fit."""
    prob = load_problem(random_problem(seed, people=10, loops=5))
    fallback = solve(prob)
    assert fallback.method == "greedy+local-search"
    result = solution_to_dict(fallback)
    assert validate(prob, result) == []
    greedy = solution_to_dict(solve(prob, improve=False))
    assert result["stats"]["scheduled"] == greedy["stats"]["scheduled"]
    assert result["stats"]["load_sum_squares"] <= greedy["stats"]["load_sum_squares"]


def test_fallback_repair_stays_valid(no_ortools):
    """Repairs without OR-Tools fall back to first-fit re-planning and stay valid."""
    prob = load_problem(random_problem(5, people=8, loops=3))
    result = solution_to_dict(solve(prob))
    for entry in result["loops"]:
        for interview in entry.get("interviews", []):
            fixed = repair(prob, result, entry["id"], interview["round"], interview["interviewers"][0])
            assert validate(prob, fixed) == []


def test_first_fit_asks_each_start_once_for_a_loop_it_cannot_pack(monkeypatch):
    """First-fit tries every first start of a loop; one whose second round can never be staffed used to
    re-ask every later start for each of them (slot 1, a two-day window: 4 million questions, 16 s)."""
    every_day = {"start": "00:00", "end": "24:00", "days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]}
    busy = [{"start": "2026-12-01T00:00:00Z", "end": "2026-12-20T00:00:00Z"}]
    people = [person(f"a{n}", {"x": "qualified"}, working_hours=every_day) for n in range(10)]
    people += [person(f"b{n}", {"y": "qualified"}, working_hours=every_day, busy=busy) for n in range(5)]
    rounds = [rnd("a", ["x"], minutes=30), rnd("b", ["y"], minutes=30)]
    doc = problem(people, [loop("c", rounds, [("2026-12-07T00:00:00Z", "2026-12-09T00:00:00Z")])], slot=1)
    asked = []
    real = greedy.pick_panel
    monkeypatch.setattr(greedy, "pick_panel", lambda *args: asked.append(args[2]) or real(*args))
    result = solution_to_dict(solve(load_problem(doc), improve=False))
    assert result["loops"][0]["status"] == "unscheduled"
    assert len(asked) < 3 * 2 * 24 * 60  # about once per round and start (was about 4 million)


@pytest.mark.parametrize("seed", range(12))
def test_first_fit_plans_the_same_with_calendars_asked_once(seed):
    """The calendar answers shared between loops change nothing: every loop placed in turn, with and without
    them, gets the same plan (zones, busy time, caps, a daylight-saving week on half the seeds)."""
    from planner.core.scheduling.availability import build_calendars
    from planner.core.scheduling.ledger import Ledger

    prob = load_problem(random_problem(300 + seed, people=10, loops=6, dst_week=seed % 2 == 0))
    calendars, pools = build_calendars(prob), greedy.all_pools(prob)
    shared = greedy.CalendarFree(calendars)
    with_cache, without = Ledger(calendars), Ledger(calendars)
    for each in prob.loops:
        first = greedy.place_loop(prob, each, with_cache, pools[each.id], shared)
        second = greedy.place_loop(prob, each, without, pools[each.id])
        assert first == second
        if first is not None:
            with_cache.add_plan(first)
            without.add_plan(second)


def test_calendar_answers_are_the_people_free_then_and_shared_by_rounds_of_the_same_competencies():
    from planner.core.scheduling.availability import build_calendars

    prob = load_problem(random_problem(0, people=12, loops=3))
    calendars, pools = build_calendars(prob), greedy.all_pools(prob)
    shared = greedy.CalendarFree(calendars)
    start = min(w.start for w in prob.loops[0].windows) + 120
    rounds = [(each, r) for each in prob.loops for r in each.rounds]
    for each, r in rounds:
        free = shared.people(r, "a", pools[each.id][r.id].assessors, start)
        expected = [p for p in pools[each.id][r.id].assessors if calendars[p.id].block_for(start, start + r.minutes)]
        assert [p for p, _block in free] == expected
    same = [
        (a, b)
        for n, a in enumerate(rounds)
        for b in rounds[n + 1 :]
        if a[0] is not b[0] and (a[1].competencies, a[1].minutes) == (b[1].competencies, b[1].minutes)
    ]
    assert same  # rounds of different loops assessing the same competencies
    for (first_loop, first), (second_loop, second) in same:
        assert shared.people(first, "a", pools[first_loop.id][first.id].assessors, start) is shared.people(
            second, "a", pools[second_loop.id][second.id].assessors, start
        )
