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


def _four_round_day(extra_people):
    """Rounds x, y, z, w at 09, 10, 11 and 12 UTC filling a 09-13 window; 'a' holds x and will decline."""
    busy = {
        # 'e' can only take x at 12-13; 'd' can only take w from 11.
        "e": [{"start": "2026-12-07T00:00:00Z", "end": "2026-12-07T12:00:00Z"}],
        "d": [{"start": "2026-12-07T00:00:00Z", "end": "2026-12-07T11:00:00Z"}],
    }
    people = [
        person("a", {"x": "qualified"}),
        person("b", {"y": "qualified"}),
        person("c", {"z": "qualified"}),
        person("d", {"w": "qualified"}, busy=busy["d"]),
        person("e", {"x": "qualified"}, busy=busy["e"]),
        *extra_people,
    ]
    rounds = [rnd(r, [r]) for r in "xyzw"]
    prob = load_problem(problem(people, [loop("L", rounds, [("2026-12-07T09:00:00Z", "2026-12-07T13:00:00Z")])]))
    seats = [
        {
            "round": r,
            "start": f"2026-12-07T{9 + n:02d}:00:00Z",
            "end": f"2026-12-07T{10 + n:02d}:00:00Z",
            "interviewers": [who],
            "trainees": [],
        }
        for n, (r, who) in enumerate(zip("xyzw", "abcd", strict=True))
    ]
    return prob, {"loops": [{"id": "L", "status": "scheduled", "interviews": seats}], "stats": {}}


def _moved(before, after):
    start = {i["round"]: i["start"] for e in before["loops"] for i in e.get("interviews", [])}
    return {i["round"] for e in after["loops"] for i in e.get("interviews", []) if start.get(i["round"]) != i["start"]}


def test_re_plan_moves_at_most_two_rounds_when_that_keeps_the_loop():
    """x can only go to 12:00; w then moves to 09:00 with d2 rather than shuffling z and y too."""
    prob, result = _four_round_day([person("d2", {"w": "qualified"})])
    fixed = repair(prob, result, "L", "x", "a")
    assert validate(prob, fixed) == []
    assert fixed["loops"][0]["status"] == "scheduled"
    assert _moved(result, fixed) == {"x", "w"}


def test_re_plan_moves_more_rounds_only_when_the_loop_would_otherwise_be_lost():
    """Without d2, keeping the candidate's loop needs three moves: the cap gives way rather than the loop."""
    prob, result = _four_round_day([])
    fixed = repair(prob, result, "L", "x", "a")
    assert validate(prob, fixed) == []
    assert fixed["loops"][0]["status"] == "scheduled"
    assert len(_moved(result, fixed)) == 3


@pytest.mark.parametrize(("max_moved", "scheduled"), [(0, False), (1, False), (2, False), (3, True), (None, True)])
def test_the_moved_rounds_cap_is_a_hard_rule(max_moved, scheduled):
    """The solver keeps the loop only when the cap allows the three moves it needs."""
    from planner.core.scheduling.availability import build_calendars
    from planner.core.scheduling.cpsat import solve_neighbourhood
    from planner.core.scheduling.ledger import ledger_of
    from planner.core.scheduling.panels import all_pools
    from planner.core.scheduling.problem import LoopPlan
    from planner.core.scheduling.repair import plans_from_result

    prob, result = _four_round_day([])
    calendars = build_calendars(prob)
    (old,) = plans_from_result(prob, result)
    outcome = solve_neighbourhood(
        prob,
        calendars,
        ledger_of(calendars, []),
        list(prob.loops),
        all_pools(prob),
        {"L": LoopPlan("L")},
        keep={"L": old},
        banned=frozenset({("L", "x", "a")}),
        max_moved=max_moved,
    )
    assert outcome.plans["L"].scheduled is scheduled


