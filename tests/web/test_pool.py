"""Coordinator pool pages: list, create/edit, qualifications, promotion, busy blocks, calendar import."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from poolutil import book, competency, interviewer
from sqlalchemy import func, select

from planner.models import AuditEntry, BusyBlock, Interviewer, Qualification
from planner.services import pool

FORM = {
    "name": "Ana Ruiz",
    "email": "ana@example.com",
    "team": "compiler",
    "timezone": "Europe/Berlin",
    "work_start": "09:00",
    "work_end": "17:00",
    "work_days": ["mon", "tue", "wed", "thu", "fri"],
    "max_per_day": "2",
    "max_per_week": "5",
    "user_id": "0",
}

ICS = (
    b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:w@x\r\nDTSTAMP:20260101T000000Z\r\n"
    b"DTSTART:%s\r\nDTEND:%s\r\nRRULE:FREQ=DAILY;COUNT=3\r\nSUMMARY:Focus time\r\n"
    b"END:VEVENT\r\nEND:VCALENDAR\r\n"
)


def future_ics() -> bytes:
    start = (datetime.now(UTC) + timedelta(days=2)).replace(hour=10, minute=0, second=0, microsecond=0)
    return ICS % (
        start.strftime("%Y%m%dT%H%M%SZ").encode(),
        (start + timedelta(hours=1)).strftime("%Y%m%dT%H%M%SZ").encode(),
    )


@pytest.fixture
def coordinator(login):
    return login("coordinator")


def test_pool_pages_need_the_coordinator_role(login):
    """Interviewers and managers get 403 on the pool pages."""
    client = login("interviewer")
    assert client.get("/coordinator/interviewers").status_code == 403
    assert client.post("/coordinator/interviewers/new", data=FORM).status_code == 403


def test_empty_pool_invites_adding_the_first_interviewer(coordinator):
    """With nobody in the pool the list explains what to do next."""
    page = coordinator.get("/coordinator/interviewers")
    assert page.status_code == 200 and b"No interviewers yet" in page.data
    assert b'href="/coordinator/interviewers/new"' in page.data


def test_list_shows_rows_badges_load_and_filters(coordinator, db):
    """Rows show zone, qualification badges and load; the competency filter narrows them."""
    ana = interviewer(db, "Ana Ruiz", tz="Europe/Berlin")
    interviewer(db, "Bo Lin", tz="Asia/Tokyo")
    comp = competency(db, "compiler-design")
    pool.set_qualification(db, ana.id, comp.id, "qualified", actor_id=None, now=datetime.now(UTC))
    page = coordinator.get("/coordinator/interviewers").get_data(as_text=True)
    assert "Ana Ruiz" in page and "Bo Lin" in page and "Europe/Berlin" in page and "this week" in page
    assert 'class="badge badge-ok"' in page and "Compiler Design" in page
    filtered = coordinator.get(f"/coordinator/interviewers?competency={comp.id}&level=qualified").get_data(
        as_text=True
    )
    assert "Ana Ruiz" in filtered and "Bo Lin" not in filtered
    nobody = coordinator.get("/coordinator/interviewers?q=zzz").get_data(as_text=True)
    assert "Nobody in the pool matches" in nobody
    assert coordinator.get("/coordinator/interviewers?competency=abc&level=guru").status_code == 200


def test_create_interviewer_redirects_to_their_page(coordinator, db):
    """A valid form creates the interviewer and lands on their page with a next step."""
    response = coordinator.post("/coordinator/interviewers/new", data=FORM)
    person = db.scalar(select(Interviewer))
    assert (
        response.status_code == 302
        and response.headers["Location"] == f"/coordinator/interviewers/{person.id}"
    )
    page = coordinator.get(response.headers["Location"]).get_data(as_text=True)
    assert "joined the interviewer pool" in page and "Week of" in page




def test_a_zone_typed_in_another_case_is_stored_with_its_real_name(coordinator, db):
    """'asia/singapore' names Asia/Singapore: accepted, and stored as the tz database spells it."""
    response = coordinator.post("/coordinator/interviewers/new", data=FORM | {"timezone": "asia/singapore"})
    assert response.status_code == 302
    assert db.scalar(select(Interviewer.timezone)) == "Asia/Singapore"

def test_a_cap_of_zero_says_no_interview_is_offered_instead_of_room_left(coordinator, db):
    """Caps of 0 pause someone: the page says so rather than '5 more this week ... fit under the caps'."""
    response = coordinator.post("/coordinator/interviewers/new", data=FORM | {"max_per_day": "0"})
    page = coordinator.get(response.headers["Location"]).get_data(as_text=True)
    assert "A cap is 0, so Ana Ruiz is offered for no interview until it is raised" in page
    assert "more this week" not in page
    person = db.scalar(select(Interviewer))
    assert f"/coordinator/interviewers/{person.id}/edit" in page

@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"timezone": "Europe/Atlantis"}, "is not a known time zone"),
        ({"work_start": "18:00", "work_end": "09:00"}, "must be after they start"),
        ({"max_per_day": "-1"}, "cannot be below zero"),
        ({"max_per_week": "two"}, "Not a valid integer value"),
        ({"work_days": []}, "Pick at least one working day"),
        ({"email": ""}, "An email is required"),
    ],
)
def test_bad_create_form_shows_one_message_and_creates_nothing(coordinator, db, changes, message):
    """Unknown zones, end before start, caps below zero and missing fields re-render with a message."""
    response = coordinator.post("/coordinator/interviewers/new", data={**FORM, **changes})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert db.scalar(select(func.count(Interviewer.id))) == 0


def test_edit_keeps_data_when_invalid_and_saves_when_valid(coordinator, db):
    """A bad edit changes nothing; a good one saves and redirects."""
    person = interviewer(db, tz="Europe/Berlin")
    form = coordinator.get(f"/coordinator/interviewers/{person.id}/edit").get_data(as_text=True)
    assert 'value="Europe/Berlin"' in form and 'checked id="work_days-0"' in form
    bad = coordinator.post(
        f"/coordinator/interviewers/{person.id}/edit",
        data={**FORM, "email": person.email, "timezone": "Nowhere"},
    )
    assert bad.status_code == 400
    db.expire_all()
    assert db.get(Interviewer, person.id).timezone == "Europe/Berlin"
    good = coordinator.post(
        f"/coordinator/interviewers/{person.id}/edit",
        data={**FORM, "email": person.email, "timezone": "America/New_York"},
    )
    assert good.status_code == 302
    db.expire_all()
    assert db.get(Interviewer, person.id).timezone == "America/New_York"


def test_deactivate_and_reactivate(coordinator, db):
    """Deactivation hides the interviewer from the default list; reactivation brings them back."""
    person = interviewer(db, "Ana Ruiz")
    done = coordinator.post(f"/coordinator/interviewers/{person.id}/deactivate", follow_redirects=True)
    assert "Ana Ruiz is deactivated" in done.get_data(as_text=True)
    assert "Ana Ruiz" not in coordinator.get("/coordinator/interviewers").get_data(as_text=True)
    assert "Ana Ruiz" in coordinator.get("/coordinator/interviewers?inactive=y").get_data(as_text=True)
    coordinator.post(f"/coordinator/interviewers/{person.id}/reactivate")
    db.expire_all()
    assert db.get(Interviewer, person.id).active


def test_qualification_editor_add_change_remove(coordinator, db):
    """The qualification editor adds, re-levels and removes a qualification."""
    person, comp = interviewer(db), competency(db, "mentoring")
    base = f"/coordinator/interviewers/{person.id}/qualifications"
    added = coordinator.post(base, data={"competency_id": comp.id, "level": "shadow"}, follow_redirects=True)
    assert f"{person.name}: {comp.name} added at level shadow." in added.get_data(as_text=True)
    coordinator.post(f"{base}/{comp.id}", data={"level": "qualified"})
    assert db.scalar(select(Qualification.level)).value == "qualified"
    coordinator.post(f"{base}/{comp.id}/remove")
    assert db.scalar(select(func.count(Qualification.id))) == 0
    page = coordinator.post(base, data={"competency_id": "999999", "level": "shadow"}, follow_redirects=True)
    assert "Pick a competency and a level" in page.get_data(as_text=True)


def test_promote_from_the_ready_panel(coordinator, db):
    """A ready trainee appears in the list's panel and one click promotes them, audited."""
    person, comp = interviewer(db, "Bo Lin"), competency(db, "compiler-design")
    now = datetime.now(UTC)
    pool.set_qualification(db, person.id, comp.id, "shadow", actor_id=None, now=now)
    for days in (3, 2):
        book(
            db,
            person,
            now - timedelta(days=days),
            role="trainee",
            level="shadow",
            competencies=("compiler-design",),
        )
    page = coordinator.get("/coordinator/interviewers").get_data(as_text=True)
    assert "Ready to move up" in page and "Promote to reverse-shadow" in page
    response = coordinator.post(
        f"/coordinator/interviewers/{person.id}/qualifications/{comp.id}/promote",
        data={"back": "list"},
        follow_redirects=True,
    )
    assert "Promoted Bo Lin to reverse-shadow" in response.get_data(as_text=True)
    assert db.scalar(select(AuditEntry.action).where(AuditEntry.action == "qualification.promote"))


