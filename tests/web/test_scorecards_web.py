"""The scorecard page: own seats only, not before the start, bad input refused, final once submitted."""

from __future__ import annotations

from datetime import timedelta

import pytest
from invitedata import make_interviewer
from loopworld import World, book
from sqlalchemy import select

from planner.db import utcnow
from planner.models import Competency, Rating, Scorecard, Seat


@pytest.fixture
def panel(db, make_user, client):
    """Olivia (signed in) and Sam assess a started interview, Tia is the trainee; a future one is Olivia's too."""
    world = World(db)
    world.competencies["compiler-design"].rubric_strong = "Designs passes with clear invariants."
    world.competencies["compiler-design"].rubric_weak = "Cannot explain a lowering."
    user = make_user(email="olivia@hire.example", roles=("interviewer",))
    olivia = make_interviewer(db, "Olivia Grant", "olivia@hire.example", "Europe/London", user_id=user.id)
    sam = make_interviewer(db, "Sam Ortiz", "sam@hire.example", "UTC")
    tia = make_interviewer(db, "Tia Trainee", "tia@hire.example", "UTC")
    now = utcnow()
    started = book(db, world, world.loop("Kim Lee"), "tech", now - timedelta(hours=2), [olivia, sam], [tia])
    future = book(db, world, world.loop("Fay Future"), "mentor", now + timedelta(days=2), [olivia])
    theirs = book(db, world, world.loop("Zoe Other"), "mentor", now - timedelta(hours=5), [sam])
    db.commit()
    assert client.post("/login", data={"email": "olivia@hire.example", "password": "password123"}).status_code == 302
    return {"started": started, "future": future, "theirs": theirs, "olivia": olivia, "sam": sam, "tia": tia}


def _url(interview) -> str:
    return f"/interviewer/interviews/{interview.id}/scorecard"


def _submit_other(db, person, interview, scores, notes):
    card = Scorecard(interview_id=interview.id, interviewer_id=person.id, notes=notes, submitted_at=utcnow())
    card.ratings = [Rating(competency_id=cid, score=s) for cid, s in scores.items()]
    db.add(card)
    db.commit()


def test_home_offers_write_for_started_interviews_only(client, panel):
    """The home lists 'Write scorecard' for the started interview, not for the future one."""
    page = client.get("/interviewer/").get_data(as_text=True)
    assert f'href="{_url(panel["started"])}"' in page and "Write scorecard" in page
    assert _url(panel["future"]) not in page
    assert "Scorecards to write" in page


def test_page_lists_competencies_rubric_and_labels(client, panel):
    """The form shows each competency with its rubric hint and the four labelled ratings."""
    page = client.get(_url(panel["started"])).get_data(as_text=True)
    assert "Compiler design" in page and "Mentoring" in page
    assert "Designs passes with clear invariants." in page and "Cannot explain a lowering." in page
    for label in ("Strong no", "No", "Yes", "Strong yes"):
        assert f"{label}</span>" in page
    assert 'name="rating-compiler-design"' in page and "Save draft" in page and "Submit scorecard" in page


def test_save_draft_then_submit(client, db, panel):
    """Save draft keeps values; Submit finalises; the page then shows the scorecard read-only."""
    url = _url(panel["started"])
    response = client.post(url, data={"rating-compiler-design": "3", "notes": "Draft notes", "save": "Save draft"})
    assert response.status_code == 302
    page = client.get(url).get_data(as_text=True)
    assert "Draft notes" in page and 'value="3" checked' in page
    assert client.get("/interviewer/").get_data(as_text=True).count("Edit scorecard") >= 1
    response = client.post(url, data={"rating-compiler-design": "4", "rating-mentoring": "2", "notes": "Evidence",
                                      "submit_card": "Submit scorecard"}, follow_redirects=True)
    page = response.get_data(as_text=True)
    assert "Scorecard submitted" in page and "4 · Strong yes" in page and "2 · No" in page
    assert 'name="rating-' not in page
    db.expire_all()
    card = db.scalar(select(Scorecard).where(Scorecard.interviewer_id == panel["olivia"].id))
    assert card.submitted_at is not None


