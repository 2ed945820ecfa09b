"""Messages and files meant as one event hold one UID: the builders refuse anything else."""

from __future__ import annotations

import pytest
from icalendar import Calendar, Todo

from planner.core.calendar import CalendarInputError, build_imip_message, build_request
from planner.core.calendar.components import calendar_bytes, interviewer_vevent
from tests.core.calendar.ics_scenario import ALICE, INVITED, ORGANIZER, PANEL, SECOND_ROUND, T0


def test_a_request_or_cancel_of_two_interviews_is_refused():
    """calendar_bytes refuses a REQUEST or CANCEL with two UIDs; a PUBLISH (a feed) may hold several."""
    two = [interviewer_vevent(e, ORGANIZER, T0, status="CONFIRMED") for e in (INVITED, SECOND_ROUND)]
    for method in ("REQUEST", "CANCEL"):
        with pytest.raises(CalendarInputError, match="exactly one interview"):
            calendar_bytes(method, two)
    assert len(Calendar.from_ical(calendar_bytes("PUBLISH", two)).walk("VEVENT")) == 2


def test_an_imip_email_refuses_a_second_component_with_its_own_uid():
    """A REQUEST whose calendar also holds a VTODO (another UID) is not mailed: one object, one UID."""
    cal = Calendar.from_ical(build_request(INVITED, ORGANIZER, PANEL, T0))
    cal.add_component(Todo.new(uid="todo-1@hire.example.com", stamp=T0, summary="Prepare"))
    with pytest.raises(CalendarInputError, match="exactly one interview"):
        build_imip_message(cal.to_ical(), "REQUEST", ORGANIZER, ALICE, "Invitation", "text", "<p>html</p>")