def test_promote_not_ready_is_refused_with_the_progress_sentence(coordinator, db):
    """Promoting before the interviews are done, without a reason, explains what is missing."""
    person, comp = interviewer(db), competency(db, "compiler-design")
    pool.set_qualification(db, person.id, comp.id, "shadow", actor_id=None, now=datetime.now(UTC))
    response = coordinator.post(
        f"/coordinator/interviewers/{person.id}/qualifications/{comp.id}/promote", follow_redirects=True
    )
    assert "0 of 2 shadow interviews completed" in response.get_data(as_text=True)
    assert db.scalar(select(Qualification.level)).value == "shadow"


def test_manual_busy_block_in_local_time(coordinator, db):
    """A block entered as local time is stored in UTC and shown in that week."""
    person = interviewer(db, tz="America/Los_Angeles")
    response = coordinator.post(
        f"/coordinator/interviewers/{person.id}/busy",
        data={"start": "2026-03-09T09:00", "end": "2026-03-09T10:30", "summary": "Dentist"},
    )
    assert response.status_code == 302 and "week=2026-03-09" in response.headers["Location"]
    block = db.scalar(select(BusyBlock))
    assert block.start == datetime(2026, 3, 9, 16, tzinfo=UTC)
    page = coordinator.get(response.headers["Location"]).get_data(as_text=True)
    assert "Dentist" in page and "09:00–10:30" in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"start": "2026-03-09T10:00", "end": "2026-03-09T09:00"}, "before or when it starts"),
        ({"start": "2026-03-08T02:30", "end": "2026-03-08T04:00"}, "clocks skip that hour"),
        ({"start": "yesterday", "end": "2026-03-08T04:00"}, "Not a valid datetime value"),
    ],
)
def test_bad_busy_block_shows_message_and_stores_nothing(coordinator, db, data, message):
    """End before start, a skipped local time or garbage input give one message and store nothing."""
    person = interviewer(db, tz="America/Los_Angeles")
    response = coordinator.post(f"/coordinator/interviewers/{person.id}/busy", data=data)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert db.scalar(select(func.count(BusyBlock.id))) == 0


