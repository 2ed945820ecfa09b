"""Busy-time import from realistic Google, Outlook and Apple Calendar exports."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from planner.core.errors import PlannerError
from planner.core.pool import (
    MAX_UPLOAD_BYTES,
    BusyInterval,
    CalendarImportError,
    UnknownCalendarTimeZone,
    UnknownTimeZone,
    parse_busy_ics,
)

FIXTURES = Path(__file__).parent / "fixtures"
AUTUMN = (datetime(2026, 10, 5, tzinfo=UTC), datetime(2026, 11, 30, tzinfo=UTC))


def z(text: str) -> datetime:
    """A UTC instant from "MM-DD HH:MM" in 2026."""
    return datetime.strptime(f"2026-{text}", "%Y-%m-%d %H:%M").replace(tzinfo=UTC)


def load(name: str, tz: str, horizon: tuple[datetime, datetime] = AUTUMN) -> list[BusyInterval]:
    """Parse a fixture file over a horizon."""
    data = (FIXTURES / name).read_bytes()
    return parse_busy_ics(data, default_tz=tz, horizon_start=horizon[0], horizon_end=horizon[1])


def spans(busy: list[BusyInterval]) -> list[tuple[datetime, datetime, str]]:
    """Intervals as comparable tuples."""
    return [(b.start_utc, b.end_utc, b.summary) for b in busy]


def calendar(body: str, header: str = "") -> bytes:
    """A minimal calendar around VEVENT lines, with CRLF line ends like real exports."""
    text = f"BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//test//EN\n{header}{body}END:VCALENDAR\n"
    return text.replace("\n", "\r\n").encode()


def test_google_export_expands_to_exact_busy_list():
    """Google: weekly event with EXDATE, a moved and a cancelled instance, X-WR-TIMEZONE, all-day events."""
    assert spans(load("google.ics", "America/Los_Angeles")) == [
        (z("10-06 17:00"), z("10-06 17:30"), "Team sync"),
        (z("10-08 16:00"), z("10-08 16:30"), "1:1 with Sam"),
        (z("10-13 17:00"), z("10-13 17:30"), "Team sync"),
        (z("10-14 20:00"), z("10-14 21:00"), "Dentist"),
        (z("10-15 16:00"), z("10-15 16:30"), "1:1 with Sam"),
        (z("10-22 16:00"), z("10-22 16:30"), "1:1 with Sam"),
        (z("10-28 21:00"), z("10-28 21:30"), "Team sync (moved)"),
        (z("10-29 16:00"), z("10-29 16:30"), "1:1 with Sam"),
        (z("11-03 18:00"), z("11-03 18:30"), "Team sync"),
        (z("11-05 17:00"), z("11-05 17:30"), "1:1 with Sam"),
        (z("11-06 08:00"), z("11-07 08:00"), "Team offsite"),
        (z("11-12 17:00"), z("11-12 17:30"), "1:1 with Sam"),
        (z("11-17 18:00"), z("11-17 18:30"), "Team sync"),
        (z("11-24 18:00"), z("11-24 18:30"), "Team sync"),
    ]


def test_google_weekly_meeting_keeps_local_time_across_dst():
    """10:00 Los Angeles is 17:00Z before the November change and 18:00Z after it."""
    starts = [b.start_utc for b in load("google.ics", "America/Los_Angeles") if b.summary == "Team sync"]
    assert starts[:2] == [z("10-06 17:00"), z("10-13 17:00")]
    assert starts[2:] == [z("11-03 18:00"), z("11-17 18:00"), z("11-24 18:00")]


def test_google_skips_excluded_cancelled_transparent_events():
    """EXDATE, a STATUS:CANCELLED override, TRANSP:TRANSPARENT events and all-day birthdays are free."""
    busy = load("google.ics", "America/Los_Angeles")
    assert not any(b.overlaps(z("10-20 17:00"), z("10-20 17:30")) for b in busy)  # EXDATE
    assert not any(b.overlaps(z("11-10 18:00"), z("11-10 18:30")) for b in busy)  # cancelled override
    assert not any(b.overlaps(z("10-27 17:00"), z("10-27 17:30")) for b in busy)  # moved away
    assert "Focus time" not in {b.summary for b in busy}
    assert not any(b.overlaps(z("10-30 07:00"), z("10-31 07:00")) for b in busy)  # transparent all-day


def test_outlook_export_with_windows_zone_names():
    """Outlook: "Pacific Standard Time" VTIMEZONE, a BOM, a moved and an excluded instance, OOF all-day."""
    assert spans(load("outlook.ics", "America/Los_Angeles")) == [
        (z("10-19 16:00"), z("10-19 17:00"), "Compiler design review"),
        (z("10-21 16:00"), z("10-21 17:00"), "Sync with Dresden team"),
        (z("10-26 18:00"), z("10-26 19:00"), "Compiler design review"),
        (z("11-09 17:00"), z("11-09 18:00"), "Compiler design review"),
        (z("11-13 08:00"), z("11-14 08:00"), "Vacation"),
        (z("11-16 17:00"), z("11-16 18:00"), "Compiler design review"),
        (z("11-23 17:00"), z("11-23 18:00"), "Compiler design review"),
    ]


def test_outlook_free_lunch_is_not_busy():
    """An event Outlook shows as Free (TRANSP:TRANSPARENT, BUSYSTATUS:FREE) blocks nothing."""
    busy = load("outlook.ics", "America/Los_Angeles")
    assert not any(b.overlaps(z("10-22 19:00"), z("10-22 20:00")) for b in busy)


def test_apple_export_with_rdate_exdate_override_and_floating_time():
    """Apple: RDATE adds a Friday, EXDATE drops a Wednesday, an override moves one, all-day merges."""
    assert spans(load("apple.ics", "Europe/Berlin")) == [
        (z("10-19 07:30"), z("10-19 07:45"), "Standup"),
        (z("10-22 13:00"), z("10-22 14:00"), "Gym"),
        (z("10-26 08:30"), z("10-26 08:45"), "Standup"),
        (z("10-28 09:00"), z("10-28 09:15"), "Standup"),
        (z("10-30 08:30"), z("10-30 08:45"), "Standup"),
        (z("11-02 08:30"), z("11-02 08:45"), "Standup"),
        (z("11-03 23:00"), z("11-05 23:00"), "LLVM Dev Meeting; Standup"),
        (z("11-09 08:30"), z("11-09 08:45"), "Standup"),
        (z("11-11 08:30"), z("11-11 08:45"), "Standup"),
    ]


def test_dst_week_spring_forward():
    """08:00 New York is 13:00Z before 8 March and 12:00Z after; a night event across 02:00 lasts 1 hour."""
    busy = load("dst_week.ics", "America/New_York", (z("03-01 00:00"), z("03-15 00:00")))
    school = [b.start_utc for b in busy if b.summary == "School run"]
    assert school == [z("03-05 13:00"), z("03-06 13:00"), z("03-07 13:00")] + [
        z(f"03-{d:02d} 12:00") for d in range(8, 12)
    ]
    handover = next(b for b in busy if b.summary == "On-call handover")
    assert (handover.start_utc, handover.end_utc) == (z("03-08 06:30"), z("03-08 07:30"))


@pytest.mark.parametrize(
    ("tz", "expected"), [("Europe/Berlin", "10-10 08:00"), ("Asia/Tokyo", "10-10 01:00")]
)
def test_floating_time_is_read_in_default_zone(tz, expected):
    """Without X-WR-TIMEZONE, a floating 10:00 is 10:00 in the interviewer's zone."""
    data = calendar(
        "BEGIN:VEVENT\nUID:f\nSUMMARY:Float\nDTSTART:20261010T100000\nDTEND:20261010T110000\nEND:VEVENT\n"
    )
    busy = parse_busy_ics(data, default_tz=tz, horizon_start=AUTUMN[0], horizon_end=AUTUMN[1])
    assert [b.start_utc for b in busy] == [z(expected)]


