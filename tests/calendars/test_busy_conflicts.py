"""Confirmed interviews that synced busy time now collides with: flagged, with replace / reschedule actions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from caldavutil import KEY, SETTINGS, connect, vcalendar, vevent
from loopworld import NOW as WORLD_NOW
from loopworld import SETTINGS as MAIL
from loopworld import World
from radicaleutil import PASSWORD
from sqlalchemy import event

from planner.models import Interviewer, InterviewStatus, LoopStatus, SeatStatus
from planner.queries.busy_conflicts import list_busy_conflicts
from planner.services import pool, scheduling
from planner.services.calendars import sync_calendar

REAL_NOW = datetime.now(UTC)


@pytest.fixture
def scheduled(db):
    """The loop world's default loop confirmed (Wednesday 6 March 2030); Eve and Finn can also take mentoring."""
    world = World(db)
    people = world.basic_pool()
    people["eve"] = world.person("Eve", "Europe/Berlin", {"mentoring": "qualified"}, team="platform",
                                 hours=("09:00", "23:00"), caps=(3, 4))
    people["finn"] = world.person("Finn", "Europe/Berlin", {"mentoring": "qualified"}, team="platform",
                                  hours=("09:00", "23:00"), caps=(3, 4))
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=WORLD_NOW)
    assert proposal.scheduled, proposal.reason
    created = scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=WORLD_NOW, settings=MAIL)
    return loop, {i.round_key: i for i in created}, people


def _holder(interview) -> Interviewer:
    return next(s.interviewer for s in interview.seats if s.role.value == "assessor"
                and s.status == SeatStatus.ACTIVE)


def _meeting_over(db, radicale, person, interview, summary="Dentist"):
    """Put a meeting over ``interview`` in ``person``'s Radicale calendar and sync it."""
    calendar = radicale.new_calendar()
    start = interview.start - timedelta(minutes=15)
    calendar.save_event(vcalendar(vevent(f"{person.id}@conflict", start.strftime("%Y%m%dT%H%M%SZ"),
                                         (start + timedelta(hours=1)).strftime("%Y%m%dT%H%M%SZ"), summary,
                                         tzid=None)))
    connect(db, person.id, str(calendar.url), password=PASSWORD)
    report = sync_calendar(db, person.id, now=WORLD_NOW, settings=SETTINGS)
    assert report.ok and report.blocks == 1, report.message


def test_sync_flags_the_interview_on_overview_and_loop_page(app, login, db, radicale, scheduled):
    """After a sync adds a meeting over a confirmed interview, the overview and the loop page say who is busy
    with what during which round, with Replace and Reschedule; Replace offers only people free then, and
    replacing clears the flag."""
    app.config["CALENDAR_SECRET_KEY"] = KEY
    client = login("coordinator")
    loop, rounds, people = scheduled
    mentor = rounds["mentor"]
    holder = _holder(mentor)
    assert client.get("/coordinator/").get_data(as_text=True).count("Busy during a confirmed interview") == 0

    _meeting_over(db, radicale, holder, mentor)
    other = people["finn"] if holder.name != "Finn" else people["eve"]
    busy_too = people["eve"] if other.name == "Finn" else people["finn"]
    pool.add_busy_block(db, busy_too.id, mentor.start - timedelta(minutes=30), mentor.end, "Offsite",
                        actor_id=None)  # a substitute who is busy then is not offered

    overview = client.get("/coordinator/").get_data(as_text=True).replace("&#39;", "'")
    when = mentor.start.strftime("%a %H:%M")
    assert f"<strong>{holder.name}</strong> now has 'Dentist' during <strong>Mentoring</strong>" in overview
    assert f"{when} UTC" in overview and "from their CalDAV calendar" in overview
    replace = f"/coordinator/interviews/{mentor.id}/replace?leaving={holder.id}"
    assert replace in overview and f"/coordinator/interviews/{mentor.id}/reschedule" in overview
    loop_page = client.get(f"/coordinator/loops/{loop.id}").get_data(as_text=True).replace("&#39;", "'")
    assert "now has 'Dentist' during <strong>Mentoring</strong>" in loop_page and replace in loop_page

    options = client.get(replace).get_data(as_text=True)
    assert f"Use {other.name}" in options and f"Use {busy_too.name}" not in options
    done = client.post(f"/coordinator/interviews/{mentor.id}/replace",
                       data={"leaving": holder.id, "joining": str(other.id), "reason": "Dentist appointment"})
    assert done.status_code == 302
    assert "Busy during a confirmed interview" not in client.get("/coordinator/").get_data(as_text=True)
    assert list_busy_conflicts(db, now=REAL_NOW) == []


def test_what_is_not_flagged(db, scheduled):
    """Busy time elsewhere in the day, cancelled or past interviews, removed seats, inactive people and draft
    loops raise no flag; overlapping busy time of an active seat does."""
    loop, rounds, _people = scheduled
    tech = rounds["tech"]
    ana = _holder(tech)
    pool.add_busy_block(db, ana.id, tech.end, tech.end + timedelta(hours=1), "Right after", actor_id=None)
    assert list_busy_conflicts(db, now=REAL_NOW) == []

    pool.add_busy_block(db, ana.id, tech.start + timedelta(minutes=30), tech.end, "School run", actor_id=None)
    [flag] = list_busy_conflicts(db, now=REAL_NOW)
    assert (flag.interviewer_name, flag.round_name, flag.what, flag.sources) == (
        "Ana", "Compiler deep-dive", "'School run'", ("manual",))
    assert list_busy_conflicts(db, now=tech.start) == []  # once it has started it is too late to flag
    assert list_busy_conflicts(db, now=REAL_NOW, loop_id=loop.id + 1000) == []

    for change in ("inactive", "draft", "cancelled", "removed"):
        seat = next(s for s in tech.seats if s.interviewer_id == ana.id)
        ana.active, loop.status = change != "inactive", LoopStatus.DRAFT if change == "draft" else LoopStatus.SCHEDULED
        tech.status = InterviewStatus.CANCELLED if change == "cancelled" else InterviewStatus.SCHEDULED
        seat.status = SeatStatus.REMOVED if change == "removed" else SeatStatus.ACTIVE
        db.flush()
        assert list_busy_conflicts(db, now=REAL_NOW) == [], change


def test_flags_take_one_query(db, engine, scheduled):
    """Listing the flags is one SELECT, with one collision or many (no query per interview or person)."""
    _loop, rounds, _people = scheduled
    statements: list[str] = []

    def count(_conn, _cursor, statement, *_args):
        if statement.lstrip().upper().startswith("SELECT"):  # not the test transaction's SAVEPOINTs
            statements.append(statement)

    tech, mentor = rounds["tech"], rounds["mentor"]
    pool.add_busy_block(db, _holder(tech).id, tech.start, tech.end, "A", actor_id=None)
    event.listen(engine, "before_cursor_execute", count)
    try:
        one = list_busy_conflicts(db, now=REAL_NOW)
        first = len(statements)
        pool.add_busy_block(db, _holder(mentor).id, mentor.start, mentor.end, "B", actor_id=None)
        pool.add_busy_block(db, _holder(mentor).id, mentor.start, mentor.end - timedelta(minutes=5), "C",
                            actor_id=None)
        statements.clear()
        many = list_busy_conflicts(db, now=REAL_NOW)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(one) == 1 and len(many) == 2 and many[1].what == "'B' and 'C'"
    assert first == 1 and len(statements) == 1
