"""Interviewers set their own working hours, days and zone, and import their own busy time, on their page;
caps stay with the coordinator; every change is audited with the interviewer as the actor."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from invitedata import make_interviewer
from sqlalchemy import func, select

from planner.models import AuditEntry, BusyBlock, Interviewer, User

HOURS = {"timezone": "Europe/Berlin", "work_start": "10:00", "work_end": "16:30", "work_days": ["mon", "wed"]}


def _ics() -> bytes:
    start = (datetime.now(UTC) + timedelta(days=2)).replace(hour=10, minute=0, second=0, microsecond=0)
    stamp = "%Y%m%dT%H%M%SZ"
    return (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:w@x\r\nDTSTAMP:20260101T000000Z\r\n"
            b"DTSTART:" + start.strftime(stamp).encode() + b"\r\nDTEND:" +
            (start + timedelta(hours=1)).strftime(stamp).encode() +
            b"\r\nRRULE:FREQ=DAILY;COUNT=3\r\nSUMMARY:Focus time\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


@pytest.fixture
def me(db, make_user, client):
    user = make_user(email="priya@hire.example", roles=("interviewer",))
    person = make_interviewer(db, "Priya Nair", "priya@hire.example", "Asia/Kolkata", user_id=user.id)
    db.commit()
    assert client.post("/login", data={"email": "priya@hire.example", "password": "password123"}).status_code == 302
    return person


def test_home_shows_the_availability_section_with_current_values(client, me):
    """The section shows the interviewer's zone and hours filled in, and the caps as the coordinator's."""
    page = client.get("/interviewer/").get_data(as_text=True)
    assert 'id="availability"' in page and 'value="Asia/Kolkata"' in page
    assert f"{me.max_per_day} a day, {me.max_per_week} a week" in page
    assert 'name="max_per_day"' not in page


def test_setting_own_hours_saves_them_and_audits_with_the_interviewer(client, db, me):
    """Zone, hours and days change; caps do not; the audit entry names the interviewer and their login."""
    caps = (me.max_per_day, me.max_per_week)
    response = client.post("/interviewer/availability/hours", data={**HOURS, "max_per_day": "9"})
    assert response.status_code == 302 and response.location.endswith("/interviewer/#availability")
    db.expire_all()
    person = db.get(Interviewer, me.id)
    assert (person.timezone, person.work_start, person.work_end, person.work_days) == (
        "Europe/Berlin", "10:00", "16:30", "mon wed")
    assert (person.max_per_day, person.max_per_week) == caps
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "interviewer.update"))
    user_id = db.scalar(select(User.id).where(User.email == "priya@hire.example"))
    assert entry.actor_id == user_id and entry.interviewer_id == me.id
    assert set(entry.details["fields"]) == {"timezone", "work_start", "work_end", "work_days"}


def test_bad_hours_say_every_problem_under_its_field_and_change_nothing(client, db, me):
    """An unknown zone, an end before the start and no day: all said at once on the page, nothing saved."""
    response = client.post("/interviewer/availability/hours",
                           data={"timezone": "Mars/Olympus", "work_start": "18:00", "work_end": "09:00"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "is not a known time zone" in html and "Pick at least one working day" in html
    assert "My interviews" in html  # the interviewer's page itself, with the form as posted
    db.expire_all()
    assert db.get(Interviewer, me.id).timezone == "Asia/Kolkata"
    assert db.scalar(select(func.count(AuditEntry.id)).where(AuditEntry.action == "interviewer.update")) == 0


def test_importing_and_removing_own_busy_time(client, db, me):
    """An .ics export becomes busy blocks (recurrences expanded), listed on the page; removing it deletes them."""
    response = client.post("/interviewer/availability/import", content_type="multipart/form-data",
                           data={"calendar": (io.BytesIO(_ics()), "work.ics"), "source_name": "",
                                 "horizon_days": "30"})
    assert response.status_code == 302
    assert db.scalar(select(func.count(BusyBlock.id)).where(BusyBlock.interviewer_id == me.id)) == 3
    page = client.get("/interviewer/").get_data(as_text=True)
    assert "<strong>work</strong>" in page and "3 blocks" in page
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "busy.import"))
    assert entry.entity_id == me.id
    response = client.post("/interviewer/availability/import/remove", data={"source": "import:work"})
    assert response.status_code == 302
    assert db.scalar(select(func.count(BusyBlock.id)).where(BusyBlock.interviewer_id == me.id)) == 0


@pytest.mark.parametrize(("payload", "message"), [
    (b"not a calendar", "Nothing was imported"),
    (None, "Choose an .ics file to import."),
])
def test_a_bad_calendar_file_imports_nothing(client, db, me, payload, message):
    """A file that is not a calendar, or no file: one sentence under the field, no block stored."""
    data = {"source_name": "x", "horizon_days": "30"}
    if payload is not None:
        data["calendar"] = (io.BytesIO(payload), "bad.ics")
    response = client.post("/interviewer/availability/import", content_type="multipart/form-data", data=data)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert db.scalar(select(func.count(BusyBlock.id))) == 0


def test_only_the_interviewers_own_profile_changes(client, db, make_user):
    """A login not linked to an interviewer has nothing to change: 404, and other people are untouched."""
    make_user(email="loose@hire.example", roles=("interviewer",))
    other = make_interviewer(db, "Other", "other@hire.example", "UTC")
    db.commit()
    client.post("/login", data={"email": "loose@hire.example", "password": "password123"})
    assert client.post("/interviewer/availability/hours", data=HOURS).status_code == 404
    db.expire_all()
    assert db.get(Interviewer, other.id).timezone == "UTC"
