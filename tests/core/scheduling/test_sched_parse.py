"""Problem files: valid ones load, structurally bad ones give one clear sentence naming the field."""

import copy

import pytest
from core.scheduling.schedbuild import loop, person, problem, rnd

from planner.core.errors import PlannerError
from planner.core.scheduling import ProblemError, load_problem

GOOD = problem(
    [
        person(
            "ana",
            {"x": "qualified", "y": "shadow"},
            timezone="America/Los_Angeles",
            busy=[{"start": "2026-12-08T17:00:00+01:00", "end": "2026-12-08T18:00:00+01:00"}],
        )
    ],
    [loop("c1", [rnd("r1", ["x"], trainee=True)], [("2026-12-08T16:00:00Z", "2026-12-09T01:00:00Z")])],
)


def _broken(path: list, value) -> dict:
    doc = copy.deepcopy(GOOD)
    target = doc
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


def test_valid_problem_loads_with_utc_minutes():
    """A valid document loads; offsets are converted to UTC and defaults filled in."""
    prob = load_problem(GOOD)
    ana = prob.interviewers[0]
    assert ana.busy[0].start % 1440 == 16 * 60  # 17:00+01:00 is 16:00 UTC
    assert ana.working_hours.days == frozenset(range(5))
    assert prob.loops[0].max_gap_minutes is None
    assert prob.loops[0].rounds[0].trainee is True
    assert prob.slot_minutes == 15


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (
            ["interviewers", 0, "timezone"],
            "Mars/Base",
            "interviewers[0].timezone: unknown time zone 'Mars/Base'",
        ),
        (["interviewers", 0, "busy", 0, "end"], "2026-12-08T16:00:00+01:00", "interviewers[0].busy[0]: end"),
        (["loops", 0, "windows", 0, "end"], "2026-12-08T15:00:00Z", "loops[0].windows[0]: end"),
        (["loops", 0, "rounds", 0, "minutes"], 0, "loops[0].rounds[0].minutes"),
        (["loops", 0, "rounds", 0, "interviewers"], -1, "loops[0].rounds[0].interviewers"),
        (["interviewers", 0, "skills", "x"], "expert", "unknown training level 'expert'"),
        (["interviewers", 0, "working_hours"], {"start": "17:00", "end": "09:00"}, "working_hours: end"),
        (["interviewers", 0, "working_hours"], {"start": "9am", "end": "17:00"}, "expected a time as HH:MM"),
        (["interviewers", 0, "working_hours"], {"days": ["funday"]}, "unknown day 'funday'"),
        (["loops", 0, "windows", 0, "start"], "2026-12-08T16:00:00", "has no UTC offset"),
        (["loops", 0, "windows", 0, "start"], "yesterday", "is not an RFC 3339 date-time"),
        (["loops", 0, "rounds"], KeyError, "loops[0]: missing required field 'rounds'"),
        (["interviewers", 0, "timezone"], KeyError, "missing required field 'timezone'"),
        (["slot_minutes"], 0, "slot_minutes"),
        (["loops", 0, "rounds", 0, "competencies"], [], "loops[0].rounds[0].competencies"),
    ],
)
def test_structural_errors_name_the_field(path, value, message):
    """Each structural mistake raises ProblemError with a message naming the field."""
    with pytest.raises(ProblemError) as caught:
        load_problem(_broken(path, value))
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_duplicate_ids_are_rejected():
    """Duplicate interviewer, loop and round ids each give a clear error."""
    doc = copy.deepcopy(GOOD)
    doc["interviewers"].append(copy.deepcopy(doc["interviewers"][0]))
    with pytest.raises(ProblemError, match=r"interviewers\[1\].id: duplicate id 'ana'"):
        load_problem(doc)
    doc = copy.deepcopy(GOOD)
    doc["loops"][0]["rounds"].append(copy.deepcopy(doc["loops"][0]["rounds"][0]))
    with pytest.raises(ProblemError, match=r"duplicate id 'r1'"):
        load_problem(doc)
    doc = copy.deepcopy(GOOD)
    doc["loops"].append(copy.deepcopy(doc["loops"][0]))
    with pytest.raises(ProblemError, match=r"loops\[1\].id: duplicate id 'c1'"):
        load_problem(doc)


