"""Local times in email bodies: every recipient sees the right time in their own zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from planner.core.calendar import (
    CalendarInputError,
    candidate_text,
    interviewer_html,
    interviewer_text,
    local_time_range,
    utc_time_range,
)
from planner.core.calendar.events import Person
from tests.core.calendar.ics_scenario import (
    ACROSS_DST,
    ALICE,
    ANA,
    BEN,
    CANDIDATE,
    INVITED,
    MEI,
    ORGANIZER,
    RAJ,
)


@pytest.mark.parametrize(
    ("person", "expected"),
    [
        # 2027-03-30 16:00-17:00 UTC; the US is already on DST (since 14 March), Europe not yet
        # until 28 March, so Berlin is UTC+2 on the 30th.
        (ALICE, "Tue 30 Mar 2027, 18:00–19:00 Europe/Berlin (UTC+02:00)"),
        (ANA, "Tue 30 Mar 2027, 09:00–10:00 America/Los_Angeles (UTC-07:00)"),
        (RAJ, "Tue 30 Mar 2027, 21:30–22:30 Asia/Kolkata (UTC+05:30)"),
        (BEN, "Tue 30 Mar 2027, 12:00–13:00 America/New_York (UTC-04:00)"),
        # Sydney leaves DST on 4 April 2027, so still UTC+11, and it is already the next day.
        (MEI, "Wed 31 Mar 2027, 03:00–04:00 Australia/Sydney (UTC+11:00)"),
        (CANDIDATE, "Tue 30 Mar 2027, 13:00–14:00 America/Sao_Paulo (UTC-03:00)"),
    ],
)
def test_each_zone_sees_its_own_local_time(person, expected):
    """The same interview reads correctly in Berlin, Los Angeles, Kolkata, New York, Sydney and Sao Paulo."""
    assert local_time_range(INVITED.start_utc, INVITED.end_utc, person.timezone) == expected


def test_interview_across_a_daylight_saving_change_shows_both_offsets():
    """An interview at the March clock change shows 01:30 CET to 03:30 CEST and says the clocks change."""
    text = local_time_range(ACROSS_DST.start_utc, ACROSS_DST.end_utc, "Europe/Berlin")
    assert text == (
        "Sun 28 Mar 2027, 01:30–03:30 Europe/Berlin "
        "(UTC+01:00 → UTC+02:00: the clocks change during this interview)"
    )


def test_autumn_change_repeats_the_hour():
    """At the October change a one-hour interview starts and ends at the same wall-clock hour."""
    start, end = datetime(2027, 10, 31, 0, 30, tzinfo=UTC), datetime(2027, 10, 31, 1, 30, tzinfo=UTC)
    assert local_time_range(start, end, "Europe/Berlin") == (
        "Sun 31 Oct 2027, 02:30–02:30 Europe/Berlin "
        "(UTC+02:00 → UTC+01:00: the clocks change during this interview)"
    )


def test_interview_across_local_midnight_names_both_days():
    """An interview that crosses midnight locally shows both dates."""
    start, end = datetime(2027, 3, 30, 14, 30, tzinfo=UTC), datetime(2027, 3, 30, 15, 30, tzinfo=UTC)
    assert local_time_range(start, end, "Pacific/Auckland") == (
        "Wed 31 Mar 2027, 03:30–04:30 Pacific/Auckland (UTC+13:00)"
    )
    assert local_time_range(start, end, "Asia/Tokyo") == (
        "Tue 30 Mar 2027 23:30 – Wed 31 Mar 2027 00:30 Asia/Tokyo (UTC+09:00)"
    )


def test_utc_range_is_shown_too():
    """The UTC time is given beside the local one, for people whose zone setting is wrong."""
    assert utc_time_range(INVITED.start_utc, INVITED.end_utc) == "Tue 30 Mar 2027, 16:00–17:00 UTC"


@pytest.mark.parametrize("person", [ALICE, ANA, RAJ])
def test_text_and_html_bodies_use_the_recipients_zone(person):
    """Each panel member's plain and HTML body shows the time in that member's zone."""
    local = local_time_range(INVITED.start_utc, INVITED.end_utc, person.timezone)
    assert f"When (your time): {local}" in interviewer_text(INVITED, person, "invite", ORGANIZER)
    assert local in interviewer_html(INVITED, person, "invite", ORGANIZER)


def test_candidate_body_uses_the_candidates_zone():
    """The candidate, in a fourth zone, reads the time in Sao Paulo time."""
    body = candidate_text(INVITED, CANDIDATE, "invite", ORGANIZER)
    assert "When (your time): Tue 30 Mar 2027, 13:00–14:00 America/Sao_Paulo (UTC-03:00)" in body
    assert "When (UTC): Tue 30 Mar 2027, 16:00–17:00 UTC" in body


def test_unknown_time_zone_is_refused():
    """A person with a zone the tz database does not know is refused when built."""
    with pytest.raises(CalendarInputError, match="tz database"):
        Person("x@example.com", "X", "Mars/Olympus_Mons")
    with pytest.raises(CalendarInputError, match="tz database"):
        local_time_range(INVITED.start_utc, INVITED.end_utc, "../etc/passwd")