def test_all_day_event_without_transp_is_busy_midnight_to_midnight():
    """An all-day event is opaque by default (RFC 5545) and spans the local day in the default zone."""
    data = calendar("BEGIN:VEVENT\nUID:a\nSUMMARY:Off\nDTSTART;VALUE=DATE:20261012\nEND:VEVENT\n")
    busy = parse_busy_ics(data, default_tz="Asia/Kolkata", horizon_start=AUTUMN[0], horizon_end=AUTUMN[1])
    assert spans(busy) == [(z("10-11 18:30"), z("10-12 18:30"), "Off")]


def test_results_are_clipped_to_the_horizon():
    """A block straddling the horizon edge is cut at the edge; events outside are dropped."""
    data = calendar(
        "BEGIN:VEVENT\nUID:e\nSUMMARY:Edge\nDTSTART:20261004T230000Z\nDTEND:20261005T010000Z\nEND:VEVENT\n"
        "BEGIN:VEVENT\nUID:o\nSUMMARY:Out\nDTSTART:20261201T100000Z\nDTEND:20261201T110000Z\nEND:VEVENT\n"
    )
    busy = parse_busy_ics(data, default_tz="UTC", horizon_start=AUTUMN[0], horizon_end=AUTUMN[1])
    assert spans(busy) == [(z("10-05 00:00"), z("10-05 01:00"), "Edge")]


def test_overlapping_events_are_merged():
    """Two overlapping meetings become one busy block carrying both titles."""
    data = calendar(
        "BEGIN:VEVENT\nUID:1\nSUMMARY:A\nDTSTART:20261006T100000Z\nDTEND:20261006T110000Z\nEND:VEVENT\n"
        "BEGIN:VEVENT\nUID:2\nSUMMARY:B\nDTSTART:20261006T103000Z\nDTEND:20261006T120000Z\nEND:VEVENT\n"
    )
    busy = parse_busy_ics(data, default_tz="UTC", horizon_start=AUTUMN[0], horizon_end=AUTUMN[1])
    assert spans(busy) == [(z("10-06 10:00"), z("10-06 12:00"), "A; B")]


