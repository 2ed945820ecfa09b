"""Round order: without "ordered" a loop's rounds may come in any order (the contract's default); with
"ordered": true the engine keeps the listed order as a hard rule, and the validator checks it."""

import pytest
from core.scheduling.schedbuild import loop, person, problem, random_problem, rnd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.core.scheduling import ProblemError, load_problem, repair, solution_to_dict, solve, validate

DAY = [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")]


def _late_first(**extra) -> dict:
    """Round 'x' (listed first) can only happen from 12:00 (its one assessor starts then); round 'y' any time:
    any order puts 'y' first, before 12:00."""
    people = [person("late", {"x": "qualified"}, working_hours={"start": "12:00", "end": "17:00"}),
              person("early", {"y": "qualified"})]
    return problem(people, [loop("c", [rnd("x", ["x"]), rnd("y", ["y"])], DAY, **extra)])


def _starts(result: dict) -> dict[str, str]:
    return {i["round"]: i["start"] for i in result["loops"][0]["interviews"]}


def _ordered(doc: dict) -> dict:
    for item in doc["loops"]:
        item["ordered"] = True
    return doc


@pytest.mark.parametrize("improve", [False, True])
def test_without_the_field_rounds_come_in_any_order(improve):
    """The contract's default: the listed order is not required, and the engine uses that freedom."""
    prob = load_problem(_late_first())
    result = solution_to_dict(solve(prob, improve=improve))
    assert validate(prob, result) == []
    starts = _starts(result)
    assert starts["y"] < starts["x"]


@pytest.mark.parametrize("improve", [False, True])
def test_ordered_loop_keeps_the_listed_order(improve):
    """With "ordered": true, first-fit and the optimiser both put 'x' before 'y'."""
    prob = load_problem(_late_first(ordered=True))
    result = solution_to_dict(solve(prob, improve=improve))
    assert validate(prob, result) == []
    starts = _starts(result)
    assert starts == {"x": "2026-12-07T12:00:00Z", "y": "2026-12-07T13:00:00Z"}


def test_validator_flags_rounds_out_of_the_listed_order():
    """An out-of-order result is valid for a loop without the field and invalid for an ordered one."""
    result = solution_to_dict(solve(load_problem(_late_first())))
    assert validate(load_problem(_late_first()), result) == []
    errors = validate(load_problem(_late_first(ordered=True)), result)
    assert errors == ["loop 'c': round 'y' starts before round 'x' ends, but the loop keeps the listed order"]


@pytest.mark.parametrize("value", ["yes", 1, 0])
def test_ordered_must_be_a_boolean(value):
    """Anything but true/false (or null, the default) is an input error naming the field."""
    with pytest.raises(ProblemError, match=r"loops\[0\]\.ordered: expected true or false"):
        load_problem(_late_first(ordered=value))


def test_ordered_loop_that_fits_only_in_another_order_says_so():
    """When only the order blocks a loop, the reason says so and the first fix is to allow any order."""
    doc = _late_first(ordered=True)
    doc["interviewers"][0]["working_hours"] = {"start": "16:00", "end": "17:00"}
    doc["interviewers"][1]["working_hours"] = {"start": "09:00", "end": "16:00"}
    prob = load_problem(doc)
    entry = solution_to_dict(solve(prob))["loops"][0]
    assert entry["status"] == "unscheduled"
    assert "in the plan's order" in entry["reason"]
    assert entry["fixes"][0].startswith("let the rounds take place in any order")
    doc["loops"][0]["ordered"] = False
    assert solution_to_dict(solve(load_problem(doc)))["loops"][0]["status"] == "scheduled"


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 10_000), people=st.integers(2, 8), loops=st.integers(1, 4), dst=st.booleans())
def test_ordered_random_problems_give_valid_results(seed, people, loops, dst):
    """Random problems with every loop ordered: first-fit and the engine keep every rule, order included."""
    prob = load_problem(_ordered(random_problem(seed, people, loops, dst_week=dst)))
    assert validate(prob, solution_to_dict(solve(prob, improve=False))) == []
    assert validate(prob, solution_to_dict(solve(prob, seed=seed % 3))) == []


@pytest.mark.parametrize("seed", range(2))
def test_ordered_neighbourhood_search_and_repairs_stay_valid(seed):
    """Bigger ordered problems go through the neighbourhood search and declines; results stay in order."""
    prob = load_problem(_ordered(random_problem(200 + seed, people=14, loops=16, dst_week=bool(seed))))
    result = solution_to_dict(solve(prob, seed=seed))
    assert validate(prob, result) == []
    for entry in result["loops"]:
        if entry["status"] != "scheduled":
            continue
        interview = entry["interviews"][0]
        leaving = interview["interviewers"][0]
        repaired = repair(prob, result, entry["id"], interview["round"], leaving)
        assert validate(prob, repaired) == []
        break
