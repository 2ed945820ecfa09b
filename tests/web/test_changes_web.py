"""The pages that fix a scheduled loop: replace, reschedule, cancel one interview, change the place."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from changeutil import last_id, mark_sent, outbox
from loopworld import SETTINGS, World, utc
from sqlalchemy import select

from planner.models import AuditEntry, Interview, InterviewStatus, SeatStatus
from planner.services import scheduling

# The web layer uses the real clock: the loop world is far enough in the future (2030).
NOW = datetime.now(UTC)


@pytest.fixture
def scheduled(db):
    world = World(db)
    pool = world.basic_pool()
    pool["eve"] = world.person("Eve", "Europe/Berlin", {"mentoring": "qualified"}, team="platform",
                               hours=("09:00", "23:00"), caps=(3, 4))
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    assert proposal.scheduled, proposal.reason
    created = scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=NOW, settings=SETTINGS)
    return loop, {i.round_key: i for i in created}, pool


def _leaving(interview):
    return next(s.interviewer for s in interview.seats if s.role.value == "assessor")


def test_loop_view_offers_fixes_per_interview_and_seat(login, scheduled):
    """A scheduled loop's view links Replace per seat and Reschedule / Place / Cancel per interview."""
    client = login("coordinator")
    loop, rounds, _pool = scheduled
    html = client.get(f"/coordinator/loops/{loop.id}").get_data(as_text=True)
    mentor = rounds["mentor"]
    assert f"/coordinator/interviews/{mentor.id}/replace?leaving={_leaving(mentor).id}" in html
    assert f"/coordinator/interviews/{mentor.id}/reschedule" in html
    assert f"/coordinator/interviews/{mentor.id}/cancel" in html
    assert "Calendar messages" in html


