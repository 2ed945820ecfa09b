"""The interviewer's week view in local time, including daylight-saving weeks."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from planner.core.pool import BookedInterview, BusyInterval, parse_working_hours, week_view

NINE_TO_FIVE = parse_working_hours("09:00", "17:00")


def utc(*args: int) -> datetime:
    """A UTC datetime."""
    return datetime(*args, tzinfo=UTC)


def test_week_has_seven_local_days_with_working_window():
    """Monday to Sunday; weekdays carry the 09:00-17:00 window placed on a 07:00-21:00 range."""
    view = week_view("Europe/Berlin", date(2026, 12, 7), NINE_TO_FIVE, [], [])
    assert [column.day for column in view.days] == [date(2026, 12, d) for d in range(7, 14)]
    assert (view.range_start_hour, view.range_end_hour) == (7, 21)
    monday = view.days[0].working
    assert monday is not None
    assert monday.start_local.hour == 9
    assert monday.end_local.hour == 17
    assert (monday.top_pct, monday.height_pct) == (pytest.approx(14.286), pytest.approx(57.143))
    assert view.days[5].working is None
    assert view.days[6].working is None


def test_items_are_shown_in_local_time():
    """An interview at 17:00Z shows at 09:00 in Los Angeles, on the local day."""
    interview = BookedInterview(utc(2026, 12, 8, 17), utc(2026, 12, 8, 18), "Compiler design")
    view = week_view("America/Los_Angeles", date(2026, 12, 7), NINE_TO_FIVE, [], [interview])
    (block,) = view.days[1].interviews
    assert (block.start_local.hour, block.label, block.top_pct) == (
        9,
        "Compiler design",
        pytest.approx(14.286),
    )


def test_busy_block_across_midnight_is_split_between_days():
    """A 22:00-02:00 local block appears on both days, flagged as continuing."""
    busy = BusyInterval(utc(2026, 12, 8, 21), utc(2026, 12, 9, 1), "Release")  # Berlin is UTC+1
    view = week_view("Europe/Berlin", date(2026, 12, 7), NINE_TO_FIVE, [busy], [])
    (evening,) = view.days[1].busy
    (night,) = view.days[2].busy
    assert (evening.continues_before, evening.continues_after) == (False, True)
    assert (night.continues_before, night.continues_after) == (True, False)
    assert (view.range_start_hour, view.range_end_hour) == (0, 24)  # widened to show both pieces
    assert evening.top_pct + evening.height_pct == pytest.approx(100.0)
    assert night.top_pct == 0.0


def test_range_widens_only_as_far_as_needed():
    """A 06:30 busy block widens the range start to 06:00, not to midnight."""
    busy = BusyInterval(utc(2026, 12, 8, 5, 30), utc(2026, 12, 8, 6, 30), "Gym")
    view = week_view("Europe/Berlin", date(2026, 12, 7), NINE_TO_FIVE, [busy], [])
    assert (view.range_start_hour, view.range_end_hour) == (6, 21)


def test_dst_week_has_a_25_hour_day_and_keeps_wall_clock_positions():
    """In Berlin's autumn change week Sunday lasts 25 hours and 09:00 stays at the same height."""
    hours = parse_working_hours("09:00", "17:00", ["sat", "sun", "mon"])
    view = week_view("Europe/Berlin", date(2026, 10, 24), hours, [], [])
    assert [column.hours_in_day for column in view.days[:3]] == [24.0, 25.0, 24.0]
    saturday, sunday, monday = (view.days[i].working for i in range(3))
    assert saturday.top_pct == sunday.top_pct == monday.top_pct
    assert saturday.start_local.utcoffset() != monday.start_local.utcoffset()


def test_spring_forward_day_has_23_hours():
    """New York's 8 March 2026 is 23 hours long."""
    view = week_view("America/New_York", date(2026, 3, 2), None, [], [])
    assert view.days[6].hours_in_day == 23.0
    assert all(column.working is None for column in view.days)


def test_working_until_24_00_reaches_the_bottom():
    """Working hours ending at 24:00 fill the column to the end of the day."""
    hours = parse_working_hours("18:00", "24:00", ["mon"])
    view = week_view("Asia/Tokyo", date(2026, 12, 7), hours, [], [])
    monday = view.days[0].working
    assert view.range_end_hour == 24
    assert monday.top_pct + monday.height_pct == pytest.approx(100.0)
