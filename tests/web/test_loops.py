"""Loop pages: list, new loop, the proposal (times in every zone), swap, confirm, override, batch."""

from __future__ import annotations

import html
import re

import pytest
from loopworld import World
from sqlalchemy import func, select

from planner.models import AuditEntry, Interview, Loop, LoopStatus


def _token(page: str) -> str:
    match = re.search(r'name="proposal" type="hidden" value="([^"]+)"', page) or \
        re.search(r'id="proposal" name="proposal" type="hidden" value="([^"]+)"', page) or \
        re.search(r'name="proposal"[^>]*value="([^"]+)"', page)
    assert match, "the page carries a signed proposal"
    return html.unescape(match.group(1))


@pytest.fixture
def world(db):
    world = World(db)
    world.basic_pool()
    world.loop_obj = world.loop()
    db.commit()
    return world


def test_loop_pages_list_the_loop(login, world):
    """The loops list and the posting's loops tab show the candidate and its status."""
    client = login("coordinator")
    for url in ("/coordinator/loops", f"/coordinator/postings/{world.posting.id}/loops",
                f"/coordinator/loops?status=draft&posting={world.posting.id}"):
        page = client.get(url).get_data(as_text=True)
        assert "Kim Lee" in page and "Draft" in page
    assert "Kim Lee" not in client.get("/coordinator/loops?status=scheduled").get_data(as_text=True)


def test_other_roles_cannot_reach_loop_pages(login, world):
    """Interviewers and managers are refused on coordinator loop pages."""
    client = login("interviewer")
    assert client.get("/coordinator/loops").status_code == 403
    assert client.get(f"/coordinator/loops/{world.loop_obj.id}/schedule").status_code == 403


def test_new_loop_stores_windows_in_utc_from_the_candidates_zone(login, world, db):
    """Creating a loop reads window times in the candidate's zone and shows the new loop."""
    client = login("coordinator")
    response = client.post("/coordinator/loops/new", data={
        "posting_id": world.posting.id, "candidate_name": "Ana Silva", "candidate_email": "ana@cand.example",
        "candidate_timezone": "Europe/Berlin", "max_gap_minutes": "60",
        "windows-0-day": "2031-01-07", "windows-0-start": "09:00", "windows-0-end": "17:00"})
    assert response.status_code == 302
    loop = db.scalar(select(Loop).order_by(Loop.id.desc()).limit(1))
    assert loop.candidate.name == "Ana Silva"
    assert [(w.start.hour, w.end.hour) for w in loop.windows] == [(8, 16)]
    assert loop.plan_version_id == world.version.id


def test_new_loop_with_bad_window_says_why_and_changes_nothing(login, world, db):
    """A window ending before it starts gets one clear message and no loop is created."""
    client = login("coordinator")
    before = db.scalar(select(func.count(Loop.id)))
    response = client.post("/coordinator/loops/new", data={
        "posting_id": world.posting.id, "candidate_name": "Ana Silva", "candidate_email": "ana@cand.example",
        "candidate_timezone": "Europe/Berlin",
        "windows-0-day": "2031-01-07", "windows-0-start": "17:00", "windows-0-end": "09:00"})
    assert response.status_code == 400
    assert "ends before it starts" in response.get_data(as_text=True)
    assert db.scalar(select(func.count(Loop.id))) == before


def test_schedule_shows_candidate_and_interviewer_local_times_then_confirms(login, world, db):
    """The proposal shows New York and Los Angeles times; confirming creates the interviews."""
    client = login("coordinator")
    loop = world.loop_obj
    page = client.get(f"/coordinator/loops/{loop.id}/schedule").get_data(as_text=True)
    assert "Proposed schedule" in page and "America/New_York" in page and "America/Los_Angeles" in page
    assert "Ana" in page and "Swap" in page and "Move" in page
    response = client.post(f"/coordinator/loops/{loop.id}/schedule/confirm", data={"proposal": _token(page)})
    assert response.status_code == 302
    db.expire_all()
    assert db.get(Loop, loop.id).status == LoopStatus.SCHEDULED
    assert db.scalar(select(func.count(Interview.id)).where(Interview.loop_id == loop.id)) == 2
    view = client.get(f"/coordinator/loops/{loop.id}").get_data(as_text=True)
    assert "Compiler deep-dive" in view and "Scheduled" in view


