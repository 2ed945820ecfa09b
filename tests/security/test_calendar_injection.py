"""User text in calendar files and invite emails cannot add a property, an attendee or markup.

The hostile story puts CRLF + ``ATTENDEE:`` lines and markup into the place, the focus questions, the
round, candidate and interviewer names and the reasons. Every .ics the app wrote (outbox invites and
updates, the interviewer's download and feed) is parsed: each event's attendees are exactly the
people invited, no injected property appears, and every line is a folded, escaped content line.
"""

from __future__ import annotations

import re

from icalendar import Calendar
from sqlalchemy import select

from planner.models import Interviewer, OutboxMessage
from tests.security.hostile import INJECTED_ATTENDEE, RAW_MARKERS

CONTENT_LINE = re.compile(rb"^[A-Za-z0-9-]+(?:;[^\r\n]*)?:[^\r\n]*$")


def _check_calendar(data: bytes, allowed: set[str], what: str) -> None:
    for line in data.split(b"\r\n"):
        assert len(line) <= 75, f"{what}: unfolded line of {len(line)} octets"
        assert b"\n" not in line and b"\r" not in line, f"{what}: a bare line break in {line!r}"
    for line in re.sub(rb"\r\n[ \t]", b"", data).split(b"\r\n"):
        if line:
            assert CONTENT_LINE.match(line), f"{what}: not a content line: {line!r}"
            assert not line.startswith((b"X-EVIL", b"ATTENDEE;CN=x")), f"{what}: injected line {line!r}"
    calendar = Calendar.from_ical(data)
    for event in calendar.walk("VEVENT"):
        attendees = event.get("ATTENDEE", [])
        attendees = attendees if isinstance(attendees, list) else [attendees]
        emails = {str(a).lower().removeprefix("mailto:") for a in attendees}
        assert emails <= allowed, f"{what}: unexpected attendees {emails - allowed}"
        assert "X-EVIL" not in event, what
        assert INJECTED_ATTENDEE not in emails, what


def test_invites_and_updates_cannot_be_injected(db, hostile_world):
    """Every outbox message of the hostile loop parses with only the invited attendees and no extra property."""
    panel = {p.email.lower() for p in db.scalars(select(Interviewer))} | {"c@cand.example"}
    messages = list(db.scalars(select(OutboxMessage).where(OutboxMessage.loop_id == hostile_world.loop_id)))
    assert len(messages) >= 3, "the confirm and the place change should have written invites and updates"
    for message in messages:
        _check_calendar(message.ics, panel, f"outbox {message.id} ({message.kind} {message.method})")
        assert "\r" not in message.subject and "\n" not in message.subject
        for marker in RAW_MARKERS:
            assert marker not in message.body_html, f"outbox {message.id}: raw markup in the HTML body"
    place = next(m for m in messages if b"LOCATION" in m.ics and b"place" in m.ics.replace(b"\r\n ", b""))
    location = str(Calendar.from_ical(place.ics).walk("VEVENT")[0]["LOCATION"])
    assert "ATTENDEE;CN=x:mailto:" in location and "\n" not in location  # kept as text on one line


def test_download_and_feed_cannot_be_injected(app, db, hostile_world):
    """The interviewer's .ics download and calendar feed of the hostile interview are clean too."""
    client = app.test_client()
    client.post("/login", data={"email": "panel@hire.example", "password": "password123"})
    download = client.get(f"/interviewer/interviews/{hostile_world.interview_id}.ics")
    assert download.status_code == 200
    token = db.get(Interviewer, hostile_world.interviewer_id).feed_token
    feed = app.test_client().get(f"/feeds/{token}.ics")
    assert feed.status_code == 200
    for what, data in (("download", download.data), ("feed", feed.data)):
        _check_calendar(data, set(), what)


def test_line_breaks_in_one_line_fields_are_refused_by_the_builders():
    """A name, title or round name with CR/LF never reaches a calendar file: the builders refuse it."""
    from dataclasses import replace

    import pytest

    from planner.core.calendar import CalendarInputError, Person
    from tests.core.calendar.ics_scenario import INVITED

    attack = "Kim\r\nATTENDEE;CN=x:mailto:evil@attacker.example"
    with pytest.raises(CalendarInputError, match="control character"):
        Person("kim@cand.example", attack, "UTC")
    for field in ("candidate_name", "posting_title", "round_name"):
        with pytest.raises(CalendarInputError):
            replace(INVITED, **{field: attack})


def test_multiline_fields_are_escaped_in_the_file():
    """Focus questions, notes and the place may span lines; in the file they stay inside their property."""
    from dataclasses import replace

    from planner.core.calendar import build_request
    from tests.core.calendar.ics_scenario import ALICE, INVITED, ORGANIZER, T0

    attack = "line one\nATTENDEE;CN=x:mailto:evil@attacker.example\nX-EVIL:1"
    event = replace(INVITED, focus_questions=(attack,), internal_notes=attack, location=attack)
    data = build_request(event, ORGANIZER, [ALICE], T0)
    _check_calendar(data, {ALICE.email.lower()}, "request with multi-line text")
    description = str(Calendar.from_ical(data).walk("VEVENT")[0]["DESCRIPTION"])
    assert "ATTENDEE;CN=x:mailto:evil@attacker.example" in description
