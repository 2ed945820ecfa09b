"""The facts of one iTIP REPLY or COUNTER calendar object (RFC 5546 sections 3.2.3 and 3.2.7).

icalendar parses leniently: a value it cannot read becomes a ``vBroken`` placeholder and an entry in
the component's ``errors``. Every property used here is checked for that before it is trusted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from icalendar import Calendar
from icalendar.cal import Component

from planner.core.inbound.types import METHODS, PARTSTATS

_ADDRESS_RE = re.compile(r"^[^@\s<>\"]+@[^@\s<>\"]+\.[^@\s<>\"]+$")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
#: A proposed interview longer than this is not a time slot but a mistake.
MAX_PROPOSED = timedelta(hours=12)


class ItipRefused(Exception):
    """The calendar object is not an answer the planner can take; the message says why (a fragment)."""


@dataclass(frozen=True)
class Answer:
    """An attendee named in the calendar object, with their PARTSTAT."""

    address: str
    name: str
    partstat: str | None


@dataclass(frozen=True)
class CalendarFacts:
    """Everything a REPLY or COUNTER says, before the attendee who answers is picked."""

    method: str
    uid: str
    sequence: int
    answers: tuple[Answer, ...]
    organizer: str
    comment: str
    dtstamp: datetime | None
    proposed_start: datetime | None
    proposed_end: datetime | None


def address_of(value: object) -> str:
    """A calendar address as a lower-case email address (``mailto:`` dropped); "" when it is not one."""
    text = str(value or "").strip()
    if text.lower().startswith("mailto:"):
        text = text[7:]
    text = text.strip().lower()
    return text if _ADDRESS_RE.match(text) and len(text) <= 254 else ""


def _prop(event: Component, name: str):
    """The property's value; refused when icalendar could not read it."""
    broken = [message for key, message in event.errors if key == name]
    if broken:
        raise ItipRefused(f"its {name} cannot be read ({broken[0]})")
    return event.get(name)


def _utc(value: object, name: str) -> datetime:
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise ItipRefused(f"its {name} has no time zone")
        return value.astimezone(UTC)
    if isinstance(value, date):
        raise ItipRefused(f"its {name} is a whole day, not a time")
    raise ItipRefused(f"its {name} is not a date and time")


def _decoded(event: Component, name: str) -> object | None:
    if _prop(event, name) is None:
        return None
    try:
        return event.decoded(name)
    except (ValueError, TypeError, KeyError):
        raise ItipRefused(f"its {name} cannot be read") from None


def _as_list(value: object) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _answers(event: Component) -> tuple[Answer, ...]:
    answers = []
    for attendee in _as_list(_prop(event, "ATTENDEE")):
        address = address_of(attendee)
        if not address:
            raise ItipRefused(f"its ATTENDEE {str(attendee)[:80]!r} is not an email address")
        params = getattr(attendee, "params", {})
        partstat = str(params.get("PARTSTAT") or "").strip().upper() or None
        name = " ".join(str(params.get("CN") or "").split())[:120]
        answers.append(Answer(address, _CONTROL_RE.sub("", name), partstat))
    return tuple(answers)


def _comment(event: Component, limit: int) -> str:
    texts = [str(value).strip() for value in _as_list(_prop(event, "COMMENT"))]
    text = "\n".join(t for t in texts if t)
    # Keep line breaks (people write paragraphs); drop every other control character.
    text = re.sub(r"[\x00-\x09\x0b-\x1f\x7f]", " ", text.replace("\r\n", "\n"))
    return text[:limit].strip()


def _proposed(event: Component) -> tuple[datetime, datetime]:
    start = _decoded(event, "DTSTART")
    if start is None:
        raise ItipRefused("it proposes no new time (no DTSTART)")
    start = _utc(start, "proposed start")
    end = _decoded(event, "DTEND")
    if end is not None:
        end = _utc(end, "proposed end")
    else:
        duration = _decoded(event, "DURATION")
        if not isinstance(duration, timedelta):
            raise ItipRefused("its proposed time has no end (no DTEND or DURATION)")
        end = start + duration
    if end <= start:
        raise ItipRefused("its proposed time ends before it starts")
    if end - start > MAX_PROPOSED:
        raise ItipRefused("its proposed time is longer than 12 hours")
    return start, end


