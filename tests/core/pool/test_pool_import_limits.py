"""The calendar import bounds its work before expanding: runaway rules and huge files get one sentence."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from planner.core.pool import CalendarImportError, parse_busy_ics
from planner.core.pool.calendar_import import MAX_EVENTS

PERIOD = (datetime(2026, 10, 5, tzinfo=UTC), datetime(2026, 11, 30, tzinfo=UTC))


def _file(*events: str) -> bytes:
    body = "".join(f"BEGIN:VEVENT\r\nUID:e{i}@x\r\nSUMMARY:Event {i}\r\n{e.strip()}\r\nEND:VEVENT\r\n"
                   for i, e in enumerate(events))
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n{body}END:VCALENDAR\r\n".encode()


def _parse(data: bytes):
    return parse_busy_ics(data, default_tz="UTC", horizon_start=PERIOD[0], horizon_end=PERIOD[1])


@pytest.mark.parametrize(("rule", "message"), [
    ("DTSTART:20261001T000000Z\r\nDTEND:20261001T000001Z\r\nRRULE:FREQ=SECONDLY", "repeats every second"),
    ("DTSTART:20261001T000000Z\r\nDURATION:PT1M\r\nRRULE:FREQ=MINUTELY", "repeats every minute"),
    ("DTSTART:19900101T000000Z\r\nDURATION:PT1M\r\nRRULE:FREQ=HOURLY;UNTIL=20260101T000000Z",
     "expanding it would take more than"),
    ("DTSTART:20261001T000000Z\r\nDURATION:PT1M\r\nRRULE:FREQ=DAILY;BYHOUR=8,9,10,11,12,13,14,15,16,17,18,19;"
     "\r\n BYMINUTE=0,5,10,15,20,25,30,35,40,45,50,55",
     "repeats every day"),
    ("DTSTART:20000101T000000Z\r\nDURATION:PT1S\r\nRRULE:FREQ=SECONDLY;INTERVAL=1;UNTIL=20300101", "every second"),
])
def test_runaway_rules_are_refused_at_once(rule, message):
    """A rule making too many occurrences (in the period, or on the way to it) is refused in under a second."""
    started = time.perf_counter()
    with pytest.raises(CalendarImportError, match=message) as refused:
        _parse(_file(rule))
    assert time.perf_counter() - started < 2
    assert "Event 0" in str(refused.value)  # the sentence names the event to fix


@pytest.mark.parametrize("rule", [
    "DTSTART:19900101T090000Z\r\nDURATION:PT30M\r\nRRULE:FREQ=DAILY",  # a daily stand-up since 1990
    "DTSTART:20261005T090000Z\r\nDURATION:PT30M\r\nRRULE:FREQ=SECONDLY;COUNT=50",  # bounded by COUNT
    "DTSTART:20261005T090000Z\r\nDURATION:PT30M\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
])
def test_ordinary_rules_still_import(rule):
    assert _parse(_file(rule))


def test_too_many_events_are_refused_before_parsing():
    """A file with more events than the cap is refused from its text, before the costly parse."""
    events = [f"DTSTART:20261006T{h % 24:02d}0000Z\r\nDURATION:PT10M" for h in range(MAX_EVENTS + 1)]
    data = _file(*events)
    started = time.perf_counter()
    with pytest.raises(CalendarImportError, match=f"holds {MAX_EVENTS + 1:,} events"):
        _parse(data)
    assert time.perf_counter() - started < 2
