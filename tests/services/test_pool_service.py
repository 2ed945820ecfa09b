"""Interviewer pool services: people, qualifications, promotion, busy time, calendar import, load."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from poolutil import book, competency, interviewer
from sqlalchemy import func, select

from planner.core.errors import NotFound, ValidationFailed
from planner.core.pool import CalendarImportError, NotReadyForPromotion
from planner.models import AuditEntry, BusyBlock, Interviewer, InterviewStatus, Qualification, SeatStatus
from planner.services import pool

NOW = datetime(2026, 3, 4, 18, 0, tzinfo=UTC)  # Wednesday 10:00 in Los Angeles (PST)


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def audit_actions(db) -> list[str]:
    return list(db.scalars(select(AuditEntry.action).order_by(AuditEntry.id)))


# ------------------------------------------------------------------------------------------- people


def test_create_interviewer_stores_profile_token_and_audit(db):
    """Creating an interviewer normalises fields, issues a feed token and writes an audit entry."""
    person = interviewer(
        db,
        "  Ana   Ruiz ",
        email="Ana@Example.com",
        team="compiler",
        work_days=("mon", "wed"),
        max_per_day=1,
        max_per_week=3,
    )
    assert (person.name, person.email, person.work_days) == ("Ana Ruiz", "ana@example.com", "mon wed")
    assert len(person.feed_token) >= 32 and person.active
    assert audit_actions(db) == ["interviewer.create"]


@pytest.mark.parametrize(
    ("changes", "field", "phrase"),
    [
        ({"timezone": "Mars/Olympus"}, "timezone", "not a known time zone"),
        ({"work_start": "17:00", "work_end": "09:00"}, "work_end", "must be after"),
        ({"work_start": "9am"}, "work_start", "HH:MM"),
        ({"work_days": ()}, "work_days", "at least one"),
        ({"work_days": ("mon", "funday")}, "work_days", "not a day"),
        ({"max_per_day": -1}, "max_per_day", "below zero"),
        ({"max_per_week": -2, "max_per_day": 0}, "max_per_week", "below zero"),
        ({"max_per_day": 4, "max_per_week": 2}, "max_per_day", "larger than the weekly cap"),
        ({"email": "not-an-email"}, "email", "not an email"),
        ({"name": "   "}, "name", "name is required"),
    ],
)
def test_bad_interviewer_input_names_the_field_and_stores_nothing(db, changes, field, phrase):
    """Each bad field gets one sentence tied to that field and no interviewer is created."""
    values = {"name": "Ana Ruiz", "email": "ana@example.com", "timezone": "Europe/Berlin", **changes}
    with pytest.raises(pool.FieldError) as caught:
        pool.create_interviewer(db, pool.InterviewerInput(**values), actor_id=None)
    assert caught.value.field == field and phrase in str(caught.value)
    db.rollback()
    assert db.scalar(select(func.count(Interviewer.id))) == 0


def test_duplicate_email_is_refused_case_insensitively(db):
    """A second interviewer with the same email (any case) is refused."""
    interviewer(db, email="ana@example.com")
    with pytest.raises(pool.FieldError, match="already uses ana@example.com"):
        interviewer(db, email="ANA@example.com")


def test_linked_login_must_have_interviewer_role_and_be_free(db, make_user):
    """A linked login must hold the interviewer role and not be linked to someone else."""
    coordinator = make_user(email="c@example.com", roles=("coordinator",))
    person_login = make_user(email="p@example.com", roles=("interviewer",))
    with pytest.raises(pool.FieldError, match="interviewer role"):
        interviewer(db, user_id=coordinator.id)
    first = interviewer(db, "First Person", user_id=person_login.id)
    assert first.user_id == person_login.id
    with pytest.raises(pool.FieldError, match="already linked to First Person"):
        interviewer(db, "Second Person", user_id=person_login.id)


def test_update_with_bad_zone_leaves_row_untouched(db):
    """A failed update changes nothing; a good one is audited with the changed fields."""
    person = interviewer(db, tz="Europe/Berlin")
    bad = pool.InterviewerInput(name="New Name", email=person.email, timezone="Europe/Nowhere")
    with pytest.raises(pool.FieldError):
        pool.update_interviewer(db, person.id, bad, actor_id=None)
    db.rollback()
    db.refresh(person)
    assert (person.name, person.timezone) == ("Ana Ruiz", "Europe/Berlin")
    good = pool.InterviewerInput(name="Ana R.", email=person.email, timezone="Asia/Tokyo", max_per_day=1)
    pool.update_interviewer(db, person.id, good, actor_id=None)
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "interviewer.update"))
    assert set(entry.details["fields"]) == {"name", "timezone", "max_per_day"}


def test_deactivate_and_reactivate_are_audited(db):
    """Deactivation keeps the row and is audited; reactivation restores it."""
    person = interviewer(db)
    pool.set_active(db, person.id, False, actor_id=None)
    assert not person.active
    pool.set_active(db, person.id, True, actor_id=None)
    assert person.active
    assert audit_actions(db)[-2:] == ["interviewer.deactivate", "interviewer.reactivate"]
    with pytest.raises(NotFound):
        pool.set_active(db, 99999, False, actor_id=None)


# ------------------------------------------------------------------------------------------- qualifications


def test_qualification_add_change_remove(db):
    """Qualifications are added, re-levelled and removed, each audited; unknown levels are refused."""
    person, comp = interviewer(db), competency(db, "compiler-design")
    pool.set_qualification(db, person.id, comp.id, "shadow", actor_id=None, now=NOW)
    pool.set_qualification(db, person.id, comp.id, "qualified", actor_id=None, now=NOW)
    assert db.scalar(select(Qualification.level)).value == "qualified"
    with pytest.raises(ValidationFailed, match="not a training level"):
        pool.set_qualification(db, person.id, comp.id, "expert", actor_id=None, now=NOW)
    pool.remove_qualification(db, person.id, comp.id, actor_id=None)
    assert db.scalar(select(func.count(Qualification.id))) == 0
    assert audit_actions(db)[1:] == ["qualification.add", "qualification.change", "qualification.remove"]
    with pytest.raises(NotFound):
        pool.remove_qualification(db, person.id, comp.id, actor_id=None)


def test_training_counts_only_completed_active_trainee_seats_per_competency(db):
    """Only ended, not-cancelled, active trainee seats count, per interview competency and level."""
    person = interviewer(db)
    past = NOW - timedelta(days=3)
    book(db, person, past, role="trainee", level="shadow", competencies=("compiler-design",))
    book(
        db,
        person,
        past + timedelta(hours=2),
        role="trainee",
        level="shadow",
        competencies=("compiler-design", "mentoring"),
    )
    book(
        db,
        person,
        past,
        role="trainee",
        level="shadow",
        competencies=("compiler-design",),
        status=InterviewStatus.CANCELLED,
    )
    book(
        db,
        person,
        past,
        role="trainee",
        level="shadow",
        competencies=("compiler-design",),
        seat_status=SeatStatus.REMOVED,
    )
    book(
        db, person, NOW + timedelta(days=1), role="trainee", level="shadow", competencies=("compiler-design",)
    )
    book(
        db,
        person,
        NOW - timedelta(minutes=30),
        role="trainee",
        level="reverse-shadow",
        competencies=("compiler-design",),
    )  # still running at NOW: not completed
    book(db, person, past, role="assessor", competencies=("compiler-design",))
    counts = pool.training_counts(db, [person.id], NOW)
    assert counts[(person.id, "compiler-design")] == pool.TrainingCounts(2, 0)
    assert counts[(person.id, "mentoring")] == pool.TrainingCounts(1, 0)


def test_promote_when_ready_is_audited_and_refused_when_not(db):
    """Two completed shadows promote to reverse-shadow; later steps need the interviews or a reason."""
    person, comp = interviewer(db), competency(db, "compiler-design")
    pool.set_qualification(db, person.id, comp.id, "shadow", actor_id=None, now=NOW)
    book(
        db, person, NOW - timedelta(days=2), role="trainee", level="shadow", competencies=("compiler-design",)
    )
    with pytest.raises(NotReadyForPromotion, match="1 of 2 shadow interviews"):
        pool.promote_qualification(db, person.id, comp.id, actor_id=None, now=NOW)
    book(
        db, person, NOW - timedelta(days=1), role="trainee", level="shadow", competencies=("compiler-design",)
    )
    qualification = pool.promote_qualification(db, person.id, comp.id, actor_id=None, now=NOW)
    assert qualification.level.value == "reverse-shadow"
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "qualification.promote"))
    assert entry.details == {
        "competency": "compiler-design",
        "from": "shadow",
        "to": "reverse-shadow",
        "done": 2,
        "needed": 2,
        "forced": False,
    }
    with pytest.raises(NotReadyForPromotion):  # shadows do not count towards reverse-shadow
        pool.promote_qualification(db, person.id, comp.id, actor_id=None, now=NOW)
    forced = pool.promote_qualification(
        db, person.id, comp.id, actor_id=None, now=NOW, reason="Ran five loops at the previous company"
    )
    assert forced.level.value == "qualified"
    with pytest.raises(NotReadyForPromotion, match="Already qualified"):
        pool.promote_qualification(db, person.id, comp.id, actor_id=None, now=NOW, reason="again")


# ------------------------------------------------------------------------------------------- busy time


def test_manual_block_is_read_in_the_interviewers_zone_across_dst(db):
    """09:00-10:00 local is 17:00 UTC before and 16:00 UTC after the US spring-forward change."""
    person = interviewer(db, tz="America/Los_Angeles")
    before = pool.add_busy_block(
        db, person.id, datetime(2026, 3, 6, 9), datetime(2026, 3, 6, 10), "Dentist", actor_id=None
    )
    after = pool.add_busy_block(
        db, person.id, datetime(2026, 3, 9, 9), datetime(2026, 3, 9, 10), "", actor_id=None
    )
    assert (before.start, before.end) == (utc(2026, 3, 6, 17), utc(2026, 3, 6, 18))
    assert (after.start, after.end) == (utc(2026, 3, 9, 16), utc(2026, 3, 9, 17))


@pytest.mark.parametrize(
    ("start", "end", "phrase"),
    [
        (datetime(2026, 3, 6, 10), datetime(2026, 3, 6, 9),
         r"ends \(Fri 06 Mar 2026, 09:00\) before or when it starts \(Fri 06 Mar 2026, 10:00\), both in "
         "America/Los_Angeles time"),
        (datetime(2026, 3, 6, 10), datetime(2026, 3, 6, 10), "before or when it starts"),
        (datetime(2026, 3, 8, 2, 30), datetime(2026, 3, 8, 4), "does not exist in America/Los_Angeles"),
    ],
)
def test_bad_manual_block_is_refused_and_nothing_stored(db, start, end, phrase):
    """An end not after the start, or a local time the clocks skip, is refused and stores nothing."""
    person = interviewer(db, tz="America/Los_Angeles")
    with pytest.raises(ValidationFailed, match=phrase):
        pool.add_busy_block(db, person.id, start, end, actor_id=None)
    db.rollback()
    assert db.scalar(select(func.count(BusyBlock.id))) == 0


def test_delete_busy_block_only_for_its_owner(db):
    """A block is deleted by its owner's id; another interviewer's id gets NotFound."""
    person, other = interviewer(db), interviewer(db, "Bo Lin")
    block = pool.add_busy_block(
        db, person.id, datetime(2026, 3, 6, 9), datetime(2026, 3, 6, 10), actor_id=None
    )
    with pytest.raises(NotFound):
        pool.delete_busy_block(db, other.id, block.id, actor_id=None)
    pool.delete_busy_block(db, person.id, block.id, actor_id=None)
    assert db.get(BusyBlock, block.id) is None


WEEKLY = b"""BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//test//EN\r
BEGIN:VEVENT\r
UID:standup@test\r
DTSTAMP:20260101T000000Z\r
DTSTART;TZID=America/Los_Angeles:20260302T090000\r
DTEND;TZID=America/Los_Angeles:20260302T093000\r
RRULE:FREQ=WEEKLY;COUNT=4\r
SUMMARY:Team standup\r
END:VEVENT\r
END:VCALENDAR\r
"""

ONE_EVENT = b"""BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//test//EN\r
BEGIN:VEVENT\r
UID:offsite@test\r
DTSTAMP:20260101T000000Z\r
DTSTART:20260305T200000Z\r
DTEND:20260305T220000Z\r
SUMMARY:Offsite\r
END:VEVENT\r
END:VCALENDAR\r
"""


def test_import_expands_recurrence_across_dst_and_replaces_same_source(db):
    """A weekly 09:00 local event stays at 09:00 across DST; re-importing a source replaces its blocks."""
    person = interviewer(db, tz="America/Los_Angeles")
    manual = pool.add_busy_block(
        db, person.id, datetime(2026, 3, 6, 9), datetime(2026, 3, 6, 10), actor_id=None
    )
    other = pool.import_busy_ics(db, person.id, ONE_EVENT, "Personal", now=NOW)
    first = pool.import_busy_ics(db, person.id, WEEKLY, "Work calendar.ics", now=NOW, horizon_days=30)
    assert (first.source, first.imported, first.replaced) == (
        "import:Work calendar",
        3,
        0,
    )  # Mar 2 is before NOW's day
    starts = list(
        db.scalars(
            select(BusyBlock.start)
            .where(BusyBlock.source == "import:Work calendar")
            .order_by(BusyBlock.start)
        )
    )
    assert starts == [utc(2026, 3, 9, 16), utc(2026, 3, 16, 16), utc(2026, 3, 23, 16)]
    again = pool.import_busy_ics(db, person.id, ONE_EVENT, "Work calendar", now=NOW)
    assert (again.imported, again.replaced) == (1, 3)
    sources = sorted(db.scalars(select(BusyBlock.source)))
    assert sources == ["import:Personal", "import:Work calendar", "manual"]
    assert other.imported == 1 and db.get(BusyBlock, manual.id) is not None
    assert [a for a in audit_actions(db) if a.startswith("busy.import")] == ["busy.import"] * 3


@pytest.mark.parametrize(
    "payload",
    [
        b"this is not a calendar",
        b"\x89PNG\r\n\x1a\n\x00\x00binary",
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nDTSTART:20260305T200000Z\r\n",
        b"",
        WEEKLY.replace(
            b"DTEND;TZID=America/Los_Angeles:20260302T093000",
            b"DTEND;TZID=America/Los_Angeles:20260302T083000",
        ),
        WEEKLY.replace(b"TZID=America/Los_Angeles", b"TZID=Nowhere/Special"),
    ],
)
def test_bad_upload_gives_one_sentence_and_keeps_previous_import(db, payload):
    """A malformed or non-calendar upload raises CalendarImportError and the previous import stays."""
    person = interviewer(db, tz="America/Los_Angeles")
    pool.import_busy_ics(db, person.id, ONE_EVENT, "Work", now=NOW)
    with pytest.raises(CalendarImportError) as caught:
        pool.import_busy_ics(db, person.id, payload, "Work", now=NOW)
    assert "\n" not in str(caught.value) and str(caught.value).endswith(".")
    db.rollback()
    assert db.scalar(select(func.count(BusyBlock.id))) == 1


def test_import_needs_a_name_and_a_sane_horizon(db):
    """An empty calendar name or an out-of-range horizon is refused before anything changes."""
    person = interviewer(db)
    with pytest.raises(pool.FieldError, match="name"):
        pool.import_busy_ics(db, person.id, ONE_EVENT, "  .ics ", now=NOW)
    with pytest.raises(pool.FieldError, match="1 to 365 days"):
        pool.import_busy_ics(db, person.id, ONE_EVENT, "Work", now=NOW, horizon_days=0)


def test_remove_import_deletes_only_that_source(db):
    """Removing an import deletes its blocks and leaves manual ones."""
    person = interviewer(db)
    pool.add_busy_block(db, person.id, datetime(2026, 3, 6, 9), datetime(2026, 3, 6, 10), actor_id=None)
    pool.import_busy_ics(db, person.id, ONE_EVENT, "Work", now=NOW)
    assert pool.remove_import(db, person.id, "import:Work", actor_id=None) == 1
    assert list(db.scalars(select(BusyBlock.source))) == ["manual"]
    with pytest.raises(ValidationFailed):
        pool.remove_import(db, person.id, "manual", actor_id=None)


# ------------------------------------------------------------------------------------------- load


def test_load_counts_local_days_for_a_zone_ahead_of_utc(db):
    """For Tokyo, 2026-03-08 23:00 UTC is Monday 9 March: it counts on Monday of the next ISO week."""
    person = interviewer(db, tz="Asia/Tokyo", max_per_day=1, max_per_week=3)
    book(db, person, utc(2026, 3, 8, 23))  # Monday 08:00 in Tokyo, Sunday in UTC
    book(db, person, utc(2026, 3, 9, 5), role="trainee", level="shadow")  # Monday 14:00 Tokyo
    book(db, person, utc(2026, 3, 9, 6), status=InterviewStatus.CANCELLED)
    book(db, person, utc(2026, 3, 9, 7), seat_status=SeatStatus.REMOVED)
    status = pool.load_status(db, [person.id], utc(2026, 3, 9, 1))[person.id]
    assert (status.today, status.this_week, status.over) == (2, 2, True)
    earlier = pool.load_status(db, [person.id], utc(2026, 3, 8, 12))[person.id]  # Sunday 21:00 Tokyo
    assert (earlier.today, earlier.this_week) == (0, 0)


def test_load_in_a_week_with_a_dst_change(db):
    """In Los Angeles the week of 2 March 2026 (DST on Sunday 8th) holds a Sunday 23:30 PDT interview."""
    person = interviewer(db, tz="America/Los_Angeles", max_per_day=2, max_per_week=2)
    book(db, person, utc(2026, 3, 2, 17))  # Monday 09:00 PST
    book(db, person, utc(2026, 3, 9, 6, 30))  # Sunday 8 March 23:30 PDT: same ISO week
    book(db, person, utc(2026, 3, 9, 8))  # Monday 9 March 01:00 PDT: next week
    status = pool.load_status(db, [person.id], utc(2026, 3, 4, 20))[person.id]
    assert (status.this_week, status.remaining_week, status.over) == (2, 0, False)
    records = pool.seat_records_for(db, [person.id, 424242], utc(2026, 3, 1), utc(2026, 3, 10))
    assert len(records[person.id]) == 3 and records[424242] == []


def test_training_counts_of_the_whole_active_pool_match_the_listed_ones(db):
    """Without ids every active interviewer is counted as when listed; inactive people and round details
    that list no competencies (not an object, a list that is not a list) count nothing."""
    ana, raj, gone = interviewer(db), interviewer(db, "Raj Rao"), interviewer(db, "Old Timer")
    past = NOW - timedelta(days=3)
    for person in (ana, raj, gone):
        book(db, person, past, role="trainee", level="shadow", competencies=("compiler-design", "mentoring"))
    book(db, raj, past + timedelta(hours=2), role="trainee", level="reverse-shadow",
         competencies=("compiler-design",))
    odd = book(db, ana, past + timedelta(hours=4), role="trainee", level="shadow")
    odd.round_detail = {"competencies": "compiler-design"}
    strange = book(db, ana, past + timedelta(hours=6), role="trainee", level="shadow")
    strange.round_detail = ["compiler-design"]
    db.get(Interviewer, gone.id).active = False
    db.flush()
    everyone = pool.training_counts(db, None, NOW)
    listed = pool.training_counts(db, [ana.id, raj.id], NOW)
    assert everyone == listed
    assert listed[(ana.id, "compiler-design")] == pool.TrainingCounts(1, 0)
    assert listed[(raj.id, "compiler-design")] == pool.TrainingCounts(1, 1)
    assert listed[(raj.id, "mentoring")] == pool.TrainingCounts(1, 0)
    assert not any(key[0] == gone.id for key in everyone)
