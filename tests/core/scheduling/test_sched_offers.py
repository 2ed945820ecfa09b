"""Offered start times: the bounded search behind the candidate's page finds plans first-fit alone misses."""

from __future__ import annotations

from core.scheduling.schedbuild import MONDAY, loop, person, problem, rnd

from planner.core.scheduling import offers as offers_module
from planner.core.scheduling.offers import offers
from planner.core.scheduling.parse import load_problem
from planner.core.scheduling.result import format_minute
from planner.core.scheduling.validate import validate

DAY = (f"{MONDAY}T09:00:00Z", f"{MONDAY}T17:00:00Z")


def _both_halves_problem():
    """'both' needs x and y in one person; only Pat holds both, and Pat is the least loaded x-holder."""
    people = [
        person("pat", {"x": "qualified", "y": "qualified"}),
        person("quinn", {"x": "qualified"},
               existing=[{"start": f"{MONDAY}T07:00:00Z", "end": f"{MONDAY}T08:00:00Z"}]),
    ]
    rounds = [rnd("easy", ["x"]), rnd("both", ["x", "y"])]
    return load_problem(problem(people, [loop("L", rounds, [DAY], max_gap_minutes=60)]))


def test_only_holder_of_both_halves_is_spared_for_that_round():
    """First-fit would seat Pat in 'easy' and leave 'both' unstaffable; every start offered keeps Pat for 'both'."""
    found = offers(_both_halves_problem(), "L")
    assert found, "no start offered although Quinn can take 'easy' and Pat 'both'"
    for offer in found:
        seats = {i.round_id: i.interviewers for i in offer.plan.interviews}
        assert seats == {"easy": ("quinn",), "both": ("pat",)}


def test_every_offer_is_a_valid_plan():
    """Each offered plan passes the independent validator."""
    prob = _both_halves_problem()
    found = offers(prob, "L")
    assert found
    for offer in found:
        interviews = [{"round": i.round_id, "start": format_minute(i.start), "end": format_minute(i.end),
                       "interviewers": list(i.interviewers), "trainees": list(i.trainees)}
                      for i in offer.plan.interviews]
        result = {"loops": [{"id": "L", "status": "scheduled", "interviews": interviews}], "stats": {}}
        assert [e for e in validate(prob, result) if not e.startswith("stats.")] == []


def test_search_backtracks_when_look_ahead_is_not_enough(monkeypatch):
    """With no look-ahead, backtracking alone still finds the plan; with neither, nothing is offered."""
    prob = _both_halves_problem()
    monkeypatch.setattr(offers_module, "RESERVE", 0)
    assert offers(prob, "L"), "backtracking should re-seat 'easy' with Quinn"
    monkeypatch.setattr(offers_module, "BACKTRACKS", 0)
    assert offers(prob, "L") == []


def test_a_start_too_late_for_the_day_is_not_offered():
    """A one-day loop of two hours is never offered at 15:30 in a window ending 17:00."""
    prob = _both_halves_problem()
    starts = {offer.start % (24 * 60) for offer in offers(prob, "L")}
    assert starts and max(starts) <= 15 * 60


def test_an_ordered_loop_is_offered_only_in_its_listed_order():
    """With "ordered", the scarcer 'second' round never goes first, as it would in a loop of any order."""
    people = [person("pat", {"x": "qualified", "y": "qualified"}), person("quinn", {"x": "qualified"}),
              person("rita", {"x": "qualified"})]
    rounds = [rnd("first", ["x"]), rnd("second", ["y"])]
    windows = [DAY]
    unordered = load_problem(problem(people, [loop("L", rounds, windows, max_gap_minutes=60)]))
    ordered = load_problem(problem(people, [loop("L", rounds, windows, max_gap_minutes=60, ordered=True)]))

    def firsts(prob):
        return {min(offer.plan.interviews, key=lambda i: i.start).round_id for offer in offers(prob, "L")}

    assert "second" in firsts(unordered)
    assert firsts(ordered) == {"first"}
