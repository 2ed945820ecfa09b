"""Busy intervals in UTC: the one shape every busy source (manual, imported) is reduced to."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from planner.core.errors import ValidationFailed


class EndNotAfterStart(ValidationFailed):
    """An interval whose end is not after its start."""


class NaiveDatetime(ValidationFailed):
    """A datetime without a time zone where an exact instant is needed."""


def require_utc(value: datetime, what: str) -> datetime:
    """Return ``value`` converted to UTC; naive datetimes are refused because their instant is unknown."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise NaiveDatetime(
            f"The {what} ({value.isoformat()}) has no time zone; give it with an offset or in UTC."
        )
    return value.astimezone(UTC)


@dataclass(frozen=True, order=True)
class BusyInterval:
    """A half-open busy span ``[start_utc, end_utc)`` with a human label (event summary)."""

    start_utc: datetime
    end_utc: datetime
    summary: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "start_utc", require_utc(self.start_utc, "busy start"))
        object.__setattr__(self, "end_utc", require_utc(self.end_utc, "busy end"))
        if self.end_utc <= self.start_utc:
            label = f" '{self.summary}'" if self.summary else ""
            raise EndNotAfterStart(
                f"The busy block{label} ends ({self.end_utc:%Y-%m-%d %H:%M} UTC) "
                f"before or when it starts ({self.start_utc:%Y-%m-%d %H:%M} UTC)."
            )

    def overlaps(self, start_utc: datetime, end_utc: datetime) -> bool:
        """Whether this interval shares any time with ``[start_utc, end_utc)`` (touching is not)."""
        return self.start_utc < end_utc and start_utc < self.end_utc


def merge_intervals(intervals: Iterable[BusyInterval]) -> list[BusyInterval]:
    """Sort and merge overlapping or touching intervals, joining their distinct summaries with "; ".

    Touching intervals are merged too: for busy time, 10:00-11:00 and 11:00-12:00 block the same
    slots as one 10:00-12:00 block, and one block is easier to read on the week view.
    """
    merged: list[BusyInterval] = []
    for interval in sorted(intervals):
        if merged and interval.start_utc <= merged[-1].end_utc:
            last = merged[-1]
            summaries = [s for s in last.summary.split("; ") if s]
            if interval.summary and interval.summary not in summaries:
                summaries.append(interval.summary)
            merged[-1] = BusyInterval(
                last.start_utc, max(last.end_utc, interval.end_utc), "; ".join(summaries)
            )
        else:
            merged.append(interval)
    return merged
