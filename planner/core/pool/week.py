"""An interviewer's week in their local time: working hours, busy blocks and interviews per day.

Positions are percentages of a day range on the local *wall clock* (07:00-21:00 by default,
widened to the whole hours that the week's items need), so a template can place blocks in a CSS
grid whose rows are labelled by clock hours. Items are cut at local midnight, which is found in
real time: on a daylight-saving day the column spans 23 or 25 real hours, and ``hours_in_day``
says so. An item that crosses the hour the clock skips or repeats is drawn by its wall-clock
times; at 02:00-03:00 that is rare enough to accept.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Literal

from planner.core.pool.hours import WorkingHours, as_zone
from planner.core.pool.intervals import BusyInterval, require_utc

BlockKind = Literal["working", "busy", "interview"]
DEFAULT_RANGE = (7, 21)


@dataclass(frozen=True)
class BookedInterview:
    """An interview the interviewer sits in, for display."""

    start_utc: datetime
    end_utc: datetime
    title: str


@dataclass(frozen=True)
class Block:
    """One item cut to one local day, with its place in the day column."""

    kind: BlockKind
    start_local: datetime
    end_local: datetime
    label: str
    top_pct: float
    height_pct: float
    continues_before: bool  # the item started on an earlier day
    continues_after: bool  # the item goes on into the next day


@dataclass(frozen=True)
class DayColumn:
    """One local day of the week view."""

    day: date
    hours_in_day: float  # 24, or 23 / 25 on a daylight-saving change
    working: Block | None
    busy: tuple[Block, ...]
    interviews: tuple[Block, ...]


@dataclass(frozen=True)
class WeekView:
    """Seven local days from ``week_start`` and the wall-clock hour range their positions refer to."""

    timezone: str
    week_start: date
    range_start_hour: int
    range_end_hour: int
    days: tuple[DayColumn, ...]


def _midnight_utc(day: date, zone: tzinfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)


def _wall_minutes(moment_local: datetime, day: date) -> float:
    """Minutes on the wall clock since the start of ``day``; the next midnight counts as 24:00."""
    if moment_local.date() > day:
        return 24 * 60.0
    return moment_local.hour * 60 + moment_local.minute + moment_local.second / 60


def _pieces(
    items: Iterable[tuple[datetime, datetime, str]], day_start: datetime, day_end: datetime
) -> list[tuple[datetime, datetime, str, bool, bool]]:
    pieces = []
    for start, end, label in items:
        if start < day_end and day_start < end:
            pieces.append((max(start, day_start), min(end, day_end), label, start < day_start, end > day_end))
    return sorted(pieces)


def week_view(
    tz: str | tzinfo,
    week_start_local: date,
    hours: WorkingHours | None,
    busy: Iterable[BusyInterval],
    interviews: Iterable[BookedInterview],
    *,
    min_range: tuple[int, int] = DEFAULT_RANGE,
) -> WeekView:
    """Build the 7-day view from ``week_start_local`` in zone ``tz`` (``hours`` None: no working window)."""
    zone = as_zone(tz)
    dates = [week_start_local + timedelta(days=i) for i in range(8)]
    bounds = [_midnight_utc(d, zone) for d in dates]
    busy_items = [(b.start_utc, b.end_utc, b.summary) for b in busy]
    interview_items = [
        (require_utc(i.start_utc, "interview start"), require_utc(i.end_utc, "interview end"), i.title)
        for i in interviews
    ]
    work_items = []
    for day in dates[:7]:
        window = hours.local_window(day, zone) if hours else None
        if window:
            work_items.append((window[0].astimezone(UTC), window[1].astimezone(UTC), "Working hours"))

    raw_days = []
    low, high = float(min_range[0] * 60), float(min_range[1] * 60)
    for index, day in enumerate(dates[:7]):
        day_start, day_end = bounds[index], bounds[index + 1]
        per_kind = {
            kind: _pieces(items, day_start, day_end)
            for kind, items in (("working", work_items), ("busy", busy_items), ("interview", interview_items))
        }
        for pieces in per_kind.values():
            for start, end, *_ in pieces:
                low = min(low, _wall_minutes(start.astimezone(zone), day))
                high = max(high, _wall_minutes(end.astimezone(zone), day))
        raw_days.append((day, (day_end - day_start).total_seconds() / 3600, per_kind))

    range_start, range_end = math.floor(low / 60), math.ceil(high / 60)
    span = (range_end - range_start) * 60.0

    def block(kind: BlockKind, day: date, piece: tuple[datetime, datetime, str, bool, bool]) -> Block:
        start, end, label, before, after = piece
        start_local, end_local = start.astimezone(zone), end.astimezone(zone)
        top = _wall_minutes(start_local, day) - range_start * 60
        # max(): on the day the clock goes back, an item inside the repeated hour can end "earlier".
        height = max(_wall_minutes(end_local, day) - range_start * 60 - top, 0.0)
        return Block(
            kind,
            start_local,
            end_local,
            label,
            round(100 * top / span, 3),
            round(100 * height / span, 3),
            before,
            after,
        )

    columns = []
    for day, length, per_kind in raw_days:
        working = [block("working", day, p) for p in per_kind["working"]]
        columns.append(
            DayColumn(
                day=day,
                hours_in_day=length,
                working=working[0] if working else None,
                busy=tuple(block("busy", day, p) for p in per_kind["busy"]),
                interviews=tuple(block("interview", day, p) for p in per_kind["interview"]),
            )
        )
    return WeekView(str(zone), week_start_local, range_start, range_end, tuple(columns))
