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



def test_new_loop_takes_a_zone_typed_in_another_case_and_stores_its_real_name(login, world, db):
    """' europe/berlin ' is Europe/Berlin: stored with the tz database's spelling, windows read in it."""
    client = login("coordinator")
    response = client.post("/coordinator/loops/new", data={
        "posting_id": world.posting.id, "candidate_name": "Ana Silva", "candidate_email": "ana@cand.example",
        "candidate_timezone": " europe/berlin ",
        "windows-0-day": "2031-01-07", "windows-0-start": "09:00", "windows-0-end": "17:00"})
    assert response.status_code == 302
    loop = db.scalar(select(Loop).order_by(Loop.id.desc()).limit(1))
    assert loop.candidate.timezone == "Europe/Berlin"
    assert [(w.start.hour, w.end.hour) for w in loop.windows] == [(8, 16)]

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
    assert "qualified in Compiler design" in swap  # the competency by its name, not its slug
    assert "Cleo" not in re.search(r"Who can take this seat.*?</ol>", swap, re.S).group(0)


def test_uncovered_must_have_needs_a_reason_on_the_page(login, db):
    """Confirming a plan with an uncovered must-have without a reason is refused; with one it is audited."""
    world = World(db, uncovered=True)
    world.basic_pool()
    loop = world.loop()
    db.commit()
    client = login("coordinator")
    page = client.get(f"/coordinator/loops/{loop.id}/schedule").get_data(as_text=True)
    # The warning names the competency as people know it, not by its slug.
    assert "The plan leaves must-have\n        <strong>Pre-silicon feedback</strong> uncovered." in page
    assert "pre-silicon-feedback" not in page and "Override reason" in page
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


