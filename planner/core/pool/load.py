"""Interview load and caps: the one place that counts seats per local day and ISO week.

Semantics follow the scheduler contract (DESIGN 5.2), so the pool view, the interviewer's page and
the scheduler agree:
- days and weeks are the interviewer's *local* calendar days and ISO weeks;
- caps count every seat, assessor and trainee alike;
- "load" for fairness counts assessor seats only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from typing import Literal

from planner.core.errors import ValidationFailed
from planner.core.pool.hours import as_zone
from planner.core.pool.intervals import require_utc

SeatRole = Literal["assessor", "trainee"]
IsoWeek = tuple[int, int]


class InvalidCaps(ValidationFailed):
    """Daily or weekly interview caps that are not usable."""


@dataclass(frozen=True)
class SeatRecord:
    """One seat an interviewer holds in an interview: when it starts and in which role."""

    start_utc: datetime
    role: SeatRole = "assessor"

    def __post_init__(self) -> None:
        object.__setattr__(self, "start_utc", require_utc(self.start_utc, "interview start"))
        if self.role not in ("assessor", "trainee"):
            raise ValidationFailed(f"A seat role must be 'assessor' or 'trainee', not '{self.role}'.")


def local_day(dt_utc: datetime, tz: str | tzinfo) -> date:
    """The interviewer's local calendar day on which the instant ``dt_utc`` falls."""
    return require_utc(dt_utc, "time").astimezone(as_zone(tz)).date()


def iso_week(dt_utc: datetime, tz: str | tzinfo) -> IsoWeek:
    """(ISO year, ISO week) of the interviewer's local day of ``dt_utc``.

    The ISO year, not the calendar year: 2026-12-31 belongs to week (2026, 53) and 2027-01-01 too.
    """
    year, week, _ = local_day(dt_utc, tz).isocalendar()
    return year, week


@dataclass(frozen=True)
class LoadSummary:
    """Seat counts of one interviewer keyed by local day and by ISO week."""

    day_counts: Mapping[date, int]
    week_counts: Mapping[IsoWeek, int]
    assessor_week_counts: Mapping[IsoWeek, int]

    def on_day(self, day: date) -> int:
        """Seats (assessor and trainee) on a local day; what the daily cap limits."""
        return self.day_counts.get(day, 0)

    def in_week(self, week: IsoWeek) -> int:
        """Seats (assessor and trainee) in an ISO week; what the weekly cap limits."""
        return self.week_counts.get(week, 0)

    def fairness_load(self, week: IsoWeek) -> int:
        """Assessor seats in an ISO week; the load the scheduler spreads fairly."""
        return self.assessor_week_counts.get(week, 0)

    def sum_of_squares(self) -> int:
        """Sum over ISO weeks of the squared assessor load (this interviewer's share of objective 2)."""
        return sum(count * count for count in self.assessor_week_counts.values())


def count_load(seats: Iterable[SeatRecord], tz: str | tzinfo) -> LoadSummary:
    """Count seats per local day, per ISO week, and assessor seats per ISO week."""
    zone = as_zone(tz)
    days: Counter[date] = Counter()
    weeks: Counter[IsoWeek] = Counter()
    assessor_weeks: Counter[IsoWeek] = Counter()
    for seat in seats:
        day = seat.start_utc.astimezone(zone).date()
        week = day.isocalendar()[:2]
        days[day] += 1
        weeks[week] += 1
        if seat.role == "assessor":
            assessor_weeks[week] += 1
    return LoadSummary(dict(days), dict(weeks), dict(assessor_weeks))


#: Caps above these are typing slips, not policies (and would not fit the database's integer column).
CAP_LIMITS = {"daily": 24, "weekly": 120}


def validate_caps(max_per_day: object, max_per_week: object) -> tuple[int, int]:
    """Check caps are whole numbers >= 0 with the daily cap not above the weekly one; return them."""
    for label, value in (("daily", max_per_day), ("weekly", max_per_week)):
        # bool is an int subclass; True as a cap is a form bug, not "1".
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidCaps(f"The {label} interview cap must be a whole number, not {value!r}.")
        if value < 0:
            raise InvalidCaps(
                f"The {label} interview cap cannot be below zero (got {value}); use 0 for none."
            )
        if value > CAP_LIMITS[label]:
            raise InvalidCaps(f"The {label} interview cap can be at most {CAP_LIMITS[label]} (got {value}).")
    if max_per_day > max_per_week:  # type: ignore[operator]
        raise InvalidCaps(
            f"The daily cap ({max_per_day}) is larger than the weekly cap ({max_per_week}); "
            "lower the daily cap or raise the weekly one."
        )
    return max_per_day, max_per_week  # type: ignore[return-value]


@dataclass(frozen=True)
class CapStatus:
    """Seats held on the local day and ISO week of ``at``, against the caps."""

    today: int
    this_week: int
    max_per_day: int
    max_per_week: int
    remaining_today: int
    remaining_week: int
    over: bool  # more seats than a cap allows (caps lowered after booking, or a manual override)

    @property
    def full(self) -> bool:
        """No further seat fits on this day or in this week."""
        return self.remaining_today == 0 or self.remaining_week == 0


def load_against_caps(
    seats: Iterable[SeatRecord], tz: str | tzinfo, max_per_day: int, max_per_week: int, at: datetime
) -> CapStatus:
    """Seats on the local day and ISO week containing the instant ``at``, with what remains under the caps."""
    validate_caps(max_per_day, max_per_week)
    summary = count_load(seats, tz)
    day = local_day(at, tz)
    today = summary.on_day(day)
    week = summary.in_week(day.isocalendar()[:2])
    return CapStatus(
        today=today,
        this_week=week,
        max_per_day=max_per_day,
        max_per_week=max_per_week,
        remaining_today=max(0, max_per_day - today),
        remaining_week=max(0, max_per_week - week),
        over=today > max_per_day or week > max_per_week,
    )


def seat_fits_caps(
    summary: LoadSummary, tz: str | tzinfo, start_utc: datetime, max_per_day: int, max_per_week: int
) -> bool:
    """Whether one more seat starting at ``start_utc`` keeps its local day and ISO week within the caps."""
    day = local_day(start_utc, tz)
    return summary.on_day(day) < max_per_day and summary.in_week(day.isocalendar()[:2]) < max_per_week
