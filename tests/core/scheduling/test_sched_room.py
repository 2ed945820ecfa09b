"""A loop whose rounds cannot fit its candidate windows: known before any search, explained, and never in
the way of the loops that can be placed."""

from __future__ import annotations

import pytest
from core.scheduling.schedbuild import loop, person, problem, rnd

from planner.core.scheduling import load_problem, solution_to_dict, solve, validate

MON = ("2026-12-07T09:00:00Z", "2026-12-07T12:00:00Z")  # 180 minutes
MON_AFTERNOON = ("2026-12-07T12:30:00Z", "2026-12-07T14:00:00Z")  # 90 minutes, 30 minutes after MON
TUE = ("2026-12-08T09:00:00Z", "2026-12-08T12:00:00Z")  # 180 minutes, the next day


def _loop(windows, gap, minutes=(60, 60, 60, 60)):
    rounds = [rnd(f"r{n}", ["x"], minutes=m) for n, m in enumerate(minutes)]
    doc = loop("c", rounds, windows, **({} if gap is None else {"max_gap_minutes": gap}))
    return load_problem(problem([person("p", {"x": "qualified"})], [doc])).loops[0]


@pytest.mark.parametrize(
    ("windows", "gap", "room"),
    [
        ([MON], None, 180),
        ([MON], 60, 180),
        ([MON, TUE], None, 360),  # without a gap limit a loop may spread over days
        ([MON, TUE], 60, 180),  # with one, a day apart is too far: one window at a time
        ([MON, MON_AFTERNOON], 60, 270),  # a 30-minute break can sit between two rounds
        ([MON, MON_AFTERNOON], 15, 180),  # ... but not when at most 15 minutes may pass
        ([MON, ("2026-12-07T10:00:00Z", "2026-12-07T12:30:00Z")], 60, 210),  # overlapping windows count once
        ([TUE, MON], 60, 180),  # the order the windows are given in does not matter
    ],
)
def test_room_minutes(windows, gap, room):
    assert _loop(windows, gap).room_minutes() == room


def _solve(doc):
    prob = load_problem(doc)
    result = solution_to_dict(solve(prob))
    assert validate(prob, result) == []
    return {entry["id"]: entry for entry in result["loops"]}


def test_loop_longer_than_its_stretch_of_windows_is_explained():
    """Four hours of rounds, two three-hour windows a day apart, at most an hour between rounds."""
    rounds = [rnd(f"r{n}", ["x"]) for n in range(4)]
    doc = problem([person("p", {"x": "qualified"})], [loop("c", rounds, [MON, TUE], max_gap_minutes=60)])
    entry = _solve(doc)["c"]
    assert entry["status"] == "unscheduled"
    assert entry["reason"] == "the rounds need 240 minutes but the longest candidate window is 180 minutes"
    assert entry["fixes"] == [
        "lengthen the window of Mon 07 Dec 2026 by at least 60 minutes (candidate's time)",
        "allow more than 60 minutes between rounds, so that the loop can spread over its windows",
    ]


def test_a_loop_longer_than_its_only_window_is_told_by_how_much():
    """Without a gap limit the fix names the window, in the candidate's zone, and the minutes missing."""
    rounds = [rnd(f"r{n}", ["x"]) for n in range(4)]
    evening = ("2026-12-08T02:00:00Z", "2026-12-08T05:00:00Z")  # Monday 18:00-21:00 in Los Angeles
    doc = loop("c", rounds, [evening], candidate={"name": "Kim", "timezone": "America/Los_Angeles"})
    evenings = {"timezone": "America/Los_Angeles", "working_hours": {"start": "17:00", "end": "22:00"}}
    entry = _solve(problem([person("p", {"x": "qualified"}, **evenings)], [doc]))["c"]
    assert entry["reason"] == "the rounds need 240 minutes but the longest candidate window is 180 minutes"
    assert entry["fixes"] == [
        "lengthen the window of Mon 07 Dec 2026 by at least 60 minutes (candidate's time)",
        "add a window of at least 60 minutes",
    ]