def test_new_loop_says_every_bad_field_beside_it_at_once(login, world, db):
    """A bad email, an unknown zone and a window without an end are all named at once, each beside its field."""
    client = login("coordinator")
    before = db.scalar(select(func.count(Loop.id)))
    response = client.post(
        "/coordinator/loops/new",
        data={
            "posting_id": world.posting.id,
            "candidate_name": "Ana Silva",
            "candidate_email": "not-an-email",
            "candidate_timezone": "Mars/Olympus",
            "windows-0-day": "2031-01-07",
            "windows-0-start": "09:00",
        },
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "That is not an email address." in page
    assert "&#39;Mars/Olympus&#39; is not a time zone" in page
    assert "Give the time this window ends." in page
    assert 'class="flash flash-error" role="status"' not in page, "errors sit beside the fields, not in a flash"
    assert db.scalar(select(func.count(Loop.id))) == before


def test_a_scheduled_loop_sends_schedule_and_a_second_confirm_back_to_the_loop(login, world, db):
    """After confirming, Schedule (or the Back button's confirm again) goes to the loop with a plain note."""
    client = login("coordinator")
    loop = world.loop_obj
    page = client.get(f"/coordinator/loops/{loop.id}/schedule").get_data(as_text=True)
    token = _token(page)
    assert client.post(f"/coordinator/loops/{loop.id}/schedule/confirm", data={"proposal": token}).status_code == 302
    for again in (
        lambda: client.get(f"/coordinator/loops/{loop.id}/schedule"),
        lambda: client.post(f"/coordinator/loops/{loop.id}/schedule/confirm", data={"proposal": token}),
    ):
        response = again()
        assert response.status_code == 302 and response.location.endswith(f"/coordinator/loops/{loop.id}")
        view = client.get(response.location).get_data(as_text=True)
        assert "Kim Lee&#39;s loop is already scheduled" in view and "flash-info" in view
        assert "only draft loops" not in view and "Conflict" not in view
    assert db.scalar(select(func.count(Interview.id)).where(Interview.loop_id == loop.id)) == 2


def test_unscheduled_reason_keeps_the_names_in_it(login, world, monkeypatch):
    """The reason's first letter is capitalised without lower-casing the round's and people's names."""
    from planner.services import scheduling

    def unscheduled(session, loop_id, *, now, seed=0):
        return scheduling.Proposal(
            loop_id,
            "unscheduled",
            reason="round Compiler deep-dive: Ana Silva is at her weekly cap",
            fixes=["relax the weekly cap of Ana Silva"],
        )

    monkeypatch.setattr(scheduling, "propose", unscheduled)
    client = login("coordinator")
    page = client.get(f"/coordinator/loops/{world.loop_obj.id}/schedule").get_data(as_text=True)
    assert "No schedule fits yet" in page
    assert "Round Compiler deep-dive: Ana Silva is at her weekly cap" in page


def test_swap_and_move_links_jump_to_their_round_and_name_who_leaves(login, world, db):
    """Swap and Move open below their round (#round-key), and the substitutes say whose seat they take."""
    world.person("Ben", "Europe/Berlin", {"compiler-design": "qualified"}, hours=("09:00", "24:00"))
    db.commit()
    client = login("coordinator")
    page = client.get(f"/coordinator/loops/{world.loop_obj.id}/schedule").get_data(as_text=True)
    assert 'id="round-tech"' in page and 'id="round-mentor"' in page
    match = re.search(r'href="([^"]*/schedule/swap[^"]*)"[^>]*aria-label="Swap (Ana|Ben)"', page)
    link, leaving = html.unescape(match.group(1)), match.group(2)
    assert link.endswith("#round-tech")
    move = html.unescape(re.search(r'href="([^"]*/schedule/move[^"]*)"', page).group(1))
    assert re.search(r"#round-(tech|mentor)$", move)
    swap = client.get(link.split("#")[0]).get_data(as_text=True)
    assert f"Who can take this seat instead of {leaving}" in swap
    region = re.search(r"Who can take this seat.*?</ol>", swap, re.S).group(0)
    assert "#round-tech" in html.unescape(region), "choosing a substitute comes back to the round"


def test_batch_page_links_each_unscheduled_loop_to_its_windows(login, world, db):
    """A loop that does not fit says so with a way to its windows; the others' confirm says it stays a draft."""
    from datetime import UTC, datetime

    short = world.loop(
        "Lou Park", windows=((datetime(2030, 3, 7, 14, 0, tzinfo=UTC), datetime(2030, 3, 7, 14, 30, tzinfo=UTC)),)
    )
    db.commit()
    client = login("coordinator")
    page = client.get(f"/coordinator/postings/{world.posting.id}/loops/schedule").get_data(as_text=True)
    assert "not scheduled" in page
    assert f'href="/coordinator/loops/{short.id}/windows" aria-label="Edit windows of Lou Park"' in page
    assert "The 1 loop that does not fit stays a draft." in page


def test_a_date_alone_carries_no_zone_abbreviation():
    """'Thu 10 Dec' beside a time range, not 'Thu 10 Dec EST'; a time keeps its zone."""
    from datetime import UTC, datetime

    from planner.web.filters import local, local_time

    moment = datetime(2030, 3, 6, 15, 0, tzinfo=UTC)
    assert local(moment, "America/New_York", "%a %d %b") == "Wed 06 Mar"
    assert local_time(moment, "America/New_York") == "10:00 EST"
    assert local(moment, "America/New_York") == "Wed 06 Mar 2030, 10:00 EST"


def test_the_windows_page_shows_and_saves_the_longest_break(login, world, db):
    """The break the scheduler's fixes talk about is on the windows page, filled in, and saved with them."""
    client = login("coordinator")
    loop = world.loop_obj
    page = client.get(f"/coordinator/loops/{loop.id}/windows").get_data(as_text=True)
    assert "Longest break between rounds (minutes)" in page
    assert re.search(rf'name="max_gap_minutes"[^>]*value="{loop.max_gap_minutes}"', page)
    window = {"windows-0-day": "2030-03-07", "windows-0-start": "09:00", "windows-0-end": "17:00"}
    for gap, status in (("150", 302), ("9999", 400)):  # the second is refused and changes nothing
        response = client.post(f"/coordinator/loops/{loop.id}/windows", data={"max_gap_minutes": gap, **window})
        assert response.status_code == status
        db.expire_all()
        assert db.get(Loop, loop.id).max_gap_minutes == 150