def test_tampered_proposal_is_refused(login, world, db):
    """A proposal token that was not signed by the app is refused and nothing is created."""
    client = login("coordinator")
    response = client.post(f"/coordinator/loops/{world.loop_obj.id}/schedule/confirm",
                           data={"proposal": "eyJmYWtlIjp0cnVlfQ.bad"})
    assert response.status_code == 302
    assert db.scalar(select(func.count(Interview.id))) == 0


def test_swap_lists_ranked_substitutes_with_why(login, world, db):
    """Swapping the compiler assessor offers the qualified, free people with a reason each."""
    world.person("Ben", "Europe/Berlin", {"compiler-design": "qualified"}, hours=("09:00", "24:00"))
    db.commit()
    client = login("coordinator")
    page = client.get(f"/coordinator/loops/{world.loop_obj.id}/schedule").get_data(as_text=True)
    link = html.unescape(re.search(r'href="([^"]*/schedule/swap[^"]*)"[^>]*aria-label="Swap (Ana|Ben)"',
                                   page).group(1))
    swap = client.get(link).get_data(as_text=True)
    assert "Who can take this seat" in swap
    assert "qualified in compiler-design" in swap
    assert "Cleo" not in re.search(r"Who can take this seat.*?</ol>", swap, re.S).group(0)


def test_uncovered_must_have_needs_a_reason_on_the_page(login, db):
    """Confirming a plan with an uncovered must-have without a reason is refused; with one it is audited."""
    world = World(db, uncovered=True)
    world.basic_pool()
    loop = world.loop()
    db.commit()
    client = login("coordinator")
    page = client.get(f"/coordinator/loops/{loop.id}/schedule").get_data(as_text=True)
    assert "pre-silicon-feedback" in page and "Override reason" in page
    token = _token(page)
    refused = client.post(f"/coordinator/loops/{loop.id}/schedule/confirm", data={"proposal": token})
    assert refused.status_code == 400 and "cannot be scheduled yet" in refused.get_data(as_text=True)
    assert db.scalar(select(func.count(Interview.id))) == 0
    done = client.post(f"/coordinator/loops/{loop.id}/schedule/confirm",
                       data={"proposal": token, "override_reason": "Covered on site by the hardware lead."})
    assert done.status_code == 302
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "coverage_override"))
    assert entry.reason == "Covered on site by the hardware lead."


def test_batch_page_schedules_all_draft_loops(login, world, db):
    """The hiring-event page proposes every draft loop and confirm-all schedules those that fit."""
    world.person("Ben", "Europe/Berlin", {"compiler-design": "qualified"}, hours=("09:00", "24:00"))
    second = world.loop("Lou Park")
    db.commit()
    client = login("coordinator")
    page = client.get(f"/coordinator/postings/{world.posting.id}/loops/schedule").get_data(as_text=True)
    assert "Kim Lee" in page and "Lou Park" in page and "Confirm all 2 schedules" in page
    response = client.post(f"/coordinator/postings/{world.posting.id}/loops/confirm",
                           data={"proposal": _token(page)})
    assert response.status_code == 302
    db.expire_all()
    assert {db.get(Loop, i).status for i in (world.loop_obj.id, second.id)} == {LoopStatus.SCHEDULED}


def test_cancel_loop_needs_a_reason_and_cancels_interviews(login, world, db):
    """Cancelling a scheduled loop cancels its interviews; the reason is audited."""
    client = login("coordinator")
    loop = world.loop_obj
    page = client.get(f"/coordinator/loops/{loop.id}/schedule").get_data(as_text=True)
    client.post(f"/coordinator/loops/{loop.id}/schedule/confirm", data={"proposal": _token(page)})
    client.post(f"/coordinator/loops/{loop.id}/cancel", data={"reason": ""})
    db.expire_all()
    assert db.get(Loop, loop.id).status == LoopStatus.SCHEDULED
    client.post(f"/coordinator/loops/{loop.id}/cancel", data={"reason": "Candidate withdrew."})
    db.expire_all()
    assert db.get(Loop, loop.id).status == LoopStatus.CANCELLED
    assert {i.status.value for i in db.scalars(select(Interview).where(Interview.loop_id == loop.id))} == \
        {"cancelled"}
    reason = db.scalar(select(AuditEntry.reason).where(AuditEntry.action == "loop_cancelled"))
    assert reason == "Candidate withdrew."
