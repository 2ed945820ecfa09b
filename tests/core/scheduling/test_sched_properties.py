"""Every result the engine or the baseline produces passes the independent validator; the validator bites."""

import copy
from datetime import datetime, timedelta

import pytest
from core.scheduling.schedbuild import random_problem
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.core.scheduling import load_problem, solution_to_dict, solve, validate

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 10_000), people=st.integers(2, 8), loops=st.integers(1, 4), dst=st.booleans())
def test_engine_results_are_always_valid(seed, people, loops, dst):
    """On random problems (zones, DST weeks, caps, busy time, seat rules) the engine's result is valid."""
    prob = load_problem(random_problem(seed, people, loops, dst_week=dst))
    result = solution_to_dict(solve(prob, seed=seed % 3))
    assert validate(prob, result) == []


@SETTINGS
@given(seed=st.integers(0, 10_000), people=st.integers(2, 8), loops=st.integers(1, 4))
def test_engine_never_schedules_fewer_loops_than_first_fit(seed, people, loops):
    """The optimiser starts from the first-fit plan, so it never schedules fewer loops or worse load."""
    prob = load_problem(random_problem(seed, people, loops))
    greedy = solution_to_dict(solve(prob, improve=False))
    engine = solution_to_dict(solve(prob))
    assert validate(prob, greedy) == []
    assert engine["stats"]["scheduled"] >= greedy["stats"]["scheduled"]
    if engine["stats"]["scheduled"] == greedy["stats"]["scheduled"]:
        assert engine["stats"]["load_sum_squares"] <= greedy["stats"]["load_sum_squares"]


def _without_seconds(result: dict) -> dict:
    result = copy.deepcopy(result)
    del result["stats"]["seconds"]
    return result


def test_same_input_and_seed_give_the_same_result():
    """Solving the same problem twice gives identical results apart from stats.seconds."""
    doc = random_problem(7, people=10, loops=6)
    first = solution_to_dict(solve(load_problem(doc), seed=1))
    second = solution_to_dict(solve(load_problem(copy.deepcopy(doc)), seed=1))
    assert _without_seconds(first) == _without_seconds(second)


def _scheduled_case():
    for seed in range(100):
        doc = random_problem(seed, people=8, loops=3)
        prob = load_problem(doc)
        result = solution_to_dict(solve(prob))
        if result["stats"]["scheduled"] >= 2 and any(
            i["trainees"] for e in result["loops"] for i in e.get("interviews", [])
        ):
            return prob, result
    raise AssertionError("no random problem with two scheduled loops and a trainee")


def test_validator_reports_each_kind_of_violation():
    """Corrupting a valid result in one way at a time makes the validator name that rule."""
    prob, result = _scheduled_case()
    assert validate(prob, result) == []
    scheduled = [e for e in result["loops"] if e["status"] == "scheduled"]
    first = scheduled[0]["interviews"][0]

    def broken(change) -> list[str]:
        copy_ = copy.deepcopy(result)
        change(copy_, next(e for e in copy_["loops"] if e["id"] == scheduled[0]["id"])["interviews"][0])
        return validate(prob, copy_)

    def shift_end(_r, i):
        end = datetime.fromisoformat(i["end"]) + timedelta(minutes=5)
        i["end"] = end.isoformat()

    assert any("instead of" in e for e in broken(shift_end))
    assert any(
        "unknown interviewer" in e for e in broken(lambda _r, i: i["interviewers"].__setitem__(0, "ghost"))
    )
    assert any("interviewers instead of" in e for e in broken(lambda _r, i: i["interviewers"].pop()))
    assert any(
        "is not scheduled" in e
        for e in broken(
            lambda r, i: r["loops"][[e["id"] for e in r["loops"]].index(scheduled[0]["id"])][
                "interviews"
            ].remove(i)
        )
    )
    assert any("stats.scheduled" in e for e in broken(lambda r, _i: r["stats"].__setitem__("scheduled", 99)))
    other = scheduled[1]["interviews"][0]

    # Put the same person into another loop at the same time: double booking (or outside their hours).
    def clash(r, _i):
        target = next(e for e in r["loops"] if e["id"] == scheduled[1]["id"])["interviews"][0]
        target["start"], target["end"] = first["start"], first["end"]
        target["interviewers"][0] = first["interviewers"][0]

    assert broken(clash)
    assert other  # the second loop exists


def test_validator_checks_working_hours_busy_and_caps():
    """A hand-made result that breaks hours, busy time and caps is reported on each count."""
    doc = {
        "interviewers": [
            {
                "id": "p",
                "timezone": "Europe/Berlin",
                "max_per_day": 1,
                "skills": {"x": "qualified"},
                "busy": [{"start": "2026-12-07T12:00:00Z", "end": "2026-12-07T13:00:00Z"}],
            }
        ],
        "loops": [
            {
                "id": f"c{n}",
                "windows": [{"start": "2026-12-07T00:00:00Z", "end": "2026-12-08T00:00:00Z"}],
                "rounds": [{"id": "r", "minutes": 60, "competencies": ["x"]}],
            }
            for n in range(3)
        ],
    }
    prob = load_problem(doc)
    slots = [
        ("2026-12-07T07:00:00Z", "2026-12-07T08:00:00Z"),  # 08:00 Berlin: before working hours
        ("2026-12-07T12:00:00Z", "2026-12-07T13:00:00Z"),  # busy
        ("2026-12-07T14:00:00Z", "2026-12-07T15:00:00Z"),
    ]  # third seat of the day
    result = {
        "loops": [
            {
                "id": f"c{n}",
                "status": "scheduled",
                "interviews": [{"round": "r", "start": s, "end": e, "interviewers": ["p"], "trainees": []}],
            }
            for n, (s, e) in enumerate(slots)
        ],
        "stats": {"scheduled": 3, "unscheduled": 0, "load_sum_squares": 9, "max_load": 3, "trainee_seats": 0},
    }
    errors = validate(prob, result)
    assert any("outside the working hours of 'p'" in e for e in errors)
    assert any("busy block" in e for e in errors)
    assert any("over the daily cap 1" in e for e in errors)


@pytest.mark.parametrize("seed", range(3))
def test_neighbourhood_search_results_are_valid(seed):
    """Problems larger than one neighbourhood go through re-assignment and LNS steps and stay valid."""
    prob = load_problem(random_problem(100 + seed, people=14, loops=16, dst_week=bool(seed % 2)))
    solution = solve(prob, seed=seed)
    result = solution_to_dict(solution)
    assert validate(prob, result) == []
    greedy = solution_to_dict(solve(prob, improve=False))
    assert result["stats"]["scheduled"] >= greedy["stats"]["scheduled"]
