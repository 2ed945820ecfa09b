"""The interviewer form names every wrong field in one answer, not one per submit."""

from __future__ import annotations

from poolutil import interviewer
from sqlalchemy import func, select

from planner.models import Interviewer
from tests.web.test_pool import FORM


def test_every_wrong_field_is_reported_at_once(login, db):
    """Bad email, unknown zone, end before start and a daily cap above the weekly one: four sentences at once."""
    client = login("coordinator")
    data = {**FORM, "email": "not-an-email", "timezone": "Europe/Atlantis", "work_start": "18:00",
            "work_end": "09:00", "max_per_day": "6", "max_per_week": "5"}
    response = client.post("/coordinator/interviewers/new", data=data)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "is not an email address" in html
    assert "is not a known time zone" in html
    assert "must be after they start" in html
    assert "larger than the weekly cap" in html
    assert db.scalar(select(func.count(Interviewer.id))) == 0


def test_form_and_service_errors_come_together(login, db):
    """A missing name (the form's own check) and an unknown zone and a taken email (the service's) together."""
    client = login("coordinator")
    taken = interviewer(db, tz="Europe/Berlin")
    db.commit()
    response = client.post("/coordinator/interviewers/new",
                           data={**FORM, "name": "", "email": taken.email, "timezone": "Mars/Olympus"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "A name is required." in html
    assert f"Another interviewer already uses {taken.email}" in html
    assert "is not a known time zone" in html
    assert db.scalar(select(func.count(Interviewer.id))) == 1


def test_edit_reports_every_wrong_field_too(login, db):
    """The edit form answers the same way, and changes nothing."""
    client = login("coordinator")
    person = interviewer(db, tz="Europe/Berlin")
    db.commit()
    response = client.post(f"/coordinator/interviewers/{person.id}/edit",
                           data={**FORM, "email": person.email, "timezone": "Nowhere", "work_days": [],
                                 "max_per_day": "-1"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "is not a known time zone" in html and "Pick at least one working day" in html
    assert "cannot be below zero" in html
    db.expire_all()
    assert db.get(Interviewer, person.id).timezone == "Europe/Berlin"
