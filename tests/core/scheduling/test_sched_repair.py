"""Declines: ranked substitutes that keep every rule, local repair first, minimal-change re-plan otherwise."""

import pytest
from core.scheduling.schedbuild import loop, person, problem, random_problem, rnd

from planner.core.scheduling import (
    RepairError,
    load_problem,
    repair,
    solution_to_dict,
    solve,
    substitutes,
    validate,
)

WINDOW = [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")]


def _planned(doc):
    prob = load_problem(doc)
    return prob, solution_to_dict(solve(prob))


def test_substitutes_keep_coverage_caps_and_seat_rules_ranked_by_load():
    """Only qualified free people under cap who keep the outside-team rule are offered, least loaded first."""
    people = [
        person("lead", {"x": "qualified"}, team="hiring"),
        person("out", {"x": "qualified"}, team="elsewhere"),
        person("in2", {"x": "qualified"}, team="hiring"),  # would break the outside-team rule
        person(
            "out_busy",
            {"x": "qualified"},
            team="elsewhere",
            busy=[{"start": "2026-12-07T00:00:00Z", "end": "2026-12-08T00:00:00Z"}],
        ),
        person(
            "out_loaded",
            {"x": "qualified"},
            team="elsewhere",
            existing=[{"start": "2026-12-08T09:00:00Z", "end": "2026-12-08T10:00:00Z"}],
        ),
        person("out_fresh", {"x": "qualified"}, team="elsewhere"),
        person(
            "capped",
            {"x": "qualified"},
            team="elsewhere",
            max_per_week=1,
            existing=[{"start": "2026-12-09T09:00:00Z", "end": "2026-12-09T10:00:00Z"}],
        ),
        person("novice", {"x": "shadow"}, team="elsewhere"),
    ]
    prob = load_problem(
        problem(people, [loop("c", [rnd("bar", ["x"], interviewers=2, outside_hiring_team=1)], WINDOW)])
    )
    seat = {
        "round": "bar",
        "start": "2026-12-07T10:00:00Z",
        "end": "2026-12-07T11:00:00Z",
        "interviewers": ["lead", "out"],
        "trainees": [],
    }
    result = {"loops": [{"id": "c", "status": "scheduled", "interviews": [seat]}], "stats": {}}
    leaving = "out"
    offers = substitutes(prob, result, "c", "bar", leaving)
    ids = [s.interviewer_id for s in offers]
    assert "in2" not in ids and "out_busy" not in ids and "capped" not in ids and "novice" not in ids
    assert ids and ids[-1] == "out_loaded"
    assert all(s.why and "qualified in x" in s.why for s in offers)
    fixed = repair(prob, result, "c", "bar", leaving)
    assert validate(prob, fixed) == []
    new_seat = fixed["loops"][0]["interviews"][0]
    assert leaving not in new_seat["interviewers"] and ids[0] in new_seat["interviewers"]
    assert new_seat["start"] == seat["start"]


def test_repair_moves_the_round_when_nobody_can_substitute():
    """With no one free at that time, the round moves to when someone qualified is free; other rounds stay."""
    people = [
        person("a", {"x": "qualified"}),
        person(
            "b", {"x": "qualified"}, busy=[{"start": "2026-12-07T09:00:00Z", "end": "2026-12-07T12:00:00Z"}]
        ),
        person("c", {"y": "qualified"}),
    ]
    prob, result = _planned(problem(people, [loop("L", [rnd("rx", ["x"]), rnd("ry", ["y"])], WINDOW)]))
    before = {i["round"]: i for i in result["loops"][0]["interviews"]}
    leaving = before["rx"]["interviewers"][0]
    assert leaving == "a"
    assert substitutes(prob, result, "L", "rx", "a") == []
    fixed = repair(prob, result, "L", "rx", "a")
    assert validate(prob, fixed) == []
    after = {i["round"]: i for i in fixed["loops"][0]["interviews"]}
    assert after["rx"]["interviewers"] == ["b"]
    assert after["ry"] == before["ry"] or after["ry"]["interviewers"] == before["ry"]["interviewers"]


def test_declined_trainee_seat_is_refilled_or_left_empty():
    """A trainee who declines is replaced by another trainee if one is free, else the seat is dropped."""
    people = [person("lead", {"x": "qualified"}), person("t1", {"x": "shadow"})]
    prob, result = _planned(problem(people, [loop("L", [rnd("r", ["x"], trainee=True)], WINDOW)]))
    assert result["loops"][0]["interviews"][0]["trainees"] == ["t1"]
    fixed = repair(prob, result, "L", "r", "t1")
    assert fixed["loops"][0]["interviews"][0]["trainees"] == []
    assert fixed["stats"]["trainee_seats"] == 0
    assert validate(prob, fixed) == []


def test_repair_rejects_a_seat_that_does_not_exist():
    """Asking to repair a person who does not sit in the round is a clear domain error."""
    prob, result = _planned(
        problem([person("a", {"x": "qualified"})], [loop("L", [rnd("r", ["x"])], WINDOW)])
    )
    with pytest.raises(RepairError, match="'zed' does not sit in round 'r' of loop 'L'"):
        repair(prob, result, "L", "r", "zed")
    with pytest.raises(RepairError, match="no round 'nope'"):
        substitutes(prob, result, "L", "nope", "a")


@pytest.mark.parametrize("seed", range(6))
def test_repairs_of_random_plans_stay_valid(seed):
    """Removing any assessor from a random plan and repairing gives a valid result without that person."""
    prob, result = _planned(random_problem(seed, people=8, loops=3))
    for entry in result["loops"]:
        for interview in entry.get("interviews", []):
            leaving = interview["interviewers"][0]
            fixed = repair(prob, result, entry["id"], interview["round"], leaving)
            assert validate(prob, fixed) == []
            again = next(e for e in fixed["loops"] if e["id"] == entry["id"])
            for item in again.get("interviews", []):
                if item["round"] == interview["round"]:
                    assert leaving not in item["interviewers"]
