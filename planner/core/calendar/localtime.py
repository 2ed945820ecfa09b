"""Interview times as a person reads them: in their own zone, with the UTC offset, and in UTC.

The calendar object itself is in UTC; these strings go into email bodies, where nothing converts
them. Day and month names come from fixed English tables rather than ``strftime`` so the output
does not depend on the process locale (golden files must be byte-stable).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from planner.core.calendar.events import to_utc, zone

_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _date(moment: datetime) -> str:
    return f"{_DAYS[moment.weekday()]} {moment.day} {_MONTHS[moment.month - 1]} {moment.year}"


def _offset(delta: timedelta | None) -> str:
    minutes = int((delta or timedelta(0)).total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _range(start: datetime, end: datetime) -> str:
    if start.date() == end.date():
        return f"{_date(start)}, {start:%H:%M}–{end:%H:%M}"
    return f"{_date(start)} {start:%H:%M} – {_date(end)} {end:%H:%M}"


def local_time_range(start_utc: datetime, end_utc: datetime, timezone_name: str) -> str:
    """The interview's time in a zone, e.g. ``Tue 30 Mar 2027, 10:00–10:45 Europe/Berlin (UTC+02:00)``.

    When a daylight-saving change falls inside the interview, both offsets are shown and the
    change is named, because the wall-clock length then differs from the real one.

    :raise CalendarInputError: ``timezone_name`` is not in the tz database.
    """
    tz = zone(timezone_name)
    start = to_utc(start_utc).astimezone(tz)
    end = to_utc(end_utc).astimezone(tz)
    start_offset, end_offset = start.utcoffset(), end.utcoffset()
    if start_offset == end_offset:
        offsets = _offset(start_offset)
    else:
        offsets = f"{_offset(start_offset)} → {_offset(end_offset)}: the clocks change during this interview"
    return f"{_range(start, end)} {timezone_name} ({offsets})"


def utc_time_range(start_utc: datetime, end_utc: datetime) -> str:
    """The interview's time in UTC, e.g. ``Tue 30 Mar 2027, 08:00–08:45 UTC``."""
    return f"{_range(to_utc(start_utc).astimezone(UTC), to_utc(end_utc).astimezone(UTC))} UTC"
