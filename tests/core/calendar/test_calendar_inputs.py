"""Input checks: values that would break a calendar file or an email are refused up front."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from planner.core.calendar import CalendarInputError, Organizer, Person
from tests.core.calendar.ics_scenario import INVITED


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"uid": "interview,42@hire.example.com"}, "UID"),
        ({"uid": "interview 42"}, "UID"),
        ({"sequence": -1}, "SEQUENCE"),
        ({"sequence": True}, "SEQUENCE"),
        ({"start_utc": datetime(2027, 3, 30, 16, 0)}, "timezone-aware"),
        ({"end_utc": INVITED.start_utc}, "end after it starts"),
        ({"video_url": "javascript:alert(1)"}, "http"),
        ({"interviewer_page_url": "https://ok.example.com/a b"}, "http"),
        ({"status": "TENTATIVE"}, "CONFIRMED or CANCELLED"),
        ({"round_name": "  "}, "must not be empty"),
        ({"candidate_name": "Zoë\r\nBcc: x@evil.example"}, "control character"),
        ({"competencies": ["a list"]}, "tuples"),
    ],
)
def test_bad_interview_values_are_refused(changes, message):
    """Each unsafe or inconsistent interview value is refused with a message naming the problem."""
    with pytest.raises(CalendarInputError, match=message):
        replace(INVITED, **changes)


def test_multiline_notes_and_questions_are_allowed():
    """Focus questions and notes may span lines; calendar escaping handles them."""
    event = replace(INVITED, internal_notes="line one\nline two", focus_questions=("a\nb",))
    assert event.internal_notes == "line one\nline two"


@pytest.mark.parametrize("address", ["Alice <alice@example.com>", "alice@", "a b@example.com", "a@b\n.com"])
def test_bad_email_addresses_are_refused(address):
    """Only plain user@domain addresses become mailto: URIs and email headers."""
    with pytest.raises(CalendarInputError, match="user@domain"):
        Person(address, "Alice", "Europe/Berlin")
    with pytest.raises(CalendarInputError, match="user@domain"):
        Organizer(address, "Recruiting")
