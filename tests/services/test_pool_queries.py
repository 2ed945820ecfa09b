"""Read side of the pool: filters, week view data, readiness, bounded queries, agreement with the services."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from poolutil import book, competency, interviewer
from sqlalchemy import event

from planner.queries import pool as queries
from planner.services import pool

NOW = datetime(2026, 3, 4, 18, 0, tzinfo=UTC)  # Wednesday


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.fixture
def pool_people(db):
    """Three interviewers in three zones with qualifications at different levels."""
    compiler, mentoring = competency(db, "compiler-design"), competency(db, "mentoring")
    ana = interviewer(db, "Ana Ruiz", tz="America/Los_Angeles", team="compiler")
    bo = interviewer(db, "Bo Lin", tz="Europe/Berlin", team="runtime")
    cy = interviewer(db, "Cy Okafor", tz="Asia/Tokyo", team="compiler")
    pool.set_qualification(db, ana.id, compiler.id, "qualified", actor_id=None, now=NOW)
    pool.set_qualification(db, bo.id, compiler.id, "shadow", actor_id=None, now=NOW)
    pool.set_qualification(db, bo.id, mentoring.id, "qualified", actor_id=None, now=NOW)
    pool.set_qualification(db, cy.id, mentoring.id, "reverse-shadow", actor_id=None, now=NOW)
    return {"ana": ana, "bo": bo, "cy": cy, "compiler": compiler, "mentoring": mentoring}


def names(page) -> list[str]:
    return [row.name for row in page.rows]


def test_filters_by_competency_level_team_search_and_status(db, pool_people):
    """Each filter narrows the list; inactive interviewers appear only when asked for."""
    p = pool_people
    assert names(queries.list_pool(db, now=NOW)) == ["Ana Ruiz", "Bo Lin", "Cy Okafor"]
    assert names(queries.list_pool(db, now=NOW, competency_id=p["compiler"].id)) == ["Ana Ruiz", "Bo Lin"]
    assert names(queries.list_pool(db, now=NOW, competency_id=p["compiler"].id, level="qualified")) == [
        "Ana Ruiz"
    ]
    assert names(queries.list_pool(db, now=NOW, level="reverse-shadow")) == ["Cy Okafor"]
    assert names(queries.list_pool(db, now=NOW, team="compiler")) == ["Ana Ruiz", "Cy Okafor"]
    assert names(queries.list_pool(db, now=NOW, search="  LIN ")) == ["Bo Lin"]
    pool.set_active(db, p["bo"].id, False, actor_id=None)
    assert names(queries.list_pool(db, now=NOW)) == ["Ana Ruiz", "Cy Okafor"]
    assert names(queries.list_pool(db, now=NOW, include_inactive=True)) == ["Ana Ruiz", "Cy Okafor", "Bo Lin"]


def test_rows_show_local_time_and_qualifications_by_level(db, pool_people):
    """A row carries the interviewer's local time now and qualified badges before trainee ones."""
    page = queries.list_pool(db, now=NOW)
    bo = next(r for r in page.rows if r.name == "Bo Lin")
    assert bo.local_now.strftime("%H:%M %Z") == "19:00 CET"
    assert [(q.slug, q.level) for q in bo.qualifications] == [
        ("mentoring", "qualified"),
        ("compiler-design", "shadow"),
    ]
    assert page.teams == ("compiler", "runtime")


def test_pool_list_issues_a_bounded_number_of_queries(db, pool_people):
    """The list costs the same number of SQL statements for 3 or 23 interviewers with seats."""

    def count_statements() -> int:
        statements = []
        connection = db.connection()
        listener = lambda *args: statements.append(args[2])  # noqa: E731
        event.listen(connection, "before_cursor_execute", listener)
        try:
            queries.list_pool(db, now=NOW)
        finally:
            event.remove(connection, "before_cursor_execute", listener)
        return len(statements)

    small = count_statements()
    for index in range(20):
        person = interviewer(db, f"Extra Person{index}", tz="Europe/London")
        pool.set_qualification(db, person.id, pool_people["compiler"].id, "shadow", actor_id=None, now=NOW)
        book(
            db,
            person,
            NOW - timedelta(days=1),
            role="trainee",
            level="shadow",
            competencies=("compiler-design",),
        )
    db.expire_all()
    assert count_statements() == small <= 10


def test_ready_list_and_promotion_agree(db, pool_people):
    """A trainee with two completed shadows is listed as ready, and promote accepts exactly them."""
    p = pool_people
    for days in (2, 1):
        book(
            db,
            p["bo"],
            NOW - timedelta(days=days),
            role="trainee",
            level="shadow",
            competencies=("compiler-design",),
        )
    book(db, p["cy"], NOW - timedelta(days=1), role="trainee", level="shadow", competencies=("mentoring",))
    ready = queries.list_ready(db, now=NOW)
    assert [(r.interviewer_name, r.competency_name, r.progress.next_level) for r in ready] == [
        ("Bo Lin", "Compiler Design", "reverse-shadow")
    ]
    assert ready[0].progress.sentence == "Ready to move up to reverse-shadow: 2 shadow interviews completed."
    pool.promote_qualification(db, p["bo"].id, p["compiler"].id, actor_id=None, now=NOW)
    assert queries.list_ready(db, now=NOW) == ()


