"""Interviewer calendars: free working time as UTC blocks, each tagged with its local day and ISO week.

Working hours are local wall-clock times, so a block is computed per local date through ``zoneinfo``;
daylight-saving changes therefore move the UTC edges of the blocks on the right dates.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from planner.core.scheduling.problem import Interviewer, Problem, Span

Week = tuple[int, int]
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class FreeBlock:
    """A stretch of free working time of one interviewer, inside one local day."""

    start: int
    end: int
    day: int  # proleptic ordinal of the interviewer-local date
    week: Week  # ISO (year, week) of that local date


@dataclass(frozen=True)
class Calendar:
    """Free blocks of one interviewer (sorted by start) and what their ``existing`` interviews use up."""

    person: Interviewer
    blocks: tuple[FreeBlock, ...]
    existing_per_day: dict[int, int]
    existing_per_week: dict[Week, int]
    block_starts: tuple[int, ...]

    def block_for(self, start: int, end: int) -> FreeBlock | None:
        """The free block holding all of ``[start, end)``, or None when that time is not free."""
        index = bisect_right(self.block_starts, start) - 1
        if index < 0:
            return None
        block = self.blocks[index]
        return block if end <= block.end else None

    def day_room(self, day: int) -> int | None:
        """Seats still allowed on a local day before counting new ones (None: no cap)."""
        cap = self.person.max_per_day
        return None if cap is None else cap - self.existing_per_day.get(day, 0)

    def week_room(self, week: Week) -> int | None:
        """Seats still allowed in an ISO week before counting new ones (None: no cap)."""
        cap = self.person.max_per_week
        return None if cap is None else cap - self.existing_per_week.get(week, 0)


def minute_to_local(minute: int, zone: str) -> datetime:
    """The local wall-clock datetime of a UTC minute in an IANA zone."""
    return (_EPOCH + timedelta(minutes=minute)).astimezone(ZoneInfo(zone))


def local_day_and_week(minute: int, zone: str) -> tuple[int, Week]:
    """Local date ordinal and ISO week of a UTC minute as seen in ``zone``."""
    local = minute_to_local(minute, zone).date()
    iso = local.isocalendar()
    return local.toordinal(), (iso.year, iso.week)


def _utc_minute(moment: datetime) -> int:
    return int((moment - _EPOCH).total_seconds() // 60)


def _working_spans(person: Interviewer, horizon: Span) -> list[tuple[int, int, date]]:
    zone = ZoneInfo(person.timezone)
    hours = person.working_hours
    first = minute_to_local(horizon.start, person.timezone).date() - timedelta(days=1)
    last = minute_to_local(horizon.end, person.timezone).date() + timedelta(days=1)
    spans = []
    day = first
    while day <= last:
        if day.weekday() in hours.days:
            start = datetime.combine(day, time(hours.start // 60, hours.start % 60), tzinfo=zone)
            end_day = day + timedelta(days=hours.end // 1440)
            end_clock = hours.end % 1440
            end = datetime.combine(end_day, time(end_clock // 60, end_clock % 60), tzinfo=zone)
            lo, hi = _utc_minute(start), _utc_minute(end)
            if hi > lo and hi > horizon.start and lo < horizon.end:
                spans.append((lo, hi, day))
        day += timedelta(days=1)
    return spans


def _subtract(lo: int, hi: int, taken: list[Span]) -> list[tuple[int, int]]:
    pieces = []
    cursor = lo
    for span in taken:  # sorted by start
        if span.end <= cursor:
            continue
        if span.start >= hi:
            break
        if span.start > cursor:
            pieces.append((cursor, span.start))
        cursor = max(cursor, span.end)
        if cursor >= hi:
            break
    if cursor < hi:
        pieces.append((cursor, hi))
    return pieces


def build_calendar(person: Interviewer, horizon: Span) -> Calendar:
    """Free blocks of ``person`` within ``horizon`` and their existing load per local day and week."""
    taken = sorted(person.busy + person.existing, key=lambda s: (s.start, s.end))
    blocks = []
    for lo, hi, day in _working_spans(person, horizon):
        iso = day.isocalendar()
        for start, end in _subtract(max(lo, horizon.start), min(hi, horizon.end), taken):
            blocks.append(FreeBlock(start, end, day.toordinal(), (iso.year, iso.week)))
    per_day: Counter[int] = Counter()
    per_week: Counter[Week] = Counter()
    for span in person.existing:
        day, week = local_day_and_week(span.start, person.timezone)
        per_day[day] += 1
        per_week[week] += 1
    return Calendar(person, tuple(blocks), dict(per_day), dict(per_week), tuple(b.start for b in blocks))


def horizon_of(problem: Problem) -> Span:
    """The smallest span holding every loop window (a dummy minute when there are no loops)."""
    windows = [w for loop in problem.loops for w in loop.windows]
    if not windows:
        return Span(0, 1)
    return Span(min(w.start for w in windows), max(w.end for w in windows))


_last_built: tuple[Problem | None, dict[str, Calendar]] = (None, {})


def build_calendars(problem: Problem) -> dict[str, Calendar]:
    """Calendars of the whole pool, keyed by interviewer id.

    The last problem's calendars are kept: a ``Problem`` never changes, and interactive calls
    (substitutes after a decline) on the same problem then skip the time-zone arithmetic.
    """
    global _last_built
    last = _last_built  # one read: another thread may replace the pair meanwhile
    if last[0] is problem:
        return last[1]
    horizon = horizon_of(problem)
    calendars = {person.id: build_calendar(person, horizon) for person in problem.interviewers}
    _last_built = (problem, calendars)
    return calendars


def grid_starts(lo: int, hi: int, minutes: int, slot: int) -> range:
    """Grid indices ``g`` (start ``g * slot``) such that ``[g*slot, g*slot+minutes)`` lies in ``[lo, hi)``."""
    first = -(-lo // slot)
    last = (hi - minutes) // slot
    return range(first, last + 1)
