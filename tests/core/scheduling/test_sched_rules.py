"""Hard rules of DESIGN 5.2 on hand-built problems: time zones, daylight saving, caps, seats, gaps."""

from core.scheduling.schedbuild import loop, person, problem, rnd

from planner.core.scheduling import load_problem, solution_to_dict, solve, validate


def _solve(doc: dict, **kwargs) -> dict:
    prob = load_problem(doc)
    result = solution_to_dict(solve(prob, **kwargs))
    assert validate(prob, result) == []
    return result


def _status(result: dict) -> dict[str, str]:
    return {entry["id"]: entry["status"] for entry in result["loops"]}


def test_daylight_saving_moves_working_hours_in_utc():
    """Berlin 09:00 is 08:00Z before the spring change (Fri 27 Mar 2026) and 07:00Z after it (Mon 30)."""
    berlin = person("b", {"x": "qualified"}, timezone="Europe/Berlin")
    after = loop("after", [rnd("r", ["x"])], [("2026-03-30T07:00:00Z", "2026-03-30T08:00:00Z")])
    before = loop("before", [rnd("r", ["x"])], [("2026-03-27T07:00:00Z", "2026-03-27T08:00:00Z")])
    result = _solve(problem([berlin], [after, before]))
    assert _status(result) == {"after": "scheduled", "before": "unscheduled"}
    assert result["loops"][0]["interviews"][0]["start"] == "2026-03-30T07:00:00Z"
    assert "free inside the candidate's windows" in result["loops"][1]["reason"]