def _single_event(calendar: Calendar) -> Component:
    events = [c for c in calendar.subcomponents if c.name == "VEVENT"]
    others = sorted({c.name for c in calendar.subcomponents if c.name not in ("VEVENT", "VTIMEZONE")})
    if others:
        raise ItipRefused(f"it carries {', '.join(others)}, not an interview")
    if len(events) != 1:
        raise ItipRefused(f"it carries {len(events)} events; an answer to an interview carries exactly one")
    return events[0]


def read_calendar(text: str, *, max_comment: int) -> CalendarFacts:
    """The facts of a REPLY or COUNTER VCALENDAR text.

    :raise ItipRefused: it cannot be parsed, is another method, or lacks what an answer needs.
    """
    if "BEGIN:VCALENDAR" not in text[:4096].upper():
        raise ItipRefused("its calendar part holds no VCALENDAR")
    try:
        calendar = Calendar.from_ical(text)
    except (ValueError, TypeError, KeyError, IndexError):
        raise ItipRefused("its calendar data cannot be parsed") from None
    method = str(calendar.get("METHOD") or "").strip().upper()
    if method not in METHODS:
        what = f"a {method}" if method else "a calendar without METHOD"
        raise ItipRefused(f"it is {what}, not an answer to an invite (REPLY or COUNTER)")
    event = _single_event(calendar)
    uid = " ".join(str(_prop(event, "UID") or "").split())
    if not uid or len(uid) > 255:
        raise ItipRefused("its event has no usable UID")
    if _prop(event, "RECURRENCE-ID") is not None:
        raise ItipRefused("it answers one occurrence of a recurring event; interviews do not recur")
    sequence = _prop(event, "SEQUENCE")
    sequence = int(sequence) if sequence is not None else 0
    if sequence < 0:
        raise ItipRefused("its SEQUENCE is negative")
    stamp = _decoded(event, "DTSTAMP")
    stamp = stamp.astimezone(UTC) if isinstance(stamp, datetime) and stamp.tzinfo is not None else None
    start = end = None
    if method == "COUNTER":
        start, end = _proposed(event)
    return CalendarFacts(method=method, uid=uid, sequence=sequence, answers=_answers(event),
                         organizer=address_of(_prop(event, "ORGANIZER")), comment=_comment(event, max_comment),
                         dtstamp=stamp, proposed_start=start, proposed_end=end)


def pick_answer(facts: CalendarFacts, sender: str | None) -> Answer:
    """The attendee who answers: the only ATTENDEE of a REPLY; for a COUNTER (which may list the whole
    panel), the one who sent it, else the only one who is not the organizer.

    :raise ItipRefused: no such attendee, or a PARTSTAT a reply cannot carry.
    """
    answers = facts.answers
    if facts.method == "REPLY":
        if len(answers) != 1:
            raise ItipRefused(f"it names {len(answers)} attendees; a reply names exactly the person answering")
        answer = answers[0]
        if answer.partstat is None:
            raise ItipRefused("its ATTENDEE gives no PARTSTAT (accepted, tentative or declined)")
    else:
        mine = [a for a in answers if sender and a.address == sender]
        if not mine:
            mine = [a for a in answers if a.address != facts.organizer]
        if len(mine) != 1:
            raise ItipRefused("it does not say which attendee proposes the new time")
        answer = mine[0]
    if answer.partstat == "DELEGATED":
        raise ItipRefused("it delegates the interview to someone else; replace the interviewer on the loop instead")
    if answer.partstat is not None and answer.partstat not in PARTSTATS:
        raise ItipRefused(f"its PARTSTAT {answer.partstat[:40]!r} is not one the planner knows")
    return answer
