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


_NAIVE_EPOCH = datetime(1970, 1, 1)
_EPOCH_ORDINAL = _NAIVE_EPOCH.toordinal()
_NOON = time(12)


def _minute_at_offset(local: datetime, offset: timedelta, round_up: bool = False) -> int:
    """The UTC minute at which a naive local wall-clock time occurs under a given UTC offset.

    Offsets with seconds (local mean times of old dates) fall between minutes: starts round up, ends down.
    """
    seconds = int(((local - _NAIVE_EPOCH) - offset).total_seconds())
    return -(-seconds // 60) if round_up else seconds // 60


def _offset_at(minute: int, zone: ZoneInfo) -> timedelta:
    return (_EPOCH + timedelta(minutes=minute)).astimezone(zone).utcoffset() or timedelta(0)


def _day_spans(day: date, hours, zone: ZoneInfo, offset: timedelta | None = None) -> list[tuple[int, int]]:
    """UTC minutes ``[lo, hi)`` at which the wall clock in ``zone`` reads a time of ``day`` within ``hours``.

    Usually one span. On a day the clocks change, the wall clock decides: a start or end inside the skipped
    hour moves to the change itself (not an hour past it), and when the clocks go back only the instants
    whose local time lies within the hours count (so the span can come in two pieces), as the checker of
    results reads them. ``offset``, when given, is the zone's offset all day long (no change that day).
    """
    if offset is not None:
        base = (day.toordinal() - _EPOCH_ORDINAL) * 86400 - int(offset.total_seconds())
        return [(-(-(base + hours.start * 60) // 60), (base + hours.end * 60) // 60)]
    start = datetime.combine(day, time(hours.start // 60, hours.start % 60))
    end_clock = hours.end % 1440
    end = datetime.combine(day + timedelta(days=hours.end // 1440), time(end_clock // 60, end_clock % 60))
    offsets = {moment.replace(tzinfo=zone, fold=fold).utcoffset() for moment in (start, end) for fold in (0, 1)}
    if len(offsets) == 1:
        (offset,) = offsets
        return [(_minute_at_offset(start, offset, True), _minute_at_offset(end, offset))]
    # The wall clock reads t + before until the change and t + after from it on; a day around the candidate
    # instants makes sure the change found is the one that matters (at most one change in three days).
    lo = min(_utc_minute(start.replace(tzinfo=zone, fold=fold)) for fold in (0, 1)) - 1440
    hi = max(_utc_minute(end.replace(tzinfo=zone, fold=fold)) for fold in (0, 1)) + 1440
    before, after = _offset_at(lo, zone), _offset_at(hi - 1, zone)
    if before == after:
        return [(_minute_at_offset(start, before, True), _minute_at_offset(end, before))]
    early, late = lo, hi - 1  # the first minute under the new offset lies in (early, late]
    while late - early > 1:
        middle = (early + late) // 2
        if _offset_at(middle, zone) == before:
            early = middle
        else:
            late = middle
    change = late
    pieces = [
        (_minute_at_offset(start, before, True), min(_minute_at_offset(end, before), change)),
        (max(_minute_at_offset(start, after, True), change), _minute_at_offset(end, after)),
    ]
    pieces = [(a, b) for a, b in pieces if b > a]
    if len(pieces) == 2 and pieces[0][1] >= pieces[1][0]:
        pieces = [(pieces[0][0], max(pieces[0][1], pieces[1][1]))]
    return pieces


def _working_spans(person: Interviewer, horizon: Span) -> list[tuple[int, int, date]]:
    zone = ZoneInfo(person.timezone)
    hours = person.working_hours
    first = minute_to_local(horizon.start, person.timezone).date() - timedelta(days=1)
    last = minute_to_local(horizon.end, person.timezone).date() + timedelta(days=1)
    spans = []
    day = first
    # One offset at the noons before, of and after a day means the clocks do not change anywhere near it (at
    # most one change in two days): its span is plain arithmetic, and only days near a change take the
    # careful path.
    before = datetime.combine(day - timedelta(days=1), _NOON, tzinfo=zone).utcoffset()
    today = datetime.combine(day, _NOON, tzinfo=zone).utcoffset()
    while day <= last:
        after = datetime.combine(day + timedelta(days=1), _NOON, tzinfo=zone).utcoffset()
        if day.weekday() in hours.days:
            for lo, hi in _day_spans(day, hours, zone, today if before == today == after else None):
                if hi > lo and hi > horizon.start and lo < horizon.end:
                    spans.append((lo, hi, day))
        day += timedelta(days=1)
        before, today = today, after
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