def test_ics_upload_imports_then_replaces(coordinator, db):
    """Uploading an .ics imports its expanded events; uploading again under the same name replaces them."""
    person = interviewer(db, tz="Europe/Berlin")
    url = f"/coordinator/interviewers/{person.id}/import"
    first = coordinator.post(
        url,
        data={"calendar": (io.BytesIO(future_ics()), "work.ics"), "horizon_days": "30"},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "Imported 3 busy blocks from &#39;work&#39;" in first.get_data(as_text=True)
    second = coordinator.post(
        url,
        data={"calendar": (io.BytesIO(future_ics()), "work.ics"), "horizon_days": "30"},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "replacing 3 from the previous import" in second.get_data(as_text=True)
    assert db.scalar(select(func.count(BusyBlock.id))) == 3


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"%PDF-1.7 not a calendar", "is not an .ics calendar"),
        (b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n", "cut short"),
    ],
)
def test_bad_upload_leaves_existing_blocks(coordinator, db, payload, message):
    """A non-calendar or malformed upload says why and keeps the previous import."""
    person = interviewer(db, tz="Europe/Berlin")
    pool.import_busy_ics(db, person.id, future_ics(), "work", now=datetime.now(UTC))
    response = coordinator.post(
        f"/coordinator/interviewers/{person.id}/import",
        data={"calendar": (io.BytesIO(payload), "work.ics"), "horizon_days": "90"},
        content_type="multipart/form-data",
    )
    text = response.get_data(as_text=True)
    assert response.status_code == 400 and "Nothing was imported" in text and message in text
    assert db.scalar(select(func.count(BusyBlock.id))) == 3


def test_upload_without_file_asks_for_one(coordinator, db):
    """Submitting the import form without a file asks for one."""
    person = interviewer(db)
    response = coordinator.post(
        f"/coordinator/interviewers/{person.id}/import",
        data={"horizon_days": "90"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 400 and "Choose an .ics file" in response.get_data(as_text=True)


def test_week_navigation_and_bad_week_parameter(coordinator, db):
    """Prev/next links move by a week; a malformed week falls back to this week with a warning."""
    person = interviewer(db, tz="Asia/Tokyo")
    page = coordinator.get(f"/coordinator/interviewers/{person.id}?week=2026-03-11").get_data(as_text=True)
    assert "Week of Mon 09 Mar 2026" in page and "week=2026-03-02" in page and "week=2026-03-16" in page
    bad = coordinator.get(f"/coordinator/interviewers/{person.id}?week=soon").get_data(as_text=True)
    assert "is not a date; showing this week" in bad
    assert coordinator.get("/coordinator/interviewers/424242").status_code == 404


def test_user_text_is_escaped(coordinator, db):
    """Names and notes with markup are shown as text, including inside confirmation questions."""
    person = interviewer(db, "<script>alert(1)</script> O'Brien")
    pool.add_busy_block(
        db, person.id, datetime(2030, 1, 7, 9), datetime(2030, 1, 7, 10), "<b>bold</b>", actor_id=None
    )
    page = coordinator.get(f"/coordinator/interviewers/{person.id}?week=2030-01-07").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    assert "<b>bold</b>" not in page
    assert re.search(r'data-confirm="[^"]*&lt;script&gt;alert\(1\)&lt;/script&gt; O&#39;Brien', page)