def test_load_agrees_between_list_detail_and_scheduler_helper(db, pool_people):
    """The pool list, the interviewer page and services.load_status give the same CapStatus."""
    p = pool_people
    book(db, p["cy"], utc(2026, 3, 4, 16))  # Thursday 01:00 in Tokyo (NOW is Thursday 03:00 there)
    book(db, p["cy"], utc(2026, 3, 4, 14, 30), role="trainee", level="shadow")  # Wednesday 23:30 Tokyo
    book(db, p["ana"], utc(2026, 3, 5, 17))
    shared = pool.load_status(db, [p["ana"].id, p["bo"].id, p["cy"].id], NOW)
    listed = {row.id: row.caps for row in queries.list_pool(db, now=NOW).rows}
    for person in (p["ana"], p["bo"], p["cy"]):
        detail = queries.get_interviewer_detail(db, person.id, now=NOW)
        assert listed[person.id] == shared[person.id] == detail.caps
    assert (shared[p["cy"].id].today, shared[p["cy"].id].this_week) == (1, 2)


def test_week_view_in_local_time_across_a_dst_change(db, pool_people):
    """The LA week of 2 March 2026 has a 23-hour Sunday; interviews and blocks sit at their local times."""
    ana = pool_people["ana"]
    book(db, ana, utc(2026, 3, 7, 17), round_name="Design")  # Saturday 09:00 PST
    book(db, ana, utc(2026, 3, 8, 17), round_name="Coding")  # Sunday 10:00 PDT
    pool.add_busy_block(
        db, ana.id, datetime(2026, 3, 2, 12), datetime(2026, 3, 2, 13), "Lunch", actor_id=None
    )
    detail = queries.get_interviewer_detail(db, ana.id, now=NOW, week_start=date(2026, 3, 4))
    assert detail.week_start == date(2026, 3, 2) and detail.is_this_week
    days = {d.day: d for d in detail.week.days}
    assert days[date(2026, 3, 8)].hours_in_day == 23 and days[date(2026, 3, 7)].hours_in_day == 24
    saturday, sunday = days[date(2026, 3, 7)].interviews[0], days[date(2026, 3, 8)].interviews[0]
    assert (saturday.start_local.hour, sunday.start_local.hour) == (9, 10)
    assert saturday.label == "Design · Kim Lee"
    assert days[date(2026, 3, 2)].busy[0].label == "Lunch" and days[date(2026, 3, 2)].working is not None
    assert days[date(2026, 3, 8)].working is None  # Sunday is not a working day
    assert detail.week_load.on_day(date(2026, 3, 8)) == 1
    assert (detail.prev_week, detail.next_week) == (date(2026, 2, 23), date(2026, 3, 9))


def test_week_view_for_a_zone_whose_day_differs_from_utc(db, pool_people):
    """An interview at Sunday 23:00 UTC shows on Monday morning in Tokyo."""
    cy = pool_people["cy"]
    book(db, cy, utc(2026, 3, 8, 23))
    detail = queries.get_interviewer_detail(db, cy.id, now=NOW, week_start=date(2026, 3, 9))
    monday = detail.week.days[0]
    assert monday.day == date(2026, 3, 9) and monday.interviews[0].start_local.hour == 8
    assert not detail.is_this_week


def test_detail_lists_imports_and_upcoming_manual_blocks(db, pool_people):
    """Imports are summarised per source and only upcoming manual blocks are listed."""
    ana = pool_people["ana"]
    pool.add_busy_block(db, ana.id, datetime(2026, 3, 1, 9), datetime(2026, 3, 1, 10), "Past", actor_id=None)
    pool.add_busy_block(
        db, ana.id, datetime(2026, 3, 10, 9), datetime(2026, 3, 10, 10), "Future", actor_id=None
    )
    ics = (
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20260101T000000Z\r\n"
        b"DTSTART:20260305T200000Z\r\nDTEND:20260305T210000Z\r\nSUMMARY:Sync\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    pool.import_busy_ics(db, ana.id, ics, "Work", now=NOW)
    detail = queries.get_interviewer_detail(db, ana.id, now=NOW)
    assert [b.summary for b in detail.manual_blocks] == ["Future"]
    assert [(i.name, i.blocks) for i in detail.imports] == [("Work", 1)]


def test_login_choices_only_free_interviewer_logins(db, make_user, pool_people):
    """The link select offers active logins with the interviewer role not linked to someone else."""
    free = make_user(email="free@example.com", roles=("interviewer",), name="Free One")
    taken = make_user(email="taken@example.com", roles=("interviewer",), name="Taken One")
    make_user(email="coord@example.com", roles=("coordinator",))
    pool.update_interviewer(
        db,
        pool_people["ana"].id,
        pool.InterviewerInput(
            name="Ana Ruiz", email=pool_people["ana"].email, timezone="America/Los_Angeles", user_id=taken.id
        ),
        actor_id=None,
    )
    assert [c[0] for c in queries.list_login_choices(db)] == [free.id]
    assert [c[0] for c in queries.list_login_choices(db, pool_people["ana"].id)] == [free.id, taken.id]
