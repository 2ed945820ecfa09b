"""Working hours, time zone validation and working intervals in UTC."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from planner.core.pool import (
    InvalidWorkingHours,
    UnknownTimeZone,
    WorkingHours,
    parse_working_hours,
    validate_timezone,
    working_intervals_utc,
)


def test_parse_working_hours_reads_times_and_days():
    """Times "09:00"-"17:00" on named days becomes minutes and weekday numbers."""
    hours = parse_working_hours("09:00", "17:00", ["mon", "Wed", "friday"])
    assert (hours.start_minute, hours.end_minute, hours.days) == (540, 1020, frozenset({0, 2, 4}))
    assert (hours.start, hours.end, hours.day_names) == ("09:00", "17:00", ["mon", "wed", "fri"])


def test_days_default_to_monday_to_friday():
    """No days given means Monday to Friday, as in the scheduler contract."""
    assert parse_working_hours("8:30", "16:00").days == frozenset(range(5))


def test_end_of_day_24_00_is_allowed():
    """24:00 is a valid end and reads back as 24:00."""
    assert parse_working_hours("18:00", "24:00", ["sat"]).end == "24:00"


@pytest.mark.parametrize(
    ("start", "end", "days", "message"),
    [
        ("17:00", "09:00", ["mon"], "must be after they start"),
        ("09:00", "09:00", ["mon"], "must be after they start"),
        ("22:00", "02:00", ["mon"], "overnight"),
        ("24:00", "24:00", ["mon"], "not a time of day"),
        ("9am", "17:00", ["mon"], "HH:MM"),
        ("09:00", "25:00", ["mon"], "hours go from 00 to 23"),
        ("09:00", "17:60", ["mon"], "minutes to 59"),
        ("09:00", "17:00", ["funday"], "'funday' is not a day"),
        ("09:00", "17:00", [], "at least one"),
    ],
)
def test_bad_working_hours_are_refused(start, end, days, message):
    """Unreadable or impossible working hours raise one clear sentence."""
    with pytest.raises(InvalidWorkingHours, match=message):
        parse_working_hours(start, end, days)


def test_single_day_string_is_not_split_into_letters():
    """Passing "sat" instead of ["sat"] still means Saturday."""
    assert parse_working_hours("10:00", "14:00", "sat").days == frozenset({5})


@pytest.mark.parametrize(
    "name", ["", "Pacific Standard Time", "America", "../etc/passwd", "Mars/Olympus", " UTC"]
)
def test_unknown_time_zones_are_refused(name):
    """Anything that is not an IANA key is refused with UnknownTimeZone."""
    with pytest.raises(UnknownTimeZone):
        validate_timezone(name)


def test_known_time_zone_is_returned():
    """A valid IANA name gives its ZoneInfo."""
    assert str(validate_timezone("Asia/Kolkata")) == "Asia/Kolkata"


def test_working_intervals_follow_local_clock_across_dst():
    """09:00-17:00 Los Angeles is 16:00Z before 1 November 2026 and 17:00Z after it."""
    hours = parse_working_hours("09:00", "17:00", ["fri", "sat", "sun", "mon"])
    intervals = working_intervals_utc(hours, "America/Los_Angeles", date(2026, 10, 30))
    assert [start for start, _ in intervals] == [
        datetime(2026, 10, 30, 16, tzinfo=UTC),
        datetime(2026, 10, 31, 16, tzinfo=UTC),
        datetime(2026, 11, 1, 17, tzinfo=UTC),
        datetime(2026, 11, 2, 17, tzinfo=UTC),
    ]
    assert all((end - start).total_seconds() == 8 * 3600 for start, end in intervals)


def test_working_until_24_00_ends_at_next_local_midnight():
    """An end of 24:00 is the next local midnight in UTC."""
    hours = WorkingHours(20 * 60, 24 * 60, frozenset({0}))
    assert working_intervals_utc(hours, "Europe/Berlin", date(2026, 12, 7)) == [
        (datetime(2026, 12, 7, 19, tzinfo=UTC), datetime(2026, 12, 7, 23, tzinfo=UTC))
    ]
