"""A feed without interviews: a valid calendar (one component, as RFC 5545 wants) that shows nothing.

Checked with every parser of the dev extras in its strict mode and stored by a real CalDAV server.
"""

from __future__ import annotations

import vobject
from ical.calendar_stream import IcsCalendarStream
from icalendar import Calendar

from planner.core.calendar import build_feed
from tests.core.calendar.ics_checker import run_ics_check
from tests.core.calendar.ics_scenario import ORGANIZER, T0, T1
from tests.core.calendar.radicale_server import caldav_put, radicale_url  # noqa: F401 (fixture)

NAME = "Interviews – Alice Doe"


def test_the_empty_feed_holds_one_journal_entry_and_no_event_or_task():
    """One VJOURNAL (cancelled, with UID, DTSTAMP, DTSTART, ORGANIZER as RFC 5546 PUBLISH asks), no VEVENT or
    VTODO; the same input gives the same bytes (a stable ETag), another feed another UID."""
    ics = build_feed([], ORGANIZER, NAME, T0)
    cal = Calendar.from_ical(ics)
    assert cal["METHOD"] == "PUBLISH" and str(cal["NAME"]) == NAME
    (journal,) = cal.subcomponents
    assert journal.name == "VJOURNAL"
    assert journal["STATUS"] == "CANCELLED"
    assert journal.DTSTAMP == T0 and journal.DTSTART == T0
    assert str(journal["ORGANIZER"]) == f"mailto:{ORGANIZER.email}"
    assert str(journal["UID"]).endswith("@hire.example.com")
    assert build_feed([], ORGANIZER, NAME, T0) == ics
    assert str(Calendar.from_ical(build_feed([], ORGANIZER, "Interviews – Raj", T1)).subcomponents[0]["UID"]) != str(
        journal["UID"])


def test_every_parser_accepts_the_empty_feed_and_finds_no_event():
    """icalendar (no recorded errors), ical (strict grammar) and vobject (validate=True) read it: no events."""
    ics = build_feed([], ORGANIZER, NAME, T0)
    cal = Calendar.from_ical(ics)
    assert [error for component in cal.walk() for error in component.errors] == []
    (strict,) = IcsCalendarStream.from_ics(ics.decode()).calendars
    assert (len(strict.events), len(strict.todos), len(strict.journal)) == (0, 0, 1)
    (validated,) = vobject.readComponents(ics.decode(), validate=True)
    assert "vevent" not in validated.contents and "vtodo" not in validated.contents
    assert len(validated.contents["vjournal"]) == 1


def test_the_checker_only_misses_a_vevent(tmp_path):
    """ics_check finds nothing wrong but its own rule that a calendar should hold a VEVENT (stricter than
    RFC 5545, which asks for any one component): no syntax, escaping, property or METHOD problem."""
    path = tmp_path / "empty-feed.ics"
    path.write_bytes(build_feed([], ORGANIZER, NAME, T0))
    result = run_ics_check(path)
    assert [line.split(": ", 1)[1] for line in result.problems] == ["no VEVENT in calendar"], result.output


def test_a_caldav_server_stores_the_empty_feed(radicale_url):  # noqa: F811 (fixture)
    """Radicale accepts the empty feed as one calendar object and gives back the journal entry."""
    stored = caldav_put(radicale_url, build_feed([], ORGANIZER, NAME, T0))
    assert stored.status == 201, stored.body
    assert b"BEGIN:VJOURNAL" in stored.stored and b"BEGIN:VEVENT" not in stored.stored
