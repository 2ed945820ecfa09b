"""Load and caps: local days, ISO weeks, assessor and trainee seats (DESIGN 5.2)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.core.pool import (
    InvalidCaps,
    SeatRecord,
    count_load,
    iso_week,
    load_against_caps,
    local_day,
    seat_fits_caps,
    validate_caps,
)

LA = "America/Los_Angeles"


def utc(*args: int) -> datetime:
    """A UTC datetime."""
    return datetime(*args, tzinfo=UTC)


def test_local_day_is_the_interviewers_calendar_day():
    """02:00Z on 9 December is still 8 December in Los Angeles."""
    assert local_day(utc(2026, 12, 9, 2), LA) == date(2026, 12, 8)
    assert local_day(utc(2026, 12, 9, 2), "Europe/Berlin") == date(2026, 12, 9)


def test_iso_week_uses_local_day_and_iso_year():
    """Monday 4 Jan 2027 03:00Z is Sunday in Los Angeles, so ISO week 53 of 2026."""
    assert iso_week(utc(2027, 1, 4, 3), LA) == (2026, 53)
    assert iso_week(utc(2027, 1, 4, 3), "UTC") == (2027, 1)


def test_caps_count_trainees_but_fairness_does_not():
    """Trainee seats fill the caps; only assessor seats count as fairness load."""
    seats = [
        SeatRecord(utc(2026, 12, 8, 17), "assessor"),
        SeatRecord(utc(2026, 12, 8, 20), "trainee"),
        SeatRecord(utc(2026, 12, 9, 18), "assessor"),
    ]
    summary = count_load(seats, LA)
    assert summary.on_day(date(2026, 12, 8)) == 2
    assert summary.in_week((2026, 50)) == 3
    assert summary.fairness_load((2026, 50)) == 2
    assert summary.sum_of_squares() == 4  # the DESIGN 5.2 example: Ana's weekly load 2


def test_load_against_caps_reports_remaining_and_over():
    """CapStatus shows today's and this week's seats against the caps."""
    seats = [SeatRecord(utc(2026, 12, 8, 17)), SeatRecord(utc(2026, 12, 8, 19), "trainee")]
    status = load_against_caps(seats, LA, max_per_day=2, max_per_week=5, at=utc(2026, 12, 8, 23))
    assert (status.today, status.this_week, status.remaining_today, status.remaining_week) == (2, 2, 0, 3)
    assert status.full
    assert not status.over
    lowered = load_against_caps(seats, LA, max_per_day=1, max_per_week=5, at=utc(2026, 12, 8, 23))
    assert lowered.over
    assert lowered.remaining_today == 0


def test_cap_day_is_local_not_utc():
    """A seat at 01:00Z belongs to the previous local day in Los Angeles."""
    seats = [SeatRecord(utc(2026, 12, 9, 1))]
    status = load_against_caps(seats, LA, 2, 5, at=utc(2026, 12, 8, 18))
    assert status.today == 1


@pytest.mark.parametrize(
    ("day", "week", "message"),
    [
        (-1, 5, "daily interview cap cannot be below zero"),
        (2, -3, "weekly interview cap cannot be below zero"),
        (2.5, 5, "whole number"),
        (True, 5, "whole number"),
        (2, "5", "whole number"),
        (6, 5, "daily cap \\(6\\) is larger than the weekly cap \\(5\\)"),
        (2**70, 2**71, "daily interview cap can be at most 24"),
        (3, 10**6, "weekly interview cap can be at most 120"),
    ],
)
def test_bad_caps_are_refused(day, week, message):
    """Caps must be whole numbers, not below zero, not absurdly large, and daily not above weekly."""
    with pytest.raises(InvalidCaps, match=message):
        validate_caps(day, week)


def test_zero_caps_are_allowed():
    """A cap of zero means no interviews (for example, on leave)."""
    assert validate_caps(0, 0) == (0, 0)


seat_times = st.datetimes(
    min_value=datetime(2026, 1, 1), max_value=datetime(2027, 12, 31), timezones=st.just(UTC)
)


@given(
    st.lists(st.tuples(seat_times, st.sampled_from(["assessor", "trainee"])), max_size=12),
    seat_times,
    st.sampled_from([LA, "Europe/Berlin", "Asia/Kolkata", "Pacific/Auckland"]),
)
def test_seat_fits_caps_agrees_with_cap_status(raw_seats, start, tz):
    """The scheduler's check and the pages' CapStatus never disagree about room for one more seat."""
    seats = [SeatRecord(at, role) for at, role in raw_seats]
    status = load_against_caps(seats, tz, 2, 5, at=start)
    assert seat_fits_caps(count_load(seats, tz), tz, start, 2, 5) == (not status.full)