def test_replace_page_lists_substitutes_and_replacing_redirects(login, scheduled, db):
    """GET lists the ranked substitutes with why; POST seats the chosen one and queues the messages."""
    client = login("coordinator")
    loop, rounds, pool = scheduled
    mentor = rounds["mentor"]
    leaving = _leaving(mentor)
    joining = pool["eve"] if leaving.name != "Eve" else pool["cleo"]
    page = client.get(f"/coordinator/interviews/{mentor.id}/replace?leaving={leaving.id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f"Use {joining.name}" in html and "qualified in Mentoring" in html
    mark_sent(db)
    mark = last_id(db)
    response = client.post(f"/coordinator/interviews/{mentor.id}/replace",
                           data={"leaving": leaving.id, "reason": "declined", "joining": joining.id})
    assert response.status_code == 302 and response.location.endswith(f"/coordinator/loops/{loop.id}")
    db.expire_all()
    seats = {(s.interviewer_id, s.status) for s in db.get(Interview, mentor.id).seats}
    assert (leaving.id, SeatStatus.REMOVED) in seats and (joining.id, SeatStatus.ACTIVE) in seats
    assert [m[:3] for m in outbox(db, mentor.id, mark)] == [("reassign", "CANCEL", leaving.email),
                                                           ("reassign", "REQUEST", joining.email)]


def test_replace_with_someone_not_offered_is_refused(login, scheduled, db):
    """Posting a person who breaks a rule (Ana is already in the loop): 400 with one sentence, nothing written."""
    client = login("coordinator")
    loop, rounds, pool = scheduled
    mentor = rounds["mentor"]
    mark = last_id(db)
    response = client.post(f"/coordinator/interviews/{mentor.id}/replace",
                           data={"leaving": _leaving(mentor).id, "reason": "declined", "joining": pool["ana"].id})
    assert response.status_code == 400
    assert "no longer fits" in response.get_data(as_text=True)
    assert last_id(db) == mark


def test_reschedule_cancel_and_place_pages(login, scheduled, db):
    """Reschedule to a listed start, change the place of all, cancel one: each redirects and is audited."""
    client = login("coordinator")
    loop, rounds, _pool = scheduled
    mentor, tech = rounds["mentor"], rounds["tech"]
    page = client.get(f"/coordinator/interviews/{mentor.id}/reschedule")
    assert page.status_code == 200
    start = scheduling_start = page.get_data(as_text=True).split('<option value="')[1].split('"')[0]
    response = client.post(f"/coordinator/interviews/{mentor.id}/reschedule",
                           data={"start": start, "reason": "candidate moved"})
    assert response.status_code == 302
    db.expire_all()
    assert db.get(Interview, mentor.id).start == datetime.fromisoformat(scheduling_start)
    bad = client.post(f"/coordinator/interviews/{mentor.id}/reschedule",
                      data={"start": utc(2030, 3, 6, 3, 0).isoformat(), "reason": "x"})
    assert bad.status_code == 400
    response = client.post(f"/coordinator/interviews/{tech.id}/place",
                           data={"location": "", "video_url": "https://meet.example/kim", "scope": "loop"})
    db.expire_all()
    assert response.status_code == 302 and loop.video_url == "https://meet.example/kim"
    bad = client.post(f"/coordinator/interviews/{tech.id}/place",
                      data={"location": "", "video_url": "ftp://x", "scope": "one"})
    assert bad.status_code == 400 and "https://" in bad.get_data(as_text=True)
    response = client.post(f"/coordinator/interviews/{tech.id}/cancel", data={"reason": "Panel unavailable"})
    assert response.status_code == 302
    db.expire_all()
    assert db.get(Interview, tech.id).status == InterviewStatus.CANCELLED
    html = client.get(f"/coordinator/loops/{loop.id}").get_data(as_text=True)
    assert "Panel unavailable" in html and "Compiler design</strong> is now assessed in 0 of 1 required round" in html
    actions = set(db.scalars(select(AuditEntry.action)))
    assert {"interview_rescheduled", "interview_place_changed", "interview_cancelled"} <= actions


def test_pages_are_for_coordinators_only(login, scheduled):
    """A manager gets 403 on the fix pages."""
    client = login("manager")
    _loop, rounds, _pool = scheduled
    mentor = rounds["mentor"]
    assert client.get(f"/coordinator/interviews/{mentor.id}/reschedule").status_code == 403
    assert client.post(f"/coordinator/interviews/{mentor.id}/cancel", data={"reason": "x"}).status_code == 403
    assert client.get("/coordinator/interviews/999999/reschedule").status_code in (403, 404)


def test_replace_page_offers_a_new_time_and_applies_it(login, db):
    """Nobody free at that time: the page shows the scheduler's new time and 'Use the new time' applies it."""
    from planner.models import BusyBlock

    client = login("coordinator")
    world = World(db)
    pool = world.basic_pool()
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    tech = next(i for i in scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=NOW,
                                              settings=SETTINGS) if i.round_key == "tech")
    gus = world.person("Gus", "America/New_York", {"compiler-design": "qualified"}, caps=(3, 6))
    db.add(BusyBlock(interviewer_id=gus.id, start=tech.start, end=tech.end, summary="Dentist"))
    db.commit()
    page = client.get(f"/coordinator/interviews/{tech.id}/replace?leaving={pool['ana'].id}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Use the new time" in html and "in: Gus" in html
    token = re.search(r'name="plan"[^>]*value="([^"]+)"', html).group(1)
    mark_sent(db)
    old_start, mark = tech.start, last_id(db)
    tampered = client.post(f"/coordinator/interviews/{tech.id}/replace",
                           data={"leaving": pool["ana"].id, "reason": "declined", "joining": "plan",
                                 "plan": token[:-2] + "xx"})
    assert tampered.status_code == 400 and last_id(db) == mark
    response = client.post(f"/coordinator/interviews/{tech.id}/replace",
                           data={"leaving": pool["ana"].id, "reason": "declined", "joining": "plan", "plan": token})
    assert response.status_code == 302
    db.expire_all()
    tech = db.get(Interview, tech.id)
    assert tech.start != old_start
    assert ("reassign", "CANCEL", "ana@hire.example") in [m[:3] for m in outbox(db, tech.id, mark)]


def test_reschedule_keeps_the_chosen_start_after_an_error(login, scheduled):
    """A refused reschedule (no reason) keeps the start that was picked, so fixing the reason moves it there."""
    client = login("coordinator")
    _loop, rounds, _pool = scheduled
    mentor = rounds["mentor"]
    page = client.get(f"/coordinator/interviews/{mentor.id}/reschedule").get_data(as_text=True)
    starts = re.findall(r'<option value="([^"]+)"', page)
    assert len(starts) >= 2, "the world offers more than one other start"
    refused = client.post(f"/coordinator/interviews/{mentor.id}/reschedule", data={"start": starts[-1], "reason": ""})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 400 and "Say why the interview moves." in html
    assert re.search(rf'<option value="{re.escape(starts[-1])}" selected>', html)
    assert not re.search(rf'<option value="{re.escape(starts[0])}" selected>', html)


def _options(interview, leaving, plan, *, role="assessor"):
    from planner.services.replacement_search import PlannedChange
    from planner.services.replacements import ReplacementOptions

    changes = [
        PlannedChange(
            interview.id, interview.round_name, interview.start, start, start, [], [], added=added, removed=removed
        )
        for start, added, removed in plan(interview)
    ]
    return ReplacementOptions(interview, leaving, role, [], new_plan=changes)


def test_replace_page_calls_a_same_time_replan_a_new_panel(login, scheduled, monkeypatch):
    """A re-plan that moves no round is offered as a new panel, not as 'a new time'."""
    from planner.services import replacements

    client = login("coordinator")
    _loop, rounds, pool = scheduled
    mentor = rounds["mentor"]
    leaving = _leaving(mentor)
    monkeypatch.setattr(
        replacements,
        "replacement_options",
        lambda session, interview_id, leaving_id, *, now: _options(
            mentor, leaving, lambda i: [(i.start, ["Eve"], [leaving.name])]
        ),
    )
    html = client.get(f"/coordinator/interviews/{mentor.id}/replace?leaving={leaving.id}").get_data(as_text=True)
    assert "Apply the new panel" in html and "a new panel" in html
    assert "Use the new time" not in html and "a new time" not in html


def test_replace_page_does_not_offer_dropping_a_trainee_twice(login, scheduled, monkeypatch):
    """A re-plan that only empties the trainee seat is the Drop button: it is not offered as a plan as well."""
    from planner.services import replacements

    client = login("coordinator")
    _loop, rounds, pool = scheduled
    mentor = rounds["mentor"]
    trainee = pool["dev"]
    monkeypatch.setattr(
        replacements,
        "replacement_options",
        lambda session, interview_id, leaving_id, *, now: _options(
            mentor, trainee, lambda i: [(i.start, [], [trainee.name])], role="trainee"
        ),
    )
    html = client.get(f"/coordinator/interviews/{mentor.id}/replace?leaving={trainee.id}").get_data(as_text=True)
    assert "Drop the trainee seat" in html and "Nobody else can take this trainee seat" in html
    assert 'value="plan"' not in html and "Use the new" not in html


def test_loop_messages_list_the_newest_change_first_and_its_messages_in_written_order(scheduled, db):
    """The invites one confirmation wrote keep their order (the rounds'), and a later change's come first."""
    from datetime import timedelta

    from planner.models import OutboxMessage
    from planner.queries.loops import loop_messages

    loop, _rounds, _pool = scheduled
    listed = loop_messages(db, loop.id)
    assert len(listed) >= 2 and [m.id for m in listed] == sorted(m.id for m in listed)
    last = db.get(OutboxMessage, listed[-1].id)
    last.created_at = last.created_at + timedelta(minutes=5)  # as if a later change had written it
    db.flush()
    again = loop_messages(db, loop.id)
    assert again[0].id == last.id and [m.id for m in again[1:]] == [m.id for m in listed[:-1]]
