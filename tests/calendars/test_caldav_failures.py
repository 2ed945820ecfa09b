"""A failing or misbehaving calendar server costs one message and changes no busy block."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from caldavutil import SETTINGS, blocks, connect, counts, vcalendar, vevent
from poolutil import interviewer
from radicaleutil import PASSWORD, free_port, garbage_server, silent_server
from sqlalchemy import update

from planner.models import CalendarSource
from planner.services.calendars import CalendarSettings, generate_key, sync_calendar

NOW = datetime(2027, 3, 20, 12, 0, tzinfo=UTC)
MEETING = vcalendar(vevent("m@test", "20270323T100000", "20270323T110000", "Design review",
                           "RRULE:FREQ=WEEKLY;COUNT=4"))

MULTISTATUS = """<?xml version="1.0" encoding="utf-8"?>
<multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
 <response><href>/cal/</href><propstat><prop>
  <resourcetype><collection/><C:calendar/></resourcetype><sync-token>t-{n}</sync-token>
 </prop><status>HTTP/1.1 200 OK</status></propstat></response>
 <response><href>/cal/x.ics</href><propstat><prop><getetag>"1"</getetag>
  <C:calendar-data>{data}</C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response>
</multistatus>"""


@pytest.fixture
def synced(db, radicale):
    """Ana with a successfully synced Radicale calendar (4 blocks)."""
    calendar = radicale.new_calendar()
    calendar.save_event(MEETING)
    person = interviewer(db, "Ana Ruiz", "Europe/London")
    source = connect(db, person.id, str(calendar.url), password=PASSWORD)
    assert sync_calendar(db, person.id, now=NOW, settings=SETTINGS).blocks == 4
    return person, source, str(calendar.url)


def _point_at(db, source, url: str) -> None:
    db.execute(update(CalendarSource).where(CalendarSource.id == source.id).values(url=url, state_token=None))
    db.commit()


def _fails_cleanly(db, person, source, settings=SETTINGS, *, expect: str) -> str:
    before_ids = [b.id for b in blocks(db, person.id)]
    before = counts(db)

    report = sync_calendar(db, person.id, now=datetime(2027, 3, 21, 9, tzinfo=UTC), settings=settings)

    assert not report.ok
    assert expect in report.message, report.message
    assert "\n" not in report.message and PASSWORD not in report.message and "Traceback" not in report.message
    assert counts(db) == before, "a failed sync changed rows"
    assert [b.id for b in blocks(db, person.id)] == before_ids and len(before_ids) == 4
    row = db.get(CalendarSource, source.id)
    db.refresh(row)
    assert row.last_error == report.message and row.last_failure_at == datetime(2027, 3, 21, 9, tzinfo=UTC)
    assert row.last_success_at == NOW and row.last_block_count == 4
    return report.message


def test_wrong_password(db, synced):
    """A refused login says so; the old blocks stay."""
    person, source, url = synced
    connect(db, person.id, url, password="not-the-password")
    _fails_cleanly(db, person, source, expect="refused the user name or password (HTTP 401)")


def test_server_down(db, synced):
    """Nothing listening on the port: 'cannot be reached'."""
    person, source, _url = synced
    _point_at(db, source, f"http://127.0.0.1:{free_port()}/ana/work/")
    _fails_cleanly(db, person, source, expect="cannot be reached")


def test_timeout(db, synced):
    """A server that accepts and never answers is given up after the configured timeout."""
    person, source, _url = synced
    with silent_server() as url:
        _point_at(db, source, url)
        started = datetime.now(UTC)
        _fails_cleanly(db, person, source, replace(SETTINGS, timeout=0.5), expect="did not answer within 0.5 seconds")
    assert (datetime.now(UTC) - started).total_seconds() < 8


def test_missing_calendar_is_404(db, synced, radicale):
    """An address with no collection behind it."""
    person, source, _url = synced
    _point_at(db, source, radicale.url + "ana/no-such-calendar/")
    _fails_cleanly(db, person, source, expect="no calendar at that address (HTTP 404)")


def test_address_of_a_non_calendar(db, synced, radicale):
    """The account's home collection is not a calendar."""
    person, source, _url = synced
    _point_at(db, source, radicale.url + "ana/")
    _fails_cleanly(db, person, source, expect="not a calendar")


def test_garbage_xml(db, synced):
    """A server answering with bytes that are not XML."""
    person, source, _url = synced
    with garbage_server(b"\x00\x01 this is not <xml") as url:
        _point_at(db, source, url)
        _fails_cleanly(db, person, source, expect="could not be read as CalDAV")


@pytest.mark.parametrize(("data", "says"), [
    ("BEGIN:VCALENDAR\nthis is: not\nEND:VCALENDAR", "holds no event"),
    ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nSUMMARY:Broken\nDTSTART:tomorrow\nEND:VEVENT\nEND:VCALENDAR",
     "'Broken' is malformed"),
    ("total garbage", "holds no event"),
    ("BEGIN:VEVENT\\nno calendar around it", "holds no VCALENDAR"),
])
def test_garbage_calendar_data(db, synced, data, says):
    """Well-formed CalDAV whose calendar data is not a readable event: one sentence naming the problem."""
    person, source, _url = synced
    with garbage_server(MULTISTATUS.format(n=1, data=data).encode()) as url:
        _point_at(db, source, url)
        _fails_cleanly(db, person, source, expect="An event in the calendar cannot be read")
        _fails_cleanly(db, person, source, expect=says)


def test_key_missing_or_changed(db, synced):
    """Without the key, or with another key, the saved password cannot be read: one message, nothing changes."""
    person, source, _url = synced
    _fails_cleanly(db, person, source, CalendarSettings(), expect="no calendar secret key is configured")
    _fails_cleanly(db, person, source, replace(SETTINGS, secret_keys=(generate_key(),)),
                   expect="cannot be decrypted")
