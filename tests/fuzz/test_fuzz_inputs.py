"""Fuzzing the parsers: extraction, the calendar import and the scheduling problem never fail unexpectedly.

Every input either works or gets the module's own error with one sentence; nothing raises anything
else, and each call finishes within a bound (a hostile calendar cannot keep a worker busy).
"""

from __future__ import annotations

import copy
import json
import time
from datetime import UTC, datetime

from click.testing import CliRunner
from core.scheduling.schedbuild import loop, person, problem, rnd
from hypothesis import given
from hypothesis import strategies as st

from planner.cli.schedule import schedule_command
from planner.core.extraction import extract
from planner.core.library import default_library
from planner.core.pool import CalendarImportError, parse_busy_ics
from planner.core.scheduling import ProblemError, load_problem
from tests.fuzz.fuzzsettings import FUZZ, JSON, TEXT

LIBRARY = default_library()
PERIOD = (datetime(2026, 10, 5, tzinfo=UTC), datetime(2026, 12, 30, tzinfo=UTC))


@FUZZ
@given(text=st.one_of(TEXT, st.text(min_size=1000, max_size=20_000)))
def test_extraction_takes_any_text(text):
    """Any text gives a list of findings whose evidence sentences come from the text."""
    findings = extract(text, LIBRARY)
    for finding in findings:
        assert finding.evidence


# -- the calendar import ---------------------------------------------------------------------------

FREQS = st.sampled_from(["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY", "FORTNIGHTLY"])
STAMPS = st.sampled_from(["19000101T000000Z", "19900101T090000", "20261006T093000Z", "20261006",
                          "20261006T093000", "99991231T235959Z", "20260230T000000Z", "garbage"])


@st.composite
def rules(draw) -> str:
    parts = [f"FREQ={draw(FREQS)}"]
    if draw(st.booleans()):
        parts.append(f"INTERVAL={draw(st.sampled_from(['0', '1', '2', '-3', '1000000', 'x']))}")
    if draw(st.booleans()):
        parts.append(f"COUNT={draw(st.sampled_from(['1', '10', '100000000', '-1']))}")
    if draw(st.booleans()):
        parts.append(f"UNTIL={draw(STAMPS)}")
    for part, values in (("BYSECOND", range(60)), ("BYMINUTE", range(60)), ("BYHOUR", range(24))):
        if draw(st.booleans()):
            chosen = draw(st.lists(st.sampled_from(list(values)), min_size=1, max_size=60))
            parts.append(f"{part}={','.join(map(str, chosen))}")
    if draw(st.booleans()):
        parts.append("BYDAY=" + ",".join(draw(st.lists(st.sampled_from(["MO", "TU", "1FR", "-1SU", "XX"]),
                                                      min_size=1, max_size=5))))
    return ";".join(parts)


@st.composite
def calendars(draw) -> bytes:
    events = []
    for index in range(draw(st.integers(0, 4))):
        lines = [f"UID:u{index}", f"DTSTART:{draw(STAMPS)}"]
        if draw(st.booleans()):
            lines.append(f"DTEND:{draw(STAMPS)}")
        if draw(st.booleans()):
            lines.append(f"DURATION:{draw(st.sampled_from(['PT1H', 'PT0S', '-PT1H', 'P1W', 'PT1S', 'nonsense']))}")
        if draw(st.booleans()):
            lines.append(f"RRULE:{draw(rules())}")
        if draw(st.booleans()):
            lines.append(f"EXDATE:{draw(STAMPS)}")
        if draw(st.booleans()):
            lines.append(f"SUMMARY:{draw(TEXT)}".replace("\r", "").replace("\n", ""))
        events.append("BEGIN:VEVENT\r\n" + "\r\n".join(lines) + "\r\nEND:VEVENT\r\n")
    text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//fuzz//EN\r\n" + "".join(events) + "END:VCALENDAR\r\n"
    if draw(st.booleans()):  # cut, doubled or spliced with garbage
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(TEXT) + text[cut:]
    return text.encode("utf-8", "surrogatepass")


def _import(data: bytes):
    started = time.perf_counter()
    message = None
    try:
        parse_busy_ics(data, default_tz="Europe/Berlin", horizon_start=PERIOD[0], horizon_end=PERIOD[1])
    except CalendarImportError as exc:
        message = str(exc)
    assert message is None or (message and "\n" not in message), message
    assert time.perf_counter() - started < 15, "an import ran for too long"


@FUZZ
@given(data=calendars())
def test_calendar_import_takes_any_calendar(data):
    """Hostile recurrences, broken dates and spliced garbage give busy time or one sentence, quickly."""
    _import(data)


@FUZZ
@given(data=st.one_of(st.binary(max_size=2000), st.binary(min_size=1, max_size=50).map(lambda b: b * 20_000),
                      st.text(max_size=500).map(lambda t: ("BEGIN:VCALENDAR\r\n" + t).encode())))
def test_calendar_import_takes_any_bytes(data):
    """Binary garbage, a megabyte of repeated bytes or text after BEGIN:VCALENDAR: one sentence each."""
    _import(data)


# -- the scheduling problem -------------------------------------------------------------------------

GOOD = problem(
    [person("ana", {"x": "qualified", "y": "shadow"}, timezone="America/Los_Angeles")],
    [loop("c1", [rnd("r1", ["x"], trainee=True)], [("2026-12-08T16:00:00Z", "2026-12-09T01:00:00Z")])],
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


PATHS = [p for p in _paths(GOOD) if p]


@st.composite
def mutated_problems(draw):
    doc = copy.deepcopy(GOOD)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(PATHS))
        target = doc
        try:
            for key in path[:-1]:
                target = target[key]
            if draw(st.booleans()) and isinstance(target, dict):
                target.pop(path[-1], None)
            else:
                target[path[-1]] = draw(JSON)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed the way there
    return doc


@FUZZ
@given(doc=st.one_of(JSON, mutated_problems()))
def test_problem_parse_takes_any_json(doc):
    """Any JSON value loads as a problem or raises ProblemError with one line naming the field."""
    message = None
    try:
        load_problem(doc)
    except ProblemError as exc:
        message = str(exc)
    assert message is None or (message and "\n" not in message), message


@FUZZ
@given(raw=st.one_of(st.binary(max_size=300), mutated_problems().map(lambda d: json.dumps(d).encode())))
def test_schedule_command_takes_any_file(raw, tmp_path_factory):
    """`planner schedule` on any file exits 0 with a result, or 2 with one sentence on standard error."""
    path = tmp_path_factory.mktemp("problem") / "problem.json"
    path.write_bytes(raw)
    outcome = CliRunner().invoke(schedule_command, [str(path), "--time-limit", "2"])
    assert outcome.exception is None or isinstance(outcome.exception, SystemExit), outcome.exception
    if outcome.exit_code == 0:
        assert "loops" in json.loads(outcome.stdout)
    else:
        assert outcome.exit_code == 2, outcome.output
        assert outcome.stderr.startswith("Error: ") and outcome.stderr.count("\n") == 1, outcome.stderr