def test_daily_cap_counts_the_interviewers_local_day_not_utc():
    """Tokyo's daily cap splits at Tokyo midnight: same UTC day can be two local days and vice versa."""
    hours = {"start": "00:00", "end": "24:00", "days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]}
    tokyo = person("t", {"x": "qualified"}, timezone="Asia/Tokyo", working_hours=hours, max_per_day=1)
    # 13:00Z is 22:00 on Tue 8 Dec in Tokyo; 16:00Z is 01:00 on Wed 9 Dec: two local days.
    split = [
        loop("a", [rnd("r", ["x"])], [("2026-12-08T13:00:00Z", "2026-12-08T14:00:00Z")]),
        loop("b", [rnd("r", ["x"])], [("2026-12-08T16:00:00Z", "2026-12-08T17:00:00Z")]),
    ]
    assert set(_status(_solve(problem([tokyo], split))).values()) == {"scheduled"}
    # 14:00Z on 8 Dec (23:00 Tue) and 16:00Z on 7 Dec (01:00 Tue): two UTC days, one Tokyo day.
    same = [
        loop("a", [rnd("r", ["x"])], [("2026-12-08T14:00:00Z", "2026-12-08T15:00:00Z")]),
        loop("b", [rnd("r", ["x"])], [("2026-12-07T16:00:00Z", "2026-12-07T17:00:00Z")]),
    ]
    result = _solve(problem([tokyo], same))
    assert sorted(_status(result).values()) == ["scheduled", "unscheduled"]
    unscheduled = next(e for e in result["loops"] if e["status"] == "unscheduled")
    assert "daily cap" in unscheduled["reason"]


def test_weekly_cap_counts_existing_interviews_in_the_local_iso_week():
    """An existing interview in the same local ISO week uses the weekly cap; one the week before does not."""
    window = [("2026-12-07T10:00:00Z", "2026-12-07T12:00:00Z")]  # Monday, ISO week 50
    last_week = {"start": "2026-12-06T12:00:00Z", "end": "2026-12-06T13:00:00Z"}  # Sunday, week 49
    same_week = {"start": "2026-12-08T12:00:00Z", "end": "2026-12-08T13:00:00Z"}
    free = person("p", {"x": "qualified"}, max_per_week=1, existing=[last_week])
    assert _status(_solve(problem([free], [loop("c", [rnd("r", ["x"])], window)]))) == {"c": "scheduled"}
    full = person("p", {"x": "qualified"}, max_per_week=1, existing=[same_week])
    result = _solve(problem([full], [loop("c", [rnd("r", ["x"])], window)]))
    assert result["loops"][0]["status"] == "unscheduled"
    assert "weekly cap" in result["loops"][0]["reason"]
    assert any("relax the weekly cap of 'p" in fix for fix in result["loops"][0]["fixes"])
    # Sunday 20:00Z is already Monday 05:00 in Tokyo: the same local ISO week as the loop.
    hours = {"start": "00:00", "end": "24:00", "days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]}
    tokyo = person(
        "t",
        {"x": "qualified"},
        timezone="Asia/Tokyo",
        working_hours=hours,
        max_per_week=1,
        existing=[{"start": "2026-12-06T20:00:00Z", "end": "2026-12-06T21:00:00Z"}],
    )
    assert _status(_solve(problem([tokyo], [loop("c", [rnd("r", ["x"])], window)]))) == {"c": "unscheduled"}


def test_outside_team_seat_rule():
    """A round asking for one outside-team assessor gets one, or the loop says the seat rule blocks it."""
    insiders = [person(f"in{n}", {"x": "qualified"}, team="hiring") for n in range(3)]
    outsider = person(
        "out",
        {"x": "qualified"},
        team="elsewhere",
        busy=[{"start": "2026-12-07T00:00:00Z", "end": "2026-12-12T00:00:00Z"}],
    )
    case = loop(
        "c",
        [rnd("bar", ["x"], interviewers=2, outside_hiring_team=1)],
        [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")],
    )
    result = _solve(problem([*insiders, outsider], [case]))
    assert "seat rule for outside-team interviewers cannot be met" in result["loops"][0]["reason"]
    outsider.pop("busy")
    result = _solve(problem([*insiders, outsider], [case]))
    assert "out" in result["loops"][0]["interviews"][0]["interviewers"]


def test_trainee_seat_filled_when_possible_and_counted_in_caps():
    """A free shadow takes the trainee seat; a shadow at their weekly cap is left out."""
    lead = person("lead", {"x": "qualified"})
    shadow = person("sh", {"x": "shadow"}, max_per_week=1)
    case = loop("c", [rnd("r", ["x"], trainee=True)], [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")])
    result = _solve(problem([lead, shadow], [case]))
    assert result["loops"][0]["interviews"][0]["trainees"] == ["sh"]
    assert result["stats"]["trainee_seats"] == 1
    shadow["existing"] = [{"start": "2026-12-08T09:00:00Z", "end": "2026-12-08T10:00:00Z"}]
    result = _solve(problem([lead, shadow], [case]))
    assert result["loops"][0]["status"] == "scheduled"
    assert result["loops"][0]["interviews"][0]["trainees"] == []


def test_max_gap_between_rounds():
    """Two interviewers free 09-10 and 12-13 cannot make a loop with at most 60 minutes between rounds."""
    morning = person("m", {"x": "qualified"}, busy=[{"start": "2026-12-07T10:00:00Z", "end": "2026-12-07T17:00:00Z"}])
    noon = person(
        "n",
        {"y": "qualified"},
        busy=[
            {"start": "2026-12-07T09:00:00Z", "end": "2026-12-07T12:00:00Z"},
            {"start": "2026-12-07T13:00:00Z", "end": "2026-12-07T17:00:00Z"},
        ],
    )
    rounds = [rnd("rx", ["x"]), rnd("ry", ["y"])]
    window = [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")]
    tight = _solve(problem([morning, noon], [loop("c", rounds, window, max_gap_minutes=60)]))
    assert tight["loops"][0]["status"] == "unscheduled"
    assert "do not line up" in tight["loops"][0]["reason"]
    loose = _solve(problem([morning, noon], [loop("c", rounds, window, max_gap_minutes=120)]))
    starts = [i["start"] for i in loose["loops"][0]["interviews"]]
    assert starts == ["2026-12-07T09:00:00Z", "2026-12-07T12:00:00Z"]


def test_engine_schedules_what_first_fit_leaves_out():
    """First-fit gives the short loop the least-loaded person and strands the other; the engine does not."""
    p = person("p", {"x": "qualified"}, max_per_week=1)
    q = person(
        "q",
        {"x": "qualified"},
        existing=[{"start": "2026-12-09T09:00:00Z", "end": "2026-12-09T10:00:00Z"}],
        busy=[{"start": "2026-12-07T11:00:00Z", "end": "2026-12-12T00:00:00Z"}],
    )
    short = loop("short", [rnd("r", ["x"])], [("2026-12-07T09:00:00Z", "2026-12-07T10:00:00Z")])
    long = loop("long", [rnd("r", ["x"])], [("2026-12-08T09:00:00Z", "2026-12-08T17:00:00Z")])
    doc = problem([p, q], [short, long])
    greedy = _solve(doc, improve=False)
    assert greedy["stats"]["scheduled"] == 1
    engine = _solve(doc)
    assert engine["stats"]["scheduled"] == 2
    assert engine["loops"][0]["interviews"][0]["interviewers"] == ["q"]


def test_fair_load_prefers_the_less_loaded_interviewer():
    """With existing load counted, new seats go to whoever keeps the sum of squared weekly loads smallest."""
    busy_one = person(
        "a", {"x": "qualified"}, existing=[{"start": "2026-12-10T09:00:00Z", "end": "2026-12-10T10:00:00Z"}]
    )
    idle_one = person("b", {"x": "qualified"})
    loops = [
        loop(f"c{n}", [rnd("r", ["x"])], [(f"2026-12-0{7 + n}T09:00:00Z", f"2026-12-0{7 + n}T12:00:00Z")])
        for n in range(3)
    ]
    result = _solve(problem([busy_one, idle_one], loops))
    seats = [e["interviews"][0]["interviewers"][0] for e in result["loops"]]
    assert sorted(seats) == ["a", "b", "b"]
    assert result["stats"]["load_sum_squares"] == 2 * 2 + 2 * 2
    assert result["stats"]["max_load"] == 2


def test_rounds_of_a_loop_pack_without_idle_time():
    """With the same interviewers free all day, a loop's rounds follow each other without idle time."""
    people = [
        person("p1", {"x": "qualified"}),
        person("p2", {"y": "qualified"}),
        person("p3", {"z": "qualified"}),
    ]
    rounds = [rnd("rx", ["x"], minutes=45), rnd("ry", ["y"]), rnd("rz", ["z"], minutes=30)]
    result = _solve(problem(people, [loop("c", rounds, [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")])]))
    interviews = result["loops"][0]["interviews"]
    assert all(a["end"] == b["start"] for a, b in zip(interviews, interviews[1:], strict=False))


def test_nobody_qualified_gives_a_reason_not_an_error():
    """A competency nobody holds leaves the loop unscheduled with a plain reason."""
    result = _solve(
        problem(
            [person("p", {"x": "shadow"})],
            [loop("c", [rnd("r", ["x"])], [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")])],
        )
    )
    assert result["loops"][0]["reason"] == "round 'r': no one is qualified in 'x'"
    assert result["loops"][0]["fixes"] == ["qualify one of the trainees in 'x' ('p')"]


def test_single_loop_answer_is_proven_optimal():
    """A one-loop problem is solved whole, so the engine reports a proven optimum."""
    people = [person(f"p{n}", {"x": "qualified", "y": "shadow"}) for n in range(4)]
    prob = load_problem(
        problem(
            people,
            [
                loop(
                    "c",
                    [rnd("r", ["x"], trainee=True), rnd("s", ["x"])],
                    [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")],
                )
            ],
        )
    )
    solution = solve(prob)
    assert solution.optimal is True
    assert solution.method == "cp-sat"
    assert validate(prob, solution_to_dict(solution)) == []


def test_window_shorter_than_a_round_is_explained():
    """A round longer than every candidate window is reported as such, with the fix to lengthen a window."""
    result = _solve(
        problem(
            [person("p", {"x": "qualified"})],
            [loop("c", [rnd("r", ["x"], minutes=90)], [("2026-12-07T09:00:00Z", "2026-12-07T10:00:00Z")])],
        )
    )
    assert result["loops"][0]["reason"].startswith("round 'r': it lasts 90 minutes but no candidate window")
    assert result["loops"][0]["fixes"] == ["lengthen a candidate window"]


EVERY_DAY = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def _new_yorker(start: str, end: str) -> dict:
    hours = {"start": start, "end": end, "days": EVERY_DAY}
    return person("ny", {"x": "qualified"}, timezone="America/New_York", working_hours=hours)


def test_working_hours_are_read_on_the_wall_clock_when_the_clocks_change():
    """New York skips 02:00-03:00 on Sun 8 Mar 2026 (07:00Z) and repeats 01:00-02:00 on Sun 1 Nov (06:00Z).

    Hours ending at 02:30 end at the change (not at 03:30 EDT); hours starting at 02:30 start at the change
    (not at 03:30 EDT); hours starting at 01:30 on the repeated night do not include the second 01:00-01:30.
    """
    cases = [
        ("00:00", "02:30", ("2026-03-08T06:00:00Z", "2026-03-08T07:00:00Z"), 60, "scheduled"),
        ("00:00", "02:30", ("2026-03-08T07:00:00Z", "2026-03-08T08:00:00Z"), 30, "unscheduled"),
        ("02:30", "03:30", ("2026-03-08T07:00:00Z", "2026-03-08T07:30:00Z"), 30, "scheduled"),
        ("01:30", "03:00", ("2026-11-01T06:00:00Z", "2026-11-01T06:30:00Z"), 30, "unscheduled"),
        ("01:30", "03:00", ("2026-11-01T05:30:00Z", "2026-11-01T06:00:00Z"), 30, "scheduled"),
        ("01:30", "03:00", ("2026-11-01T06:30:00Z", "2026-11-01T08:00:00Z"), 90, "scheduled"),
        ("00:00", "24:00", ("2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z"), 1500, "scheduled"),  # a 25-hour day
    ]
    for start, end, window, minutes, status in cases:
        result = _solve(problem([_new_yorker(start, end)], [loop("c", [rnd("r", ["x"], minutes=minutes)], [window])]))
        assert result["loops"][0]["status"] == status, (start, end, window)


def test_validator_reads_every_minute_on_the_wall_clock():
    """An interview ending exactly at the spring change is inside hours that end at 02:30; one after is not."""
    window = ("2026-03-08T05:00:00Z", "2026-03-08T09:00:00Z")
    prob = load_problem(problem([_new_yorker("00:00", "02:30")], [loop("c", [rnd("r", ["x"])], [window])]))

    def document(start: str, end: str) -> dict:
        interview = {"round": "r", "start": start, "end": end, "interviewers": ["ny"], "trainees": []}
        stats = {"scheduled": 1, "unscheduled": 0, "load_sum_squares": 1, "max_load": 1, "trainee_seats": 0}
        return {"loops": [{"id": "c", "status": "scheduled", "interviews": [interview]}], "stats": stats}

    assert validate(prob, document("2026-03-08T06:00:00Z", "2026-03-08T07:00:00Z")) == []
    assert validate(prob, document("2026-03-08T06:30:00Z", "2026-03-08T07:30:00Z")) == [
        "loop 'c' round 'r': outside the working hours of 'ny'"
    ]


def test_more_outside_seats_than_interviewers_is_explained():
    """outside_hiring_team above the round's interviewers leaves that loop unscheduled with the reason."""
    people = [person(f"p{n}", {"x": "qualified"}) for n in range(4)]
    window = [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")]
    result = _solve(
        problem(
            people,
            [
                loop("c", [rnd("r", ["x"], outside_hiring_team=3)], window),
                loop("d", [rnd("r", ["x"], interviewers=2, outside_hiring_team=1)], window),
            ],
        )
    )
    assert _status(result) == {"c": "unscheduled", "d": "scheduled"}
    assert result["loops"][0]["reason"] == (
        "round 'r': it asks for 3 interviewers from outside the hiring team but has only 1 seat"
    )


def test_rounds_needing_more_different_people_than_exist_are_explained():
    """Nobody sits twice in a loop: two rounds (on different competencies) only one person can assess are
    reported as such."""
    people = [person("a", {"x": "qualified"}), person("z", {"y": "qualified", "w": "qualified"})]
    rounds = [rnd("r1", ["y"]), rnd("r2", ["w"]), rnd("r3", ["x"])]
    result = _solve(problem(people, [loop("c", rounds, [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")])]))
    assert result["loops"][0]["reason"] == (
        "rounds 'r1', 'r2' need 2 different interviewers (nobody sits twice in a loop) but only 1 is qualified for them"
    )


def test_a_fix_on_a_day_with_a_window_widens_it_and_on_another_day_adds_one():
    """Pia works Monday afternoons only, Tom Tuesdays only; the candidate's one window is Monday morning (UTC)."""
    pia = person("pia", {"x": "qualified"}, working_hours={"start": "14:00", "end": "17:00", "days": ["mon"]})
    tom = person("tom", {"y": "qualified"}, working_hours={"start": "08:00", "end": "17:00", "days": ["tue"]})
    window = [("2026-12-07T09:00:00Z", "2026-12-07T12:00:00Z")]
    result = _solve(problem([pia, tom], [loop("x", [rnd("r", ["x"])], window), loop("y", [rnd("r", ["y"])], window)]))
    fixes = {entry["id"]: entry["fixes"] for entry in result["loops"]}
    assert fixes["x"][0] == "widen the window to include Mon 07 Dec 2026, 14:00 (candidate's time)"
    assert fixes["y"][0] == "add a window on Tue 08 Dec 2026 from 08:00 (candidate's time)"


def test_a_round_no_panel_of_its_size_can_cover_is_explained_with_its_fixes():
    """Each of x and y has a holder, but nobody holds both and the round has one seat: the reason says so and the
    fixes are a second seat, qualifying the nearest person, or splitting the round (not widening windows)."""
    people = [person("a", {"x": "qualified"}), person("b", {"y": "qualified"}), person("c", {"z": "qualified"})]
    window = [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")]
    result = _solve(problem(people, [loop("c", [rnd("r", ["x", "y"])], window)]))
    entry = result["loops"][0]
    assert entry["reason"] == (
        "round 'r': it has one interviewer but no one is qualified in 'x' and 'y' together "
        "(at least 2 people are needed)"
    )
    assert entry["fixes"] == [
        "raise interviewers of round 'r' to 2",
        "qualify 'a' in 'y'",
        "split round 'r' so that each part asks for competencies one interviewer holds",
    ]
    # With the second seat the same people staff it.
    wider = _solve(problem(people, [loop("c", [rnd("r", ["x", "y"], interviewers=2)], window)]))
    assert _status(wider) == {"c": "scheduled"}


def test_rounds_that_each_need_the_only_holder_of_a_competency_are_explained():
    """r1 and r2 both assess x and only 'a' holds it; others could fill the seats, so the count of people alone
    would not show it: the reason names the competency and its one holder."""
    people = [
        person("a", {"x": "qualified", "y": "qualified"}),
        person("b", {"y": "qualified"}),
        person("d", {"y": "qualified"}),
    ]
    rounds = [rnd("r1", ["x", "y"], interviewers=2), rnd("r2", ["x"])]
    window = [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")]
    result = _solve(problem(people, [loop("c", rounds, window)]))
    entry = result["loops"][0]
    assert entry["reason"] == (
        "rounds 'r1', 'r2' each need someone qualified in 'x' (nobody sits twice in a loop) but only 1 is: 'a'"
    )
    assert entry["fixes"][0] == "qualify 1 more interviewer in 'x'"
