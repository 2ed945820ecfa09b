"""Audit-trail cases of busy-time sources and later repairs: CalDAV calendars (set, sync, remove, key rotation),
an interviewer's own hours, a cancelled round booked again, and an unsent invite withdrawn.

Importing this module adds its runs to ``auditcases.CASES`` (see ``tests/auditcases.py``).
"""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from pathlib import Path

from auditcases import Ctx, _interviewer_in, case
from caldavutil import KEY, vcalendar, vevent
from caldavutil import SETTINGS as CALDAV
from loopworld import NOW, SETTINGS
from radicaleutil import PASSWORD, USER, running_radicale

from planner.services import changes, rebook
from planner.services.calendars import (
    CalendarInput,
    CalendarSettings,
    generate_key,
    remove_calendar,
    rotate_calendar_secrets,
    set_calendar,
    sync_all,
    sync_calendar,
)
from planner.services.outbox_withdraw import withdraw_unsent
from planner.services.pool.self_service import update_own_hours


def _connect(c: Ctx, url: str = "https://cal.example/dav/cleo/", password: str = "app-password") -> None:
    set_calendar(c.db, c.person.id, CalendarInput(url=url, username=USER, password=password), settings=CALDAV,
                 actor_id=c.actor)


@contextmanager
def _calendar_with_an_event():
    """A Radicale on loopback with one event in a new calendar: yields the calendar's address."""
    with tempfile.TemporaryDirectory() as folder, running_radicale(Path(folder)) as server:
        calendar = server.new_calendar()
        calendar.save_event(vcalendar(vevent("gym@test", "20300306T150000", "20300306T160000", "Gym", tzid=None)))
        yield str(calendar.url)


@case("calendars.set_calendar", "calendar.set")
def _set_calendar(c):
    _connect(c)
    return None, c.person.id


@case("calendars.remove_calendar", "calendar.remove")
def _remove_calendar(c):
    _connect(c)
    remove_calendar(c.db, c.person.id, actor_id=c.actor)
    return None, c.person.id


@case("calendars.rotate_calendar_secrets", "calendar.rotate_key")
def _rotate(c):
    _connect(c)
    rotate_calendar_secrets(c.db, settings=CalendarSettings(secret_keys=(generate_key(), KEY)), actor_id=c.actor)
    return None, None


@case("calendars.sync_calendar", "calendar.sync")
def _sync_one(c):
    with _calendar_with_an_event() as url:
        _connect(c, url, PASSWORD)
        report = sync_calendar(c.db, c.person.id, now=NOW, settings=CALDAV, actor_id=c.actor)
    assert report.ok and report.blocks == 1, report.message
    return None, c.person.id


@case("calendars.sync_all", "calendar.sync")
def _sync_everyone(c):
    with _calendar_with_an_event() as url:
        _connect(c, url, PASSWORD)
        (report,) = sync_all(c.db, now=NOW, settings=CALDAV, actor_id=c.actor)
    assert report.ok and report.blocks == 1, report.message
    return None, c.person.id


@case("pool.update_own_hours", "interviewer.update")
def _own_hours(c):
    person = c.person
    update_own_hours(c.db, person.id, timezone="America/Chicago", work_start="08:00", work_end="16:00",
                     work_days=["mon", "tue", "wed"], actor_id=c.actor)
    return None, person.id


@case("rebook.rebook_round", "interview_rebooked")
def _rebook(c):
    changes.cancel_interview(c.db, c.mentor.id, "panel ill", actor_id=c.actor, now=NOW, settings=SETTINGS)
    proposal = rebook.rebook_options(c.db, c.mentor.id, now=NOW)
    assert proposal.options, proposal.why_none
    option = proposal.options[0]
    rebook.rebook_round(c.db, c.mentor.id, start=option.start, interviewers=option.interviewers,
                        trainees=option.trainees, reason="panel is back", actor_id=c.actor, now=NOW,
                        settings=SETTINGS)
    return c.loop.id, None


@case("outbox_withdraw.withdraw_unsent", "outbox_withdrawn")
def _withdraw(c):
    person = _interviewer_in(c.mentor)
    withdrawal = withdraw_unsent(c.db, c.mentor.id, person.email, actor_id=c.actor, interviewer_id=person.id,
                                 loop_id=c.loop.id)
    assert withdrawal.dropped and not withdrawal.told
    return c.loop.id, person.id
