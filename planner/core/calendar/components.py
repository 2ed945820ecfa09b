"""Shared icalendar plumbing: addresses, the VEVENT of an interview, the VCALENDAR wrapper.

Every time is written in UTC (``...Z``), the checklist's preferred form for email (section 1.5):
no VTIMEZONE is needed, every client converts to its viewer's zone, and no Outlook VTIMEZONE
quirk can shift an interview by an hour. Local times are shown in the text and HTML bodies.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from icalendar import Calendar, Component, Event, vCalAddress, vText

from planner.core.calendar.descriptions import candidate_description, interviewer_description
from planner.core.calendar.events import CalendarInputError, InterviewEvent, Organizer, Person, to_utc

PRODID = "-//Interview-loop planner//Calendar//EN"

ROLE_ASSESSOR = "REQ-PARTICIPANT"
# Trainees ride along as extra seats: the interview happens without them, hence optional.
ROLE_TRAINEE = "OPT-PARTICIPANT"


def _require_single_line(value: str, what: str) -> None:
    if not isinstance(value, str) or not value.strip() or any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise CalendarInputError(f"The {what} must be one line of text.")


def organizer_address(organizer: Organizer) -> vCalAddress:
    """ORGANIZER as a bare ``mailto:`` URI with CN (never ``mailto:Name <addr>``)."""
    return vCalAddress.new(organizer.email, cn=organizer.name)


def attendee_address(person: Person, role: str = ROLE_ASSESSOR) -> vCalAddress:
    """ATTENDEE that asks for a reply, so clients show Accept/Decline (checklist 1.3)."""
    return vCalAddress.new(
        person.email, cn=person.name, cutype="INDIVIDUAL", role=role, partstat="NEEDS-ACTION", rsvp=True
    )


def attendee_list(
    organizer: Organizer, assessors: Sequence[Person], trainees: Sequence[Person] = ()
) -> list[vCalAddress]:
    """ATTENDEE properties for a panel; rejects an empty panel, duplicates and the organizer."""
    people = [*assessors, *trainees]
    if not people:
        raise CalendarInputError("An invite needs at least one attendee.")
    emails = [p.email.lower() for p in people]
    if len(set(emails)) != len(emails):
        raise CalendarInputError("The same person is listed twice on the panel.")
    if organizer.email.lower() in emails:
        # Outlook then says "as the meeting organizer, you do not need to respond" (checklist 1.3).
        raise CalendarInputError("The organizer mailbox cannot also be an attendee.")
    return [attendee_address(p, ROLE_ASSESSOR) for p in assessors] + [
        attendee_address(p, ROLE_TRAINEE) for p in trainees
    ]


def interviewer_summary(event: InterviewEvent) -> str:
    """The SUMMARY interviewers see."""
    return f"Interview: {event.candidate_name} – {event.round_name} ({event.posting_title})"


def candidate_summary(event: InterviewEvent) -> str:
    """The SUMMARY the candidate sees: no internal wording."""
    return f"Interview: {event.round_name} – {event.posting_title}"


def event_location(event: InterviewEvent) -> str | None:
    """LOCATION: the room, else the video link (clients make the latter clickable)."""
    return event.location or event.video_url


def interviewer_vevent(
    event: InterviewEvent,
    organizer: Organizer,
    stamp: datetime,
    *,
    status: str,
    attendees: Iterable[vCalAddress] = (),
    last_modified: bool = False,
) -> Event:
    """The VEVENT interviewers get, in invites, cancellations, downloads and feeds."""
    return Event.new(
        uid=event.uid,
        sequence=event.sequence,
        stamp=stamp,
        start=to_utc(event.start_utc),
        end=to_utc(event.end_utc),
        summary=interviewer_summary(event),
        description=interviewer_description(event),
        location=event_location(event),
        url=event.interviewer_page_url,
        organizer=organizer_address(organizer),
        attendees=list(attendees) or None,
        status=status,
        transparency="OPAQUE",
        last_modified=to_utc(event.last_modified_utc) if last_modified else None,
    )


def candidate_vevent(
    event: InterviewEvent,
    uid: str,
    organizer: Organizer,
    stamp: datetime,
    *,
    status: str,
    attendees: Iterable[vCalAddress] = (),
    last_modified: bool = False,
) -> Event:
    """The VEVENT the candidate gets: own UID, round name, time and place only.

    It reuses the interview's SEQUENCE: every change that bumps the interview also bumps it, so
    the candidate's copy always moves forward without a second counter to store.
    """
    return Event.new(
        uid=uid,
        sequence=event.sequence,
        stamp=stamp,
        start=to_utc(event.start_utc),
        end=to_utc(event.end_utc),
        summary=candidate_summary(event),
        description=candidate_description(event),
        location=event_location(event),
        url=event.video_url,
        organizer=organizer_address(organizer),
        attendees=list(attendees) or None,
        status=status,
        transparency="OPAQUE",
        last_modified=to_utc(event.last_modified_utc) if last_modified else None,
    )


def calendar_bytes(
    method: str,
    events: Sequence[Component],
    *,
    name: str | None = None,
    extra: Iterable[tuple[str, object, dict[str, str] | None]] = (),
) -> bytes:
    """Wrap VEVENTs (or another component) in a VCALENDAR with METHOD; return its CRLF, folded bytes.

    :raise CalendarInputError: a REQUEST or CANCEL with other than one UID (RFC 5546 1.4: one
        UID per iTIP message; a CalDAV server also stores such a file only as one object).
    """
    if method in ("REQUEST", "CANCEL") and len({str(e.get("UID")) for e in events}) != 1:
        raise CalendarInputError(f"A {method} carries exactly one interview (one UID).")
    cal = Calendar.new(method=method, prodid=PRODID, subcomponents=list(events))
    # Calendar.new adds an RFC 7986 calendar UID (a random uuid4); drop it so output is
    # deterministic and iTIP messages stay minimal (checklist 2.1).
    cal.pop("UID", None)
    if name is not None:
        _require_single_line(name, "calendar name")
        # icalendar 7.3.2 writes Calendar.new(name=...) and plain-str NAME/X-WR-CALNAME without TEXT
        # escaping ("Doe, Alice" stays "Doe, Alice", which ics_check rejects); vText escapes.
        cal.add("NAME", vText(name))
        cal.add("X-WR-CALNAME", vText(name))
    for prop, value, params in extra:
        cal.add(prop, value, parameters=params)
    return cal.to_ical()