def test_windows_zone_name_without_vtimezone_is_mapped():
    """A Windows zone name with no VTIMEZONE resolves through the CLDR mapping."""
    data = calendar(
        "BEGIN:VEVENT\nUID:w\nSUMMARY:W\nDTSTART;TZID=Eastern Standard Time:20261010T100000\n"
        "DTEND;TZID=Eastern Standard Time:20261010T110000\nEND:VEVENT\n"
    )
    busy = parse_busy_ics(data, default_tz="UTC", horizon_start=AUTUMN[0], horizon_end=AUTUMN[1])
    assert [b.start_utc for b in busy] == [z("10-10 14:00")]


def event(lines: str) -> bytes:
    """A calendar with one event made of the given lines."""
    return calendar(f"BEGIN:VEVENT\nUID:x\nSUMMARY:Review\n{lines}END:VEVENT\n")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        ("BEGIN:VCALENDAR\r\nSUMMARY:caf\xe9\r\nEND:VCALENDAR\r\n".encode("latin-1"), "not UTF-8"),
        (
            b"Subject,Start Date,Start Time\r\nReview,10/10/2026,10:00 AM\r\n",
            "should start with BEGIN:VCALENDAR",
        ),
        (b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana Ruiz\r\nEND:VCARD\r\n", "no VCALENDAR"),
        (b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20261010T100000Z\r\n", "cut short"),
        (b"BEGIN:VCALENDAR\r\nthis is not a content line\r\nEND:VCALENDAR\r\n", "malformed"),
        (event("DTSTART:2026-10-10 10:00\n"), "DTSTART of the event 'Review' is malformed"),
        (
            event("DTSTART:20261010T100000Z\nRRULE:FREQ=SOMETIMES\n"),
            "RRULE of the event 'Review' is malformed",
        ),
        (event("DTEND:20261010T100000Z\n"), "has no start"),
        (event("DTSTART:20261010T100000Z\nDTEND:20261010T090000Z\n"), "ends before it starts"),
        (event("DTSTART:20261010T100000Z\nDURATION:-PT1H\n"), "negative duration"),
        (event("DTSTART;VALUE=DATE:20261010\nDTEND:20261011T100000Z\n"), "mixes an all-day date"),
    ],
)
def test_unreadable_uploads_get_one_clear_sentence(data, message):
    """Each kind of bad upload raises CalendarImportError naming the problem."""
    with pytest.raises(CalendarImportError, match=message):
        parse_busy_ics(data, default_tz="UTC", horizon_start=AUTUMN[0], horizon_end=AUTUMN[1])


def test_unknown_event_time_zone_is_reported():
    """A TZID the file does not define and no database knows is an error, not a floating time."""
    data = event(
        "DTSTART;TZID=Mars/Olympus_Mons:20261010T100000\nDTEND;TZID=Mars/Olympus_Mons:20261010T110000\n"
    )
    with pytest.raises(UnknownCalendarTimeZone, match="'Mars/Olympus_Mons'"):
        parse_busy_ics(data, default_tz="UTC", horizon_start=AUTUMN[0], horizon_end=AUTUMN[1])


def test_unknown_default_zone_is_reported():
    """The interviewer's own zone must be a real IANA zone."""
    with pytest.raises(UnknownTimeZone, match="Pacific Standard Time"):
        parse_busy_ics(
            (FIXTURES / "google.ics").read_bytes(),
            default_tz="Pacific Standard Time",
            horizon_start=AUTUMN[0],
            horizon_end=AUTUMN[1],
        )


def test_upload_over_size_limit_is_refused():
    """Files above the size limit are refused before parsing."""
    data = calendar("X-FILLER:" + "x" * MAX_UPLOAD_BYTES + "\n")
    with pytest.raises(CalendarImportError, match="limit is 5 MB"):
        parse_busy_ics(data, default_tz="UTC", horizon_start=AUTUMN[0], horizon_end=AUTUMN[1])


def test_runaway_recurrence_hits_instance_cap():
    """A once-a-minute rule stops at the instance cap instead of expanding for ever."""
    data = event("DTSTART:20261010T100000Z\nDURATION:PT1M\nRRULE:FREQ=MINUTELY\n")
    with pytest.raises(CalendarImportError, match="more than 5000 events"):
        parse_busy_ics(data, default_tz="UTC", horizon_start=AUTUMN[0], horizon_end=AUTUMN[1])


@pytest.mark.parametrize(
    ("start", "end", "message"),
    [
        (AUTUMN[1], AUTUMN[0], "must end after it starts"),
        (datetime(2026, 10, 5), AUTUMN[1], "no time zone"),
        (AUTUMN[0], AUTUMN[0] + timedelta(days=500), "limited to 400 days"),
    ],
)
def test_bad_horizon_is_refused(start, end, message):
    """The import period must be aware, ordered and bounded."""
    with pytest.raises(PlannerError, match=message):
        parse_busy_ics(
            (FIXTURES / "google.ics").read_bytes(), default_tz="UTC", horizon_start=start, horizon_end=end
        )