def test_unknown_competency_is_an_error_when_a_catalogue_is_given():
    """With a top-level competency list, a round naming an unlisted competency is rejected."""
    doc = copy.deepcopy(GOOD)
    doc["competencies"] = ["x", "y"]
    load_problem(doc)
    doc["loops"][0]["rounds"][0]["competencies"] = ["x", "compiler-desing"]
    with pytest.raises(ProblemError, match="unknown competency 'compiler-desing'"):
        load_problem(doc)


def test_problem_error_is_a_planner_error():
    """ProblemError is part of the domain error family the web layer already handles."""
    assert issubclass(ProblemError, PlannerError)
    with pytest.raises(PlannerError):
        load_problem([])


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["interviewers", 0, "timezone"], "America", "unknown time zone 'America'"),  # a folder of zones
        (["interviewers", 0, "working_hours"], {"start": "09:00\n"}, "expected a time as HH:MM"),
        (["interviewers", 0, "working_hours"], {"start": "\u0660\u0669:00"}, "expected a time as HH:MM"),
        (["interviewers", 0, "working_hours"], {"days": ["monkey"]}, "unknown day 'monkey'"),
        (["interviewers", 0, "busy"], {}, "interviewers[0].busy: expected a list"),
        (["interviewers", 0, "existing"], 0, "interviewers[0].existing: expected a list"),
        (["loops", 0, "windows", 0, "start"], "0001-01-01T00:00:00+01:00", "outside the supported years"),
        (["loops", 0, "windows", 0, "end"], "9999-12-31T23:59:00-01:00", "outside the supported years"),
        (["loops", 0, "rounds", 0, "interviewers"], 2**70, "loops[0].rounds[0].interviewers: expected a whole"),
        (["loops", 0, "rounds", 0, "minutes"], 10**10, "loops[0].rounds[0].minutes: expected a whole number"),
        (["loops", 0, "max_gap_minutes"], 2**70, "loops[0].max_gap_minutes: expected a whole number"),
        (["interviewers", 0, "max_per_week"], 2**70, "interviewers[0].max_per_week: expected a whole number"),
        (["loops", 0, "candidate"], [], "loops[0].candidate: expected an object, got a list"),
        (["interviewers", 0], None, "interviewers[0]: expected an object, got null"),
        (["interviewers", 0, "working_hours"], {"start": "24:00"}, "end '17:00' is not after start '24:00'"),
    ],
)
def test_more_structural_errors_are_clear(path, value, message):
    """Zone folders, sloppy clock or day text, non-list calendars, dates the calendar arithmetic cannot
    reach and numbers too large for the optimiser are structural errors with one sentence, not crashes."""
    with pytest.raises(ProblemError) as caught:
        load_problem(_broken(path, value))
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_lenient_but_valid_forms_load():
    """Lower-case 'z' and 't' (RFC 3339 allows them), full day names, null for optional fields, and more
    outside-team seats than interviewers (a reason for the solver, not a structural error) all load."""
    doc = _broken(["loops", 0, "windows", 0], {"start": "2026-12-08t16:00:00z", "end": "2026-12-09T01:00:00Z"})
    doc["interviewers"][0]["working_hours"] = {"days": ["Monday", "tue", "SUNDAY"]}
    doc["slot_minutes"] = None
    doc["loops"][0]["candidate"] = None
    doc["loops"][0]["rounds"][0]["outside_hiring_team"] = 2
    prob = load_problem(doc)
    assert prob.loops[0].windows[0].start % 1440 == 16 * 60
    assert prob.interviewers[0].working_hours.days == frozenset({0, 1, 6})
    assert prob.slot_minutes == 15
    assert prob.loops[0].rounds[0].outside_hiring_team == 2
