"""Builders for the CalDAV tests: calendar settings with a test key, events as iCalendar text, counts."""

from __future__ import annotations

from sqlalchemy import func, select

from planner.models import AuditEntry, BusyBlock, CalendarSource
from planner.services.calendars import CalendarInput, CalendarSettings, generate_key, set_calendar

KEY = generate_key()
SETTINGS = CalendarSettings(secret_keys=(KEY,), horizon_days=60, timeout=5.0)


def vevent(uid: str, start: str, end: str, summary: str, *extra: str, tzid: str | None = "Europe/London") -> str:
    """One VEVENT; ``start``/``end`` are iCalendar values (``20270323T100000``, or ``20270324`` for a date)."""
    if len(start) == 8:
        times = [f"DTSTART;VALUE=DATE:{start}", f"DTEND;VALUE=DATE:{end}"]
    elif tzid:
        times = [f"DTSTART;TZID={tzid}:{start}", f"DTEND;TZID={tzid}:{end}"]
    else:
        times = [f"DTSTART:{start}", f"DTEND:{end}"]
    lines = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20270101T000000Z", *times, f"SUMMARY:{summary}", *extra,
             "END:VEVENT"]
    return "\r\n".join(lines)


def vcalendar(*events: str) -> str:
    """A VCALENDAR around ``events`` (Radicale adds the VTIMEZONE of each TZID when it serves them)."""
    return "\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//planner tests//EN", *events,
                        "END:VCALENDAR"]) + "\r\n"


def connect(db, person_id: int, url: str, *, password: str, username: str = "ana",
            settings: CalendarSettings = SETTINGS) -> CalendarSource:
    """Set the person's CalDAV calendar through the service."""
    return set_calendar(db, person_id, CalendarInput(url=url, username=username, password=password),
                        settings=settings, actor_id=None)


def counts(db) -> tuple[int, int, int]:
    """(busy blocks, calendar rows, audit entries): what a failed sync must leave as it was."""
    return tuple(db.scalar(select(func.count()).select_from(model)) for model in (BusyBlock, CalendarSource,
                                                                                 AuditEntry))


def blocks(db, person_id: int, source: str | None = None) -> list[BusyBlock]:
    query = select(BusyBlock).where(BusyBlock.interviewer_id == person_id)
    if source is not None:
        query = query.where(BusyBlock.source == source)
    return list(db.scalars(query.order_by(BusyBlock.start, BusyBlock.id)))