def test_windows_joined_by_short_breaks_are_explained_as_one_stretch():
    rounds = [rnd(f"r{n}", ["x"]) for n in range(5)]
    doc = problem([person("p", {"x": "qualified"})], [loop("c", rounds, [MON, MON_AFTERNOON], max_gap_minutes=60)])
    entry = _solve(doc)["c"]
    assert entry["reason"] == (
        "the rounds need 300 minutes but the candidate's windows hold at most 270 minutes of rounds "
        "with at most 60 minutes between rounds"
    )
    # Both windows together hold 270 minutes, so longer breaks would not help.
    assert entry["fixes"] == [
        "lengthen the window of Mon 07 Dec 2026 by at least 30 minutes (candidate's time)",
        "add a window of at least 30 minutes",
    ]


def test_without_a_gap_limit_a_loop_spreads_over_its_windows():
    """The same four hours fit two windows on two days when nothing limits the time between rounds."""
    rounds = [rnd(f"r{n}", ["x"]) for n in range(4)]
    people = [person(f"p{n}", {"x": "qualified"}) for n in range(4)]  # one seat per person per loop
    entry = _solve(problem(people, [loop("c", rounds, [MON, TUE])]))["c"]
    assert entry["status"] == "scheduled"
    assert {i["start"][:10] for i in entry["interviews"]} == {"2026-12-07", "2026-12-08"}


def test_a_loop_that_cannot_fit_does_not_hide_one_that_can():
    """Next to a loop that needs more than its windows hold, a loop first-fit cannot place is still found.

    First-fit packs rounds from the earliest start: round 'a' at 09:00 with the only person for it,
    then 'b' cannot follow within 30 minutes (its only person is busy until 11:00). Starting 'a' at
    10:00 works. The impossible loop has six rounds of 60 minutes in two five-hour windows a day apart:
    proving that by search cost CP-SAT a whole step in which the other loop was not found.
    """
    a_person = person("pa", {"a": "qualified"})
    b_person = person("pb", {"b": "qualified"}, busy=[{"start": "2026-12-09T09:00:00Z", "end": "2026-12-09T11:00:00Z"}])
    helpers = [person(f"h{n}", {"x": "qualified", "y": "qualified"}) for n in range(4)]
    fits = loop(
        "fits", [rnd("a", ["a"]), rnd("b", ["b"])], [("2026-12-09T09:00:00Z", "2026-12-09T17:00:00Z")],
        max_gap_minutes=30,
    )
    too_long = loop(
        "too-long",
        [rnd(f"r{n}", ["x" if n % 2 else "y"]) for n in range(6)],
        [("2026-12-07T09:00:00Z", "2026-12-07T14:00:00Z"), ("2026-12-08T09:00:00Z", "2026-12-08T14:00:00Z")],
        max_gap_minutes=60,
    )
    result = _solve(problem([a_person, b_person, *helpers], [too_long, fits]))
    assert result["fits"]["status"] == "scheduled"
    first, second = result["fits"]["interviews"]
    assert first["end"] == second["start"]  # back to back: no idle time for the candidate
    assert result["too-long"]["status"] == "unscheduled"
    assert result["too-long"]["reason"].startswith("the rounds need 360 minutes but the longest candidate window")


def test_first_fits_plan_is_re_timed_to_shorten_the_candidates_day():
    """First-fit takes the earliest start that works: 'a' at 09:30 with a 30-minute wait for 'b' at 11:00.
    Nothing above idle time can improve on it, and the candidate's day is still made as short as it can be."""
    a_person = person("pa", {"a": "qualified"})
    b_person = person("pb", {"b": "qualified"}, busy=[{"start": "2026-12-09T09:00:00Z", "end": "2026-12-09T11:00:00Z"}])
    fits = loop(
        "fits", [rnd("a", ["a"]), rnd("b", ["b"])], [("2026-12-09T09:00:00Z", "2026-12-09T17:00:00Z")],
        max_gap_minutes=30,
    )
    prob = load_problem(problem([a_person, b_person], [fits]))
    first_fit = solution_to_dict(solve(prob, improve=False))["loops"][0]["interviews"]
    assert [i["start"] for i in first_fit] == ["2026-12-09T09:30:00Z", "2026-12-09T11:00:00Z"]
    solution = solve(prob)
    interviews = solution_to_dict(solution)["loops"][0]["interviews"]
    assert interviews[0]["end"] == interviews[1]["start"]
    assert solution.optimal is True
