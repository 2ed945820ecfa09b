"""Working hours and time zones of an interviewer, and their working intervals as UTC instants.

Working hours are wall-clock times in the interviewer's IANA zone ("09:00" to "17:00", "24:00"
allowed as an end), on a set of weekdays, with no overnight spans (DESIGN 5.2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from planner.core.errors import ValidationFailed

WEEKDAY_NAMES: tuple[str, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DEFAULT_DAYS: frozenset[int] = frozenset(range(5))  # Monday to Friday, as in the scheduler contract
DEFAULT_DAYS_NAMES: tuple[str, ...] = WEEKDAY_NAMES[:5]
MINUTES_PER_DAY = 24 * 60
_HHMM = re.compile(r"^(\d{1,2}):(\d{2})$")


class UnknownTimeZone(ValidationFailed):
    """A time zone name that is not an IANA zone."""


class InvalidWorkingHours(ValidationFailed):
    """Working hours that cannot be read or make no sense."""


def validate_timezone(name: str) -> ZoneInfo:
    """Return the ZoneInfo for an IANA name such as "Europe/Berlin", or raise UnknownTimeZone."""
    if not isinstance(name, str) or not name:
        raise UnknownTimeZone("A time zone is required, as an IANA name such as 'Europe/Berlin'.")
    try:
        return ZoneInfo(name)
    # ZoneInfo reports bad keys in three ways: not found, a malformed key, or a folder name ("America").
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise UnknownTimeZone(
            f"'{name}' is not a known time zone; use an IANA name such as 'America/Los_Angeles'."
        ) from None


def as_zone(tz: str | tzinfo) -> tzinfo:
    """Accept a zone name or a tzinfo, so callers can pass whichever they hold."""
    return validate_timezone(tz) if isinstance(tz, str) else tz


def parse_hhmm(text: str, *, allow_24: bool) -> int:
    """Minutes since midnight of an "HH:MM" string; "24:00" only when ``allow_24`` (an end of day)."""
    match = _HHMM.match(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise InvalidWorkingHours(f"'{text}' is not a time of day; write it as HH:MM, for example 09:00.")
    hours, minutes = int(match[1]), int(match[2])
    if allow_24 and (hours, minutes) == (24, 0):
        return MINUTES_PER_DAY
    if hours > 23 or minutes > 59:
        raise InvalidWorkingHours(f"'{text}' is not a time of day; hours go from 00 to 23 and minutes to 59.")
    return hours * 60 + minutes


def format_minutes(minutes: int) -> str:
    """ "HH:MM" for minutes since midnight; 1440 becomes "24:00"."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@dataclass(frozen=True)
class WorkingHours:
    """Daily working window ``[start_minute, end_minute)`` in minutes since local midnight, on ``days``.

    Minutes rather than ``datetime.time`` because an end of "24:00" has no ``time`` value.
    ``days`` holds weekday numbers, Monday = 0 (``date.weekday()``).
    """

    start_minute: int
    end_minute: int
    days: frozenset[int] = DEFAULT_DAYS

    def __post_init__(self) -> None:
        if not 0 <= self.start_minute < MINUTES_PER_DAY or not 0 < self.end_minute <= MINUTES_PER_DAY:
            raise InvalidWorkingHours("Working hours must lie between 00:00 and 24:00.")
        if self.end_minute <= self.start_minute:
            raise InvalidWorkingHours(
                f"Working hours end ({self.end}) must be after they start ({self.start}); "
                "overnight hours are not supported."
            )
        if not self.days or not self.days <= frozenset(range(7)):
            raise InvalidWorkingHours(
                "Working days must be at least one of mon, tue, wed, thu, fri, sat, sun."
            )

    @property
    def start(self) -> str:
        """Start as "HH:MM"."""
        return format_minutes(self.start_minute)

    @property
    def end(self) -> str:
        """End as "HH:MM" ("24:00" for end of day)."""
        return format_minutes(self.end_minute)

    @property
    def day_names(self) -> list[str]:
        """Working days as short names in week order, e.g. ["mon", "tue"]."""
        return [WEEKDAY_NAMES[d] for d in sorted(self.days)]

    def local_window(self, day: date, tz: tzinfo) -> tuple[datetime, datetime] | None:
        """Aware local start and end of work on ``day``, or None when ``day`` is not a working day.

        Wall-clock arithmetic: 09:00 stays 09:00 on a daylight-saving day. A start that falls in the
        skipped hour resolves as zoneinfo does (fold=0), i.e. an hour later in real time.
        """
        if day.weekday() not in self.days:
            return None
        midnight = datetime.combine(day, time(0), tzinfo=tz)
        start = midnight + timedelta(minutes=self.start_minute)
        if self.end_minute == MINUTES_PER_DAY:
            end = datetime.combine(day + timedelta(days=1), time(0), tzinfo=tz)
        else:
            end = midnight + timedelta(minutes=self.end_minute)
        return start, end


def parse_working_hours(start: str, end: str, days: Iterable[str] | None = None) -> WorkingHours:
    """Build WorkingHours from "HH:MM" strings and day names ("mon".."sun"); days default to Mon-Fri."""
    if isinstance(days, str):  # "mon" would otherwise be read letter by letter
        days = [days]
    day_numbers: set[int] = set()
    for name in DEFAULT_DAYS_NAMES if days is None else days:
        key = name.strip().lower()[:3] if isinstance(name, str) else ""
        if key not in WEEKDAY_NAMES:
            raise InvalidWorkingHours(f"'{name}' is not a day; use mon, tue, wed, thu, fri, sat or sun.")
        day_numbers.add(WEEKDAY_NAMES.index(key))
    return WorkingHours(
        parse_hhmm(start, allow_24=False), parse_hhmm(end, allow_24=True), frozenset(day_numbers)
    )


def working_intervals_utc(
    hours: WorkingHours, tz: str | tzinfo, week_start_local: date
) -> list[tuple[datetime, datetime]]:
    """Working intervals as (start, end) UTC pairs for the 7 local days from ``week_start_local``.

    Each day is computed on the local wall clock and only then converted, so a DST change inside
    the week moves the UTC times by an hour instead of shifting working hours.
    """
    zone = as_zone(tz)
    intervals = []
    for offset in range(7):
        window = hours.local_window(week_start_local + timedelta(days=offset), zone)
        if window is not None:
            intervals.append((window[0].astimezone(UTC), window[1].astimezone(UTC)))
    return intervals