def _decline_world(*extra, cat_free_from: str = "11:00"):
    """Round ra (skill a) with Cat at 09:00 and round rb (skill b) with Ana at 10:00. Ana (a and b) declines rb.
    Ben, the only other b, is free only at 09:00, so rb must move there and ra must move too: Cat is busy from
    10:00 until ``cat_free_from``. Ana could take ra at 10:00, but she declined."""
    day = "2026-12-07"
    people = [
        person("ana", {"a": "qualified", "b": "qualified"}),
        person("ben", {"b": "qualified"}, busy=[{"start": f"{day}T10:00:00Z", "end": f"{day}T17:00:00Z"}]),
        person("cat", {"a": "qualified"}, busy=[{"start": f"{day}T10:00:00Z", "end": f"{day}T{cat_free_from}:00Z"}]),
        *extra,
    ]
    doc = problem(people, [loop("L", [rnd("ra", ["a"]), rnd("rb", ["b"])], WINDOW)])
    result = {
        "loops": [
            {
                "id": "L",
                "status": "scheduled",
                "interviews": [
                    {"round": "ra", "start": f"{day}T09:00:00Z", "end": f"{day}T10:00:00Z", "interviewers": ["cat"]},
                    {"round": "rb", "start": f"{day}T10:00:00Z", "end": f"{day}T11:00:00Z", "interviewers": ["ana"]},
                ],
            }
        ]
    }
    return load_problem(doc), result


def _seated(result):
    return {(i["round"], p) for e in result["loops"] for i in e.get("interviews", []) for p in i["interviewers"]}


def test_someone_who_declines_is_not_moved_into_another_round_of_the_loop():
    """Cat is busy for the rest of the day, so only Ana could take ra once rb moves to 09:00: the loop is not kept
    by seating the person who declined (it is left for the coordinator, with its reason)."""
    prob, result = _decline_world(cat_free_from="17:00")
    fixed = repair(prob, result, "L", "rb", "ana")
    assert validate(prob, fixed) == []
    assert "ana" not in {p for _r, p in _seated(fixed)}
    assert fixed["loops"][0]["status"] == "unscheduled"
    assert fixed["loops"][0]["reason"]


def test_people_taken_off_the_loop_before_are_not_put_back():
    """Dan was taken off this loop earlier; he would be the one free substitute, so the seat goes to a re-plan."""
    prob, result = _decline_world(person("dan", {"b": "qualified"}))
    assert [s.interviewer_id for s in substitutes(prob, result, "L", "rb", "ana")] == ["dan"]
    assert substitutes(prob, result, "L", "rb", "ana", keep_out={"dan"}) == []
    fixed = repair(prob, result, "L", "rb", "ana", keep_out={"dan"})
    assert validate(prob, fixed) == []
    assert "dan" not in {p for _r, p in _seated(fixed)}
    assert _seated(fixed) == {("rb", "ben"), ("ra", "cat")}


def test_re_plan_frees_a_substitute_held_at_their_weekly_cap_by_a_loop_on_another_day():
    """Only 'b' can take x on Monday, and b's one seat of the week is Wednesday's y, which 'c' can take: the
    re-plan moves b's Wednesday seat to c and seats b on Monday, moving no round and losing no loop."""
    people = [
        person("a", {"x": "qualified"}),
        person("b", {"x": "qualified", "y": "qualified"}, max_per_week=1),
        person("c", {"y": "qualified"}),
    ]
    monday = [("2026-12-07T09:00:00Z", "2026-12-07T12:00:00Z")]
    wednesday = [("2026-12-09T09:00:00Z", "2026-12-09T12:00:00Z")]
    loops = [loop("L", [rnd("rx", ["x"])], monday), loop("M", [rnd("ry", ["y"])], wednesday)]
    prob = load_problem(problem(people, loops))

    def seat(rid, day, who):
        return {"round": rid, "start": f"{day}T09:00:00Z", "end": f"{day}T10:00:00Z", "interviewers": [who],
                "trainees": []}

    result = {
        "loops": [
            {"id": "L", "status": "scheduled", "interviews": [seat("rx", "2026-12-07", "a")]},
            {"id": "M", "status": "scheduled", "interviews": [seat("ry", "2026-12-09", "b")]},
        ],
        "stats": {},
    }
    assert [e for e in validate(prob, result) if not e.startswith("stats.")] == []
    assert substitutes(prob, result, "L", "rx", "a") == []
    fixed = repair(prob, result, "L", "rx", "a")
    assert validate(prob, fixed) == []
    seats = {e["id"]: e["interviews"][0] for e in fixed["loops"] if e["status"] == "scheduled"}
    assert seats["L"]["interviewers"] == ["b"] and seats["M"]["interviewers"] == ["c"]
    assert _moved(result, fixed) == set()
