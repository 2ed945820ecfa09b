"""After cancelling a round: the loop page says what it leaves ("now 1 of 2 required") and offers to book the
round again; booking it again creates a new interview with its invites, audited, after a re-check."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from loopworld import SETTINGS, World
from sqlalchemy import func, select

from planner.models import AuditEntry, Interview, InterviewStatus, OutboxMessage
from planner.services import changes, rebook, scheduling

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
    return world, loop, {i.round_key: i for i in created}


def _cancel(db, interview):
    changes.cancel_interview(db, interview.id, "panel unavailable", actor_id=None, now=NOW, settings=SETTINGS)


def test_cancelling_one_of_two_required_rounds_says_now_1_of_2_and_offers_the_fix(login, scheduled, db):
    """Mentoring needs two rounds (tech gives it secondary focus, mentor primary): cancelling the mentor round
    leaves 1 of 2, said on the loop page with a link that books the round again."""
    world, loop, rounds = scheduled
    mentoring = next(pc for pc in world.posting.competencies
                     if pc.competency_id == world.competencies["mentoring"].id)
    mentoring.required_coverage = 2
    db.commit()
    _cancel(db, rounds["mentor"])
    html = login("coordinator").get(f"/coordinator/loops/{loop.id}").get_data(as_text=True)
    assert "<strong>Mentoring</strong> is now assessed in 1 of 2 required rounds." in html
    assert "still assessed in" not in html
    assert f'href="/coordinator/interviews/{rounds["mentor"].id}/rebook"' in html


def test_a_cancelled_round_whose_competencies_stay_covered_offers_nothing(login, scheduled, db):
    """Mentoring needs one round and the tech round still gives it: no shortfall, no fix to offer."""
    _world, loop, rounds = scheduled
    _cancel(db, rounds["mentor"])
    html = login("coordinator").get(f"/coordinator/loops/{loop.id}").get_data(as_text=True)
    assert "its competency is still assessed in enough other rounds." in html
    assert "/rebook" not in html


def test_booking_the_round_again(login, scheduled, db):
    """The rebook page lists valid times with a panel; booking one creates the interview, its invites and the
    audit entry, and the loop page stops warning."""
    _world, loop, rounds = scheduled
    tech = rounds["tech"]
    _cancel(db, tech)
    client = login("coordinator")
    page = client.get(f"/coordinator/interviews/{tech.id}/rebook")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Book Compiler deep-dive again" in html
    options = re.findall(r'name="option" value="([^"]+)"', html)
    assert options
    for value in options:  # every option keeps every rule
        start, assessors, trainees = rebook.parse_option(value)
        state = rebook._state(db, tech, NOW)
        item = rebook._item("tech", start, 60, [f"p{p}" for p in assessors], [f"p{p}" for p in trainees])
        assert rebook._new_errors(state, item) == []
    messages = db.scalar(select(func.count(OutboxMessage.id)))
    response = client.post(f"/coordinator/interviews/{tech.id}/rebook",
                           data={"option": options[0], "reason": "compiler design short"})
    assert response.status_code == 302
    again = db.scalar(select(Interview).where(Interview.round_key == "tech",
                                              Interview.status == InterviewStatus.SCHEDULED))
    assert again is not None and again.id != tech.id and again.uid != tech.uid
    assert db.scalar(select(func.count(OutboxMessage.id))) > messages
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "interview_rebooked"))
    assert entry.reason == "compiler design short" and entry.loop_id == loop.id
    html = client.get(f"/coordinator/loops/{loop.id}").get_data(as_text=True)
    assert "/rebook" not in html and "is now assessed in" not in html
    assert client.get(f"/coordinator/interviews/{tech.id}/rebook").status_code == 302  # nothing left to book


@pytest.mark.parametrize("option", ["", "garbage", "2030-03-06T15:00:00Z||", "2030-03-06T03:00:00Z|999999|"])
def test_bad_or_stale_option_changes_nothing(login, scheduled, db, option):
    """A malformed, empty or rule-breaking option is refused with one sentence; nothing is written."""
    _world, _loop, rounds = scheduled
    _cancel(db, rounds["tech"])
    before = (db.scalar(select(func.count(Interview.id))), db.scalar(select(func.count(OutboxMessage.id))))
    response = login("coordinator").post(f"/coordinator/interviews/{rounds['tech'].id}/rebook",
                                         data={"option": option, "reason": "x"})
    assert response.status_code == 400
    assert (db.scalar(select(func.count(Interview.id))), db.scalar(select(func.count(OutboxMessage.id)))) == before


def test_only_cancelled_rounds_can_be_booked_again(login, scheduled):
    """A live interview has nothing to book again: the page sends back to the loop with the reason."""
    _world, loop, rounds = scheduled
    client = login("coordinator")
    response = client.get(f"/coordinator/interviews/{rounds['tech'].id}/rebook")
    assert response.status_code == 302 and response.location.endswith(f"/coordinator/loops/{loop.id}")
    assert client.get("/coordinator/interviews/999999/rebook").status_code == 404
