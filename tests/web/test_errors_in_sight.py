"""Errors are shown where the coordinator looks: the add-round form answers at its own anchor, an error in
the new-loop form's "More options" opens it and marks the field; the loop's round order is an option."""

from __future__ import annotations

import re

import pytest
from loopworld import NOW, World
from sqlalchemy import func, select

from planner.models import Loop, Round
from planner.services.scheduling import problem_for


@pytest.fixture
def world(db):
    world = World(db)
    world.basic_pool()
    world.loop_obj = world.loop()
    db.commit()
    return world


NEW = {"candidate_name": "Ana Silva", "candidate_email": "ana@cand.example", "candidate_timezone": "Europe/Berlin",
       "max_gap_minutes": "60", "windows-0-day": "2031-01-07", "windows-0-start": "09:00",
       "windows-0-end": "17:00"}


def _more_options(page: str) -> str:
    return re.search(r'<details class="more"[^>]*>', page).group(0)


def test_invalid_add_round_answers_at_the_add_round_form(login, world, db):
    """The add-round form posts to its own anchor, so the answer with the error opens at the form."""
    client = login("coordinator")
    url = f"/coordinator/postings/{world.posting.id}/plan"
    page = client.get(url).get_data(as_text=True)
    assert f'action="{url}/rounds#add-round"' in page
    rounds = db.scalar(select(func.count(Round.id)))
    response = client.post(f"{url}/rounds", data={"name": "", "kind": "technical", "minutes": "45",
                                                  "interviewers": "1"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert 'id="add-round"' in html and 'aria-invalid="true"' in html
    assert db.scalar(select(func.count(Round.id))) == rounds


def test_form_error_inside_more_options_opens_it(login, world, db):
    """A longest break out of range sits in the collapsed box: the box comes back open, the field marked."""
    client = login("coordinator")
    assert "open" not in _more_options(client.get("/coordinator/loops/new").get_data(as_text=True))
    response = client.post("/coordinator/loops/new",
                           data={**NEW, "posting_id": world.posting.id, "max_gap_minutes": "5000"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "open" in _more_options(page)
    assert re.search(r'id="max_gap_minutes"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="max_gap_minutes"',
                     page)


def test_service_error_about_a_field_in_more_options_sits_under_it(login, world, db):
    """The service refuses a video link: the sentence sits under the field in the opened box, not in a banner."""
    client = login("coordinator")
    before = db.scalar(select(func.count(Loop.id)))
    response = client.post("/coordinator/loops/new",
                           data={**NEW, "posting_id": world.posting.id, "video_url": "meet.example/abc"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "open" in _more_options(page)
    field = page[page.index('id="video_url"') - 400:page.index('id="video_url"') + 400]
    assert "The video link must start with https://." in field and "has-error" in field
    assert 'class="flash flash-error" role="status"' not in page, "not a flashed banner"
    assert db.scalar(select(func.count(Loop.id))) == before


def test_a_window_in_the_past_is_said_in_the_windows_box(login, world, db):
    """A service error about the windows is shown inside the windows box, with the date written out."""
    client = login("coordinator")
    response = client.post("/coordinator/loops/new",
                           data={**NEW, "posting_id": world.posting.id, "windows-0-day": "2020-01-07"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert 'id="windows-error"' in page and "Window 1 (Tue 07 Jan 2020) is in the past." in page


def test_rounds_keep_the_plan_order_unless_the_coordinator_allows_any_order(login, world, db):
    """New loops are ordered in the scheduling problem; ticking the option (new loop or windows page) lifts it."""
    client = login("coordinator")
    assert problem_for(db, [world.loop_obj.id], now=NOW)["loops"][0]["ordered"] is True
    response = client.post("/coordinator/loops/new",
                           data={**NEW, "posting_id": world.posting.id, "rounds_any_order": "y"})
    assert response.status_code == 302
    loop = db.scalar(select(Loop).order_by(Loop.id.desc()).limit(1))
    assert loop.rounds_any_order is True
    assert "ordered" not in problem_for(db, [loop.id], now=NOW)["loops"][0]
    page = client.get(f"/coordinator/loops/{loop.id}").get_data(as_text=True)
    assert "any order" in page
    window = {"windows-0-day": "2031-01-07", "windows-0-start": "09:00", "windows-0-end": "17:00",
              "max_gap_minutes": "60"}
    assert client.post(f"/coordinator/loops/{loop.id}/windows", data=window).status_code == 302
    db.expire_all()
    assert db.get(Loop, loop.id).rounds_any_order is False
    assert problem_for(db, [loop.id], now=NOW)["loops"][0]["ordered"] is True
