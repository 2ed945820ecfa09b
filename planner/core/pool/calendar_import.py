"""Busy time from an .ics export of an interviewer's calendar (Google, Outlook, Apple and others).

Decisions, so the import behaves the same for every client:
- Recurrence (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides) is expanded by recurring_ical_events,
  which also applies Google's X-WR-TIMEZONE.
- TZID values resolve through the file's VTIMEZONE, an IANA name, or a Windows name such as
  "Pacific Standard Time" (icalendar maps those). A TZID that none of these explain is an error,
  rather than silently reading the time as floating.
- Floating times (no TZID, no Z) are read in the calendar's X-WR-TIMEZONE when it declares one
  (that is what Google means by it), otherwise in the interviewer's ``default_tz``.
- All-day events (VALUE=DATE) are busy from local midnight to local midnight in ``default_tz``:
  a day off is a day off wherever the file was written. Like every event, they are skipped when
  TRANSP:TRANSPARENT ("show as free"), which is how Google writes all-day events by default.
- Events with STATUS:CANCELLED, TRANSP:TRANSPARENT or Outlook's X-MICROSOFT-CDO-BUSYSTATUS:FREE are
  not busy. Zero-length events are ignored.
- The result is clipped to the horizon and merged (overlapping or touching blocks become one).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta, tzinfo

import icalendar
import recurring_ical_events
from icalendar.cal import Component

from planner.core.errors import ValidationFailed
from planner.core.pool.hours import UnknownTimeZone, validate_timezone
from planner.core.pool.intervals import BusyInterval, merge_intervals, require_utc
from planner.core.pool.recurrence_cost import RecurrenceTooCostly, check_recurrence_cost

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
# Parsing and indexing cost about 1 ms per event on a busy machine whatever the period, so the number of
# events is bounded before parsing (a year of a full calendar is 2,000-4,000).
MAX_EVENTS = 10_000
MAX_INSTANCES = 5000  # expanded busy instances per import; a real calendar has a few hundred a quarter
MAX_HORIZON = timedelta(days=400)
# Query a little wider than the horizon: floating and all-day times are only placed in a zone after
# expansion, and a zone is at most 14 hours from UTC.
_QUERY_MARGIN = timedelta(days=1)
_QUERY_CHUNK = timedelta(days=7)  # expand week by week so a runaway rule is stopped early
_TIME_PROPERTIES = ("DTSTART", "DTEND", "RECURRENCE-ID", "EXDATE", "RDATE")


class CalendarImportError(ValidationFailed):
    """An uploaded calendar file that cannot be read as busy time."""


class UnknownCalendarTimeZone(CalendarImportError, UnknownTimeZone):
    """An event whose TZID neither the file nor the zone database explains."""


def parse_busy_ics(
    data: bytes, *, default_tz: str, horizon_start: datetime, horizon_end: datetime
) -> list[BusyInterval]:
    """Busy intervals (UTC, merged, clipped to ``[horizon_start, horizon_end)``) from .ics bytes.

    Raises CalendarImportError with one sentence for anything it cannot read.
    """
    zone = validate_timezone(default_tz)
    start = require_utc(horizon_start, "import horizon start")
    end = require_utc(horizon_end, "import horizon end")
    if end <= start:
        raise CalendarImportError("The import horizon must end after it starts.")
    if end - start > MAX_HORIZON:
        raise CalendarImportError(f"The import horizon is limited to {MAX_HORIZON.days} days.")
    busy: list[BusyInterval] = []
    for calendar in _read_calendars(data):
        _check_calendar(calendar, zone)
        # Bounded before anything is expanded: a runaway rule is refused in microseconds, not minutes.
        try:
            check_recurrence_cost(calendar.walk("VEVENT"), zone, start - _QUERY_MARGIN, end + _QUERY_MARGIN,
                                  MAX_INSTANCES, _describe)
        except RecurrenceTooCostly as exc:
            raise CalendarImportError(str(exc)) from None
        busy.extend(_busy_in(calendar, zone, start, end))
    return merge_intervals(busy)


def _read_calendars(data: bytes) -> list[Component]:
    if not isinstance(data, bytes | bytearray):
        raise CalendarImportError("The calendar upload must be the bytes of an .ics file.")
    if len(data) > MAX_UPLOAD_BYTES:
        raise CalendarImportError(
            f"The calendar file is {len(data) / 1_048_576:.1f} MB; the limit is "
            f"{MAX_UPLOAD_BYTES // 1_048_576} MB, so export a shorter date range."
        )
    if b"\x00" in data:
        raise CalendarImportError(
            "The file is binary, not an .ics calendar (a text file starting BEGIN:VCALENDAR)."
        )
    try:
        text = bytes(data).decode("utf-8-sig")  # Outlook may start the file with a byte-order mark
    except UnicodeDecodeError:
        raise CalendarImportError(
            "The file is not UTF-8 text, so it is not an .ics calendar export."
        ) from None
    if not text.strip():
        raise CalendarImportError("The calendar file is empty.")
    if not text.lstrip().upper().startswith("BEGIN:"):
        raise CalendarImportError("The file is not an .ics calendar: it should start with BEGIN:VCALENDAR.")
    events = text.upper().count("BEGIN:VEVENT")
    if events > MAX_EVENTS:
        raise CalendarImportError(
            f"The calendar file holds {events:,} events; the limit is {MAX_EVENTS:,}, so export a shorter "
            "date range (recent and future events are enough)."
        )
    try:
        components = icalendar.Calendar.from_ical(text, multiple=True)
    except ValueError as exc:
        raise CalendarImportError(
            f"The calendar file is malformed and cannot be read ({_first_line(exc)})."
        ) from None
    calendars = [c for c in components if c.name == "VCALENDAR"]
    if not calendars and "BEGIN:VCALENDAR" in text.upper():
        raise CalendarImportError("The calendar file is cut short: BEGIN:VCALENDAR has no END:VCALENDAR.")
    if not calendars:
        raise CalendarImportError("The file holds no VCALENDAR, so it is not a calendar export.")
    return calendars


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__


def _summary(component: Component) -> str:
    return str(component.get("SUMMARY", "")).strip()


def _describe(component: Component) -> str:
    summary = _summary(component)
    return f"the event '{summary}'" if summary else "an event without a title"


def _sentence_start(component: Component) -> str:
    """``_describe`` for the start of a sentence (str.capitalize would lowercase the title)."""
    text = _describe(component)
    return text[0].upper() + text[1:]


def _check_calendar(calendar: Component, zone: tzinfo) -> None:
    """Refuse broken values and unknown zones up front, with the event they belong to."""
    for component in calendar.walk():
        if component.name not in ("VEVENT", "VTIMEZONE", "STANDARD", "DAYLIGHT"):
            continue  # errors in to-dos, alarms or journals do not affect busy time
        for prop, message in component.errors:
            where = (
                _describe(component)
                if component.name == "VEVENT"
                else f"the time zone block {component.name}"
            )
            raise CalendarImportError(f"The {prop} of {where} is malformed: {message}.")
        if component.name == "VEVENT":
            if component.get("DTSTART") is None:
                raise CalendarImportError(f"{_sentence_start(component)} has no start (DTSTART).")
            _check_zones(component)
            _check_span(component, zone)


def _check_span(event: Component, zone: tzinfo) -> None:
    """Refuse an end before the start: the expansion library would silently swap the two."""
    start = event["DTSTART"].dt
    end = event.get("DTEND")
    if end is not None:
        if isinstance(start, datetime) != isinstance(end.dt, datetime):
            raise CalendarImportError(
                f"{_sentence_start(event)} mixes an all-day date with a time of day in its start and end."
            )
        if _to_utc(end.dt, zone) < _to_utc(start, zone):
            raise CalendarImportError(f"{_sentence_start(event)} ends before it starts.")
    duration = event.get("DURATION")
    if duration is not None and isinstance(duration.dt, timedelta) and duration.dt < timedelta(0):
        raise CalendarImportError(
            f"{_sentence_start(event)} has a negative duration, so it ends before it starts."
        )


def _check_zones(event: Component) -> None:
    """A TZID that icalendar could not resolve leaves a naive time behind; report it instead."""
    for name in _TIME_PROPERTIES:
        values = event.get(name)
        for value in values if isinstance(values, list) else [values]:
            if value is None or "TZID" not in value.params:
                continue
            # EXDATE/RDATE hold a list of values; an RDATE value may be a (start, end) period.
            times = [v.dt[0] if isinstance(v.dt, tuple) else v.dt for v in getattr(value, "dts", [value])]
            if any(isinstance(t, datetime) and t.tzinfo is None for t in times):
                raise UnknownCalendarTimeZone(
                    f"{_sentence_start(event)} uses the time zone '{value.params['TZID']}', "
                    "which the file does not define and which is not a known zone."
                )


def _is_busy(occurrence: Component) -> bool:
    if str(occurrence.get("STATUS", "")).upper() == "CANCELLED":
        return False
    if str(occurrence.get("TRANSP", "OPAQUE")).upper() == "TRANSPARENT":
        return False
    return str(occurrence.get("X-MICROSOFT-CDO-BUSYSTATUS", "")).upper() != "FREE"


def _to_utc(value: date | datetime, zone: tzinfo) -> datetime:
    if not isinstance(value, datetime):  # all-day: local midnight in the interviewer's zone
        value = datetime.combine(value, time(0))
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone)
    return value.astimezone(UTC)


def _busy_in(calendar: Component, zone: tzinfo, start: datetime, end: datetime) -> Iterator[BusyInterval]:
    seen: set[tuple[str, datetime, datetime]] = set()
    for occurrence in _expand(calendar, start - _QUERY_MARGIN, end + _QUERY_MARGIN):
        try:
            begin, finish = occurrence.start, occurrence.end
        except (ValueError, TypeError) as exc:  # e.g. a DURATION and a DTEND, or date/datetime mixed
            raise CalendarImportError(f"{_sentence_start(occurrence)} has unusable times ({exc}).") from None
        begin_utc, end_utc = _to_utc(begin, zone), _to_utc(finish, zone)
        key = (str(occurrence.get("UID", "")), begin_utc, end_utc)
        if key in seen:  # chunks overlap at their edges, so an instance can come back twice
            continue
        seen.add(key)
        if len(seen) > MAX_INSTANCES:
            raise CalendarImportError(
                f"The calendar expands to more than {MAX_INSTANCES} events in the import period; "
                "export a shorter range or check for a runaway repeating event."
            )
        if not _is_busy(occurrence) or end_utc == begin_utc:
            continue
        clipped_start, clipped_end = max(begin_utc, start), min(end_utc, end)
        if clipped_start < clipped_end:
            yield BusyInterval(clipped_start, clipped_end, _summary(occurrence))


def _expand(calendar: Component, start: datetime, end: datetime) -> Iterator[Component]:
    """Occurrences overlapping [start, end), queried chunk by chunk so the instance cap bites early."""
    try:
        query = recurring_ical_events.of(calendar)
        chunk_start = start
        while chunk_start < end:
            chunk_end = min(chunk_start + _QUERY_CHUNK, end)
            yield from query.between(chunk_start, chunk_end)
            chunk_start = chunk_end
    except recurring_ical_events.PeriodEndBeforeStart as exc:
        raise CalendarImportError(
            f"An event in the calendar ends before it starts ({_first_line(exc)})."
        ) from None
    except (recurring_ical_events.InvalidCalendar, recurring_ical_events.BadRuleStringFormat) as exc:
        raise CalendarImportError(f"A repeating event cannot be expanded ({_first_line(exc)}).") from None
    except (ValueError, TypeError, OverflowError) as exc:
        raise CalendarImportError(f"The calendar's dates cannot be read ({_first_line(exc)}).") from None
