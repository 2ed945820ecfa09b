"""Reassignment messages to the people taken off: their own role, and the time they had when it moved."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from icalendar import Calendar

from planner.core.calendar import build_reassignment, local_time_range, reassignment_messages
from tests.core.calendar.ics_checker import run_ics_check
from tests.core.calendar.ics_scenario import ALICE, ANA, MEI, NEW_PANEL, ORGANIZER, RAJ, REASSIGNED, T3


def _event(ics: bytes):
    (event,) = Calendar.from_ical(ics).walk("VEVENT")
    return event


def _roles(event) -> dict[str, str]:
    values = event.get("ATTENDEE")
    values = values if isinstance(values, list) else [values]
    return {str(v).removeprefix("mailto:"): v.params["ROLE"] for v in values}


def test_a_removed_trainee_keeps_the_optional_role_in_the_cancel():
    """Mei, the trainee taken off, is OPT-PARTICIPANT in her CANCEL; Ana, an assessor, REQ-PARTICIPANT."""
    pair = build_reassignment(REASSIGNED, ORGANIZER, [ANA], NEW_PANEL, T3, removed_trainees=[MEI])
    assert _roles(_event(pair.cancel_for_removed)) == {ANA.email: "REQ-PARTICIPANT", MEI.email: "OPT-PARTICIPANT"}
    only_trainee = build_reassignment(REASSIGNED, ORGANIZER, [], NEW_PANEL, T3, removed_trainees=[MEI])
    assert _roles(_event(only_trainee.cancel_for_removed)) == {MEI.email: "OPT-PARTICIPANT"}
    assert MEI.email not in _roles(_event(only_trainee.request_for_panel))


def test_when_the_change_moves_the_interview_the_removed_are_told_the_time_they_had(tmp_path):
    """Moved by a day with Ana taken off: her CANCEL and email show the old time; the panel's REQUEST the new.

    The CANCEL then REQUEST still pass the checker as versions of the one UID."""
    had = (REASSIGNED.start_utc, REASSIGNED.end_utc)
    moved = replace(REASSIGNED, start_utc=had[0] + timedelta(days=1), end_utc=had[1] + timedelta(days=1))
    messages = reassignment_messages(moved, ORGANIZER, [ANA], [], [ALICE, RAJ], T3, previous_time=had)
    cancel, *requests = messages
    assert (cancel.recipient, cancel.method) == (ANA, "CANCEL")
    event = _event(cancel.ics)
    assert (event.DTSTART, event.DTEND) == had
    body = cancel.email.get_body(preferencelist=("plain",)).get_content()
    assert local_time_range(*had, ANA.timezone) in body
    assert local_time_range(moved.start_utc, moved.end_utc, ANA.timezone) not in body
    assert {_event(m.ics).DTSTART for m in requests} == {moved.start_utc}
    (tmp_path / "1-cancel.ics").write_bytes(cancel.ics)
    (tmp_path / "2-request.ics").write_bytes(requests[0].ics)
    result = run_ics_check("--order", "args", tmp_path / "1-cancel.ics", tmp_path / "2-request.ics")
    assert result.returncode == 0, result.output
