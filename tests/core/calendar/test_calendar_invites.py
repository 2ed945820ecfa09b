"""REQUEST, update, CANCEL and reassignment messages to the interview panel."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from icalendar import Calendar

from planner.core.calendar import (
    REASSIGNMENT_SEQUENCE_STEP,
    CalendarInputError,
    Person,
    build_cancel,
    build_reassignment,
    build_request,
)
from planner.core.errors import PlannerError
from tests.core.calendar.ics_scenario import (
    ALICE,
    ANA,
    BEN,
    CANCELLED,
    INVITED,
    MEI,
    NEW_PANEL,
    ORGANIZER,
    PANEL,
    RAJ,
    REASSIGNED,
    RESCHEDULED,
    T0,
    T3,
    T4,
    TRAINEES,
)


def _event(ics: bytes):
    cal = Calendar.from_ical(ics)
    (event,) = cal.walk("VEVENT")
    return cal, event


def _attendees(event) -> dict[str, dict]:
    values = event.get("ATTENDEE")
    values = values if isinstance(values, list) else [values]
    return {str(v).removeprefix("mailto:"): dict(v.params) for v in values}


def test_request_carries_method_uid_sequence_and_utc_times():
    """An invite is METHOD:REQUEST with the stored UID, SEQUENCE 0, UTC times and DTSTAMP = now."""
    cal, event = _event(build_request(INVITED, ORGANIZER, PANEL, T0))
    assert cal["METHOD"] == "REQUEST"
    assert event["UID"] == "interview-42@hire.example.com"
    assert event["SEQUENCE"] == 0
    assert event["STATUS"] == "CONFIRMED"
    assert event.DTSTART == datetime(2027, 3, 30, 16, 0, tzinfo=UTC)
    assert event.DTSTAMP == T0
    assert not list(cal.walk("VTIMEZONE"))


def test_request_lists_assessors_and_trainees_with_rsvp():
    """Assessors are required and trainees optional participants; all are asked to reply."""
    _, event = _event(build_request(INVITED, ORGANIZER, PANEL, T0, trainees=TRAINEES))
    attendees = _attendees(event)
    assert set(attendees) == {p.email for p in (*PANEL, *TRAINEES)}
    assert attendees[ALICE.email]["ROLE"] == "REQ-PARTICIPANT"
    assert attendees[MEI.email]["ROLE"] == "OPT-PARTICIPANT"
    assert all(a["RSVP"] == "TRUE" and a["PARTSTAT"] == "NEEDS-ACTION" for a in attendees.values())
    assert attendees[ALICE.email]["CN"] == "Doe, Alice"


def test_request_organizer_is_a_bare_mailto_with_name():
    """ORGANIZER is mailto:recruiting@... with CN, never 'mailto:Name <addr>'."""
    _, event = _event(build_request(INVITED, ORGANIZER, PANEL, T0))
    assert str(event["ORGANIZER"]) == "mailto:recruiting@hire.example.com"
    assert event["ORGANIZER"].params["CN"] == "Hire Example Recruiting"


def test_request_description_holds_the_interview_kit():
    """Interviewers see competencies, focus questions, the candidate, place and their page link."""
    _, event = _event(build_request(INVITED, ORGANIZER, PANEL, T0))
    description = str(event["DESCRIPTION"])
    for expected in (
        "Zoë Okafor",
        "- compiler design",
        "- pre-silicon feedback",
        "1. Walk me through a compiler pass",
        "Room 4.12, Berlin; 4th floor",
        "https://meet.example.com/abc-defg-hij",
        "https://planner.example.com/interviewer/interviews/42",
    ):
        assert expected in description
    assert str(event["URL"]) == "https://planner.example.com/interviewer/interviews/42"


def test_update_keeps_uid_and_raises_sequence():
    """A reschedule reuses the UID and carries the bumped SEQUENCE and the new time."""
    _, first = _event(build_request(INVITED, ORGANIZER, PANEL, T0))
    _, moved = _event(build_request(RESCHEDULED, ORGANIZER, PANEL, T0))
    assert moved["UID"] == first["UID"]
    assert moved["SEQUENCE"] == first["SEQUENCE"] + 1
    assert moved.DTSTART != first.DTSTART


def test_cancel_is_method_cancel_with_status_cancelled():
    """A cancellation is METHOD:CANCEL, STATUS:CANCELLED, same UID, the given higher SEQUENCE."""
    cal, event = _event(build_cancel(CANCELLED, ORGANIZER, NEW_PANEL, T4))
    assert cal["METHOD"] == "CANCEL"
    assert event["STATUS"] == "CANCELLED"
    assert event["UID"] == INVITED.uid
    assert event["SEQUENCE"] == CANCELLED.sequence


def test_request_refuses_a_cancelled_event():
    """A REQUEST with STATUS:CANCELLED would not remove anything, so it is refused."""
    with pytest.raises(CalendarInputError, match="build_cancel"):
        build_request(CANCELLED, ORGANIZER, PANEL, T0)


def test_cancel_refuses_sequence_zero():
    """A CANCEL must be newer than the invite, so SEQUENCE 0 is refused."""
    with pytest.raises(CalendarInputError, match="SEQUENCE"):
        build_cancel(INVITED, ORGANIZER, PANEL, T0)


@pytest.mark.parametrize(
    ("assessors", "trainees", "message"),
    [
        ((), (), "at least one attendee"),
        ((ALICE, ALICE), (), "twice"),
        ((ALICE,), (Person(ALICE.email.upper(), "Alice again", "UTC"),), "twice"),
        ((Person(ORGANIZER.email, "Recruiting", "UTC"),), (), "organizer"),
    ],
)
def test_panel_rules_are_enforced(assessors, trainees, message):
    """Empty panels, duplicates (case-insensitive) and the organizer as attendee are refused."""
    with pytest.raises(CalendarInputError, match=message):
        build_request(INVITED, ORGANIZER, assessors, T0, trainees=trainees)


def test_reassignment_cancels_for_the_removed_and_requests_for_the_new_panel():
    """Ana gets a CANCEL listing only her; the new panel gets a REQUEST without her."""
    pair = build_reassignment(REASSIGNED, ORGANIZER, [ANA], NEW_PANEL, T3, trainees=TRAINEES)
    cancel_cal, cancel = _event(pair.cancel_for_removed)
    request_cal, request = _event(pair.request_for_panel)
    assert cancel_cal["METHOD"] == "CANCEL"
    assert cancel["STATUS"] == "CANCELLED"
    assert set(_attendees(cancel)) == {ANA.email}
    assert request_cal["METHOD"] == "REQUEST"
    assert set(_attendees(request)) == {ALICE.email, BEN.email, RAJ.email, MEI.email}
    assert cancel["UID"] == request["UID"] == INVITED.uid


def test_reassignment_orders_cancel_before_request():
    """The CANCEL sits between the last version sent and the new REQUEST: SEQUENCE n-1 < n."""
    pair = build_reassignment(REASSIGNED, ORGANIZER, [ANA], NEW_PANEL, T3)
    _, cancel = _event(pair.cancel_for_removed)
    _, request = _event(pair.request_for_panel)
    previous = REASSIGNED.sequence - REASSIGNMENT_SEQUENCE_STEP
    assert previous < cancel["SEQUENCE"] < request["SEQUENCE"] == REASSIGNED.sequence


@pytest.mark.parametrize(
    ("event", "removed", "panel", "message"),
    [
        (REASSIGNED, [], NEW_PANEL, "at least one person"),
        (REASSIGNED, [ALICE], NEW_PANEL, "both taken off and kept"),
        (replace(REASSIGNED, sequence=1), [ANA], NEW_PANEL, "Raise the SEQUENCE by 2"),
    ],
)
def test_reassignment_rules_are_enforced(event, removed, panel, message):
    """Nobody removed, a removed person kept, or an unraised SEQUENCE are refused."""
    with pytest.raises(CalendarInputError, match=message):
        build_reassignment(event, ORGANIZER, removed, panel, T3)


def test_calendar_errors_are_planner_errors():
    """Builders raise domain errors the web layer already knows how to show."""
    assert issubclass(CalendarInputError, PlannerError)


def test_now_must_be_timezone_aware():
    """A naive 'now' would make DTSTAMP floating; it is refused."""
    with pytest.raises(CalendarInputError, match="timezone-aware"):
        build_request(INVITED, ORGANIZER, PANEL, datetime(2027, 3, 1, 9, 0))


def test_dtstamp_is_utc_even_when_now_is_given_in_another_zone():
    """DTSTAMP is written in UTC whatever zone 'now' comes in, and without fractions of a second."""
    from zoneinfo import ZoneInfo

    now = datetime(2027, 3, 1, 10, 0, 0, 123456, tzinfo=ZoneInfo("Europe/Berlin"))
    ics = build_request(INVITED, ORGANIZER, PANEL, now)
    assert b"DTSTAMP:20270301T090000Z\r\n" in ics
