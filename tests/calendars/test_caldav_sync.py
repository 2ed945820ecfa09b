"""Busy time from a real Radicale: recurrences, cancellations, transparency, all-day events, incremental sync."""

from __future__ import annotations

from datetime import UTC, datetime

from caldavutil import SETTINGS, blocks, connect, counts, vcalendar, vevent
from poolutil import interviewer
from radicaleutil import PASSWORD
from sqlalchemy import select

from planner.models import AuditEntry, CalendarSource
from planner.services import pool
from planner.services.calendars import sync_calendar

NOW = datetime(2027, 3, 20, 12, 0, tzinfo=UTC)  # a Saturday, a week before the UK clocks go forward


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


WEEKLY = vcalendar(
    vevent("weekly@test", "20270302T100000", "20270302T110000", "Architecture review", "RRULE:FREQ=WEEKLY;COUNT=10"),
    # The occurrence in the week the clocks change is cancelled (an override, as Google and Apple write it).
    vevent("weekly@test", "20270330T100000", "20270330T110000", "Architecture review",
           "RECURRENCE-ID;TZID=Europe/London:20270330T100000", "STATUS:CANCELLED"),
)
STANDUP = vcalendar(vevent("standup@test", "20270322T090000", "20270322T091500", "Standup",
                           "RRULE:FREQ=DAILY;COUNT=3", "EXDATE;TZID=Europe/London:20270323T090000"))
FREE = vcalendar(vevent("focus@test", "20270324T140000", "20270324T150000", "Focus time", "TRANSP:TRANSPARENT"))
CANCELLED = vcalendar(vevent("lunch@test", "20270325T120000", "20270325T130000", "Lunch", "STATUS:CANCELLED"))
DAY_OFF = vcalendar(vevent("off@test", "20270326", "20270327", "Day off"))


def test_sync_expands_recurrences_and_skips_free_and_cancelled(db, radicale):
    """A weekly meeting keeps its London time across the DST change (so its UTC time moves), its cancelled
    occurrence and an EXDATE leave no block, transparent and cancelled events make none, and an all-day
    event blocks the person's local day."""
    calendar = radicale.new_calendar()
    for ics in (WEEKLY, STANDUP, FREE, CANCELLED, DAY_OFF):
        calendar.save_event(ics)
    person = interviewer(db, "Ana Ruiz", "Europe/London")
    source = connect(db, person.id, str(calendar.url), password=PASSWORD)

    report = sync_calendar(db, person.id, now=NOW, settings=SETTINGS)

    assert report.ok and report.replaced, report.message
    spans = [(b.start, b.end, b.summary) for b in blocks(db, person.id, source.busy_source)]
    review = [(s, e) for s, e, summary in spans if summary == "Architecture review"]
    assert review == [
        (utc(2027, 3, 23, 10), utc(2027, 3, 23, 11)),  # GMT
        (utc(2027, 4, 6, 9), utc(2027, 4, 6, 10)),  # BST: same 10:00 in London, an hour earlier in UTC
        (utc(2027, 4, 13, 9), utc(2027, 4, 13, 10)),
        (utc(2027, 4, 20, 9), utc(2027, 4, 20, 10)),
        (utc(2027, 4, 27, 9), utc(2027, 4, 27, 10)),
        (utc(2027, 5, 4, 9), utc(2027, 5, 4, 10)),
    ]
    assert [(s, e) for s, e, summary in spans if summary == "Standup"] == [
        (utc(2027, 3, 22, 9), utc(2027, 3, 22, 9, 15)), (utc(2027, 3, 24, 9), utc(2027, 3, 24, 9, 15))]
    assert (utc(2027, 3, 26), utc(2027, 3, 27), "Day off") in spans
    assert not {"Focus time", "Lunch"} & {summary for _s, _e, summary in spans}
    assert report.blocks == len(spans) == 9
    row = db.get(CalendarSource, source.id)
    assert row.last_success_at == NOW and row.last_block_count == 9 and row.last_error == ""
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "calendar.sync"))
    assert entry.interviewer_id == person.id and entry.loop_id is None and entry.details["blocks"] == 9