@pytest.mark.parametrize("data", [
    {"rating-compiler-design": "7", "rating-mentoring": "3"},
    {"rating-compiler-design": "-1"},
    {"rating-compiler-design": "3", "rating-customer-ownership": "3"},
])
def test_bad_input_refused_with_one_message(client, db, panel, data):
    """Ratings outside 1-4 or for competencies the round does not assess: 400, one message, nothing stored."""
    response = client.post(_url(panel["started"]), data={**data, "notes": "n", "submit_card": "Submit scorecard"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert page.count('class="flash flash-error"') == 1 and "Nothing was saved" in page.replace("nothing", "Nothing")
    assert db.scalar(select(Scorecard)) is None


def test_submitted_cannot_be_edited(client, db, panel):
    """A second POST after submitting is refused with 409 and changes nothing."""
    url = _url(panel["started"])
    good = {"rating-compiler-design": "4", "rating-mentoring": "3", "notes": "Final", "submit_card": "Submit"}
    assert client.post(url, data=good).status_code == 302
    response = client.post(url, data={**good, "rating-compiler-design": "1", "notes": "Changed", "save": "Save"})
    assert response.status_code == 409 and "already submitted" in response.get_data(as_text=True)
    db.expire_all()
    card = db.scalar(select(Scorecard))
    assert card.notes == "Final" and sorted(r.score for r in card.ratings) == [3, 4]


def test_panel_hidden_until_own_submitted(client, db, panel):
    """Sam's and Tia's notes stay hidden until Olivia submits; then both show, Tia's marked as training."""
    ids = {slug: db.scalar(select(Competency.id).where(Competency.slug == slug))
           for slug in ("compiler-design", "mentoring")}
    _submit_other(db, panel["sam"], panel["started"], {ids["compiler-design"]: 2, ids["mentoring"]: 2}, "SAM-SECRET")
    _submit_other(db, panel["tia"], panel["started"], {ids["compiler-design"]: 1, ids["mentoring"]: 1}, "TIA-SECRET")
    url = _url(panel["started"])
    page = client.get(url).get_data(as_text=True)
    assert "SAM-SECRET" not in page and "TIA-SECRET" not in page and "Hidden until you submit" in page
    assert "Sam Ortiz: submitted" in page
    client.post(url, data={"rating-compiler-design": "4", "rating-mentoring": "3", "notes": "Mine",
                           "submit_card": "Submit"})
    page = client.get(url).get_data(as_text=True)
    assert "SAM-SECRET" in page and "TIA-SECRET" in page
    assert "Training scorecard, not counted" in page


def test_other_interviewers_interview_is_404(client, db, panel):
    """Another interviewer's interview, a removed seat, or a missing id: 404 on GET and POST."""
    assert client.get(_url(panel["theirs"])).status_code == 404
    assert client.post(_url(panel["theirs"]), data={"notes": "x", "save": "Save"}).status_code == 404
    assert client.get("/interviewer/interviews/999999/scorecard").status_code == 404
    seat = db.scalar(select(Seat).where(Seat.interviewer_id == panel["olivia"].id,
                                        Seat.interview_id == panel["started"].id))
    seat.status = seat.status.__class__("removed")
    db.commit()
    assert client.get(_url(panel["started"])).status_code == 404
    assert db.scalar(select(Scorecard)) is None


def test_not_before_the_interview_starts(client, db, panel):
    """Before the start the page explains when it opens, and a POST is refused with that message."""
    page = client.get(_url(panel["future"])).get_data(as_text=True)
    assert "has not started yet" in page and 'name="rating-' not in page
    response = client.post(_url(panel["future"]), data={"rating-mentoring": "3", "notes": "x", "save": "Save"})
    assert response.status_code == 400 and "has not started yet" in response.get_data(as_text=True)
    assert db.scalar(select(Scorecard)) is None


def test_other_roles_cannot_open_scorecards(client, login, panel):
    """A manager (no interviewer role) gets 403 on the scorecard page."""
    client.post("/logout")
    login("manager")
    assert client.get(_url(panel["started"])).status_code == 403