def test_all_day_event_is_the_persons_local_day(db, radicale):
    """An all-day event blocks midnight to midnight where the person lives (Los Angeles here), not in UTC."""
    calendar = radicale.new_calendar()
    calendar.save_event(DAY_OFF)
    person = interviewer(db, "Ben Ode", "America/Los_Angeles")
    source = connect(db, person.id, str(calendar.url), password=PASSWORD)

    assert sync_calendar(db, person.id, now=NOW, settings=SETTINGS).ok
    assert [(b.start, b.end) for b in blocks(db, person.id, source.busy_source)] == [
        (utc(2027, 3, 26, 7), utc(2027, 3, 27, 7))]  # PDT is UTC-7


def test_second_sync_with_nothing_changed_rewrites_nothing(db, radicale):
    """An unchanged calendar is recognised by its sync-token: nothing is downloaded, no block is rewritten
    (same row ids), no audit entry; a changed event on the server is then picked up."""
    calendar = radicale.new_calendar()
    calendar.save_event(WEEKLY)
    standup = calendar.save_event(STANDUP)
    person = interviewer(db, "Ana Ruiz", "Europe/London")
    source = connect(db, person.id, str(calendar.url), password=PASSWORD)
    assert sync_calendar(db, person.id, now=NOW, settings=SETTINGS).replaced
    first_ids = [b.id for b in blocks(db, person.id)]
    audits = counts(db)[2]

    again = sync_calendar(db, person.id, now=NOW, settings=SETTINGS)

    assert again.ok and again.unchanged_on_server and not again.replaced and again.events == 0
    assert [b.id for b in blocks(db, person.id)] == first_ids
    assert counts(db)[2] == audits

    standup.data = STANDUP.replace("SUMMARY:Standup", "SUMMARY:Standup (moved)").replace(
        "T090000", "T093000").replace("T091500", "T094500")
    standup.save()
    changed = sync_calendar(db, person.id, now=NOW, settings=SETTINGS)

    assert changed.ok and changed.replaced and not changed.unchanged_on_server
    moved = [(b.start, b.end) for b in blocks(db, person.id, source.busy_source) if b.summary == "Standup (moved)"]
    assert moved == [(utc(2027, 3, 22, 9, 30), utc(2027, 3, 22, 9, 45)),
                     (utc(2027, 3, 24, 9, 30), utc(2027, 3, 24, 9, 45))]
    assert not [b for b in blocks(db, person.id) if b.summary == "Standup"]


def test_a_new_day_downloads_again_but_only_rewrites_when_blocks_differ(db, radicale):
    """The horizon moves with the date, so the next day's sync downloads again; the same blocks are not rewritten."""
    calendar = radicale.new_calendar()
    calendar.save_event(DAY_OFF)
    person = interviewer(db, "Ana Ruiz", "Europe/London")
    connect(db, person.id, str(calendar.url), password=PASSWORD)
    sync_calendar(db, person.id, now=NOW, settings=SETTINGS)
    ids = [b.id for b in blocks(db, person.id)]

    later = sync_calendar(db, person.id, now=datetime(2027, 3, 21, 12, tzinfo=UTC), settings=SETTINGS)

    assert later.ok and not later.unchanged_on_server and later.events == 1 and not later.replaced
    assert [b.id for b in blocks(db, person.id)] == ids


def test_other_sources_stay_untouched(db, radicale):
    """Manual and .ics-imported blocks survive syncs and the calendar's removal; removal takes its own blocks."""
    calendar = radicale.new_calendar()
    calendar.save_event(WEEKLY)
    person = interviewer(db, "Ana Ruiz", "Europe/London")
    pool.add_busy_block(db, person.id, datetime(2027, 3, 24, 15), datetime(2027, 3, 24, 16), "Dentist", actor_id=None)
    pool.import_busy_ics(db, person.id, DAY_OFF.encode(), "Holidays", now=NOW, actor_id=None)
    source = connect(db, person.id, str(calendar.url), password=PASSWORD)
    sync_calendar(db, person.id, now=NOW, settings=SETTINGS)
    assert {b.source for b in blocks(db, person.id)} == {"manual", "import:Holidays", source.busy_source}

    from planner.services.calendars import remove_calendar

    removed = remove_calendar(db, person.id, actor_id=None)

    assert removed == 6
    assert {b.source for b in blocks(db, person.id)} == {"manual", "import:Holidays"}
    assert db.scalar(select(CalendarSource)) is None
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "calendar.remove"))
    assert entry.interviewer_id == person.id and entry.details["removed_blocks"] == 6
