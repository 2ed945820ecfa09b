"""Confirming a proposal: one transaction with invites, re-checks, the coverage override, swaps and moves."""

from __future__ import annotations

from datetime import timedelta

import pytest
from loopworld import NOW, SETTINGS, World, proposal_errors, row_count, utc
from sqlalchemy import select

from planner.core.coverage import UncoveredMustHave
from planner.core.errors import Conflict, ValidationFailed
from planner.models import AuditEntry, Interview, LoopStatus, OutboxMessage, Seat, SeatRole
from planner.services import scheduling
from planner.services.scheduling_problem import parse_z


def test_confirm_creates_interviews_seats_invites_and_audit(db):
    """Confirm writes each round as an interview with seats, a UID, outbox invites and an audit entry."""
    world = World(db)
    pool = world.basic_pool()
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    created = scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=NOW, settings=SETTINGS)
    assert {i.round_key for i in created} == {"tech", "mentor"}
    assert loop.status == LoopStatus.SCHEDULED and loop.plan_version_id == world.version.id
    tech = next(i for i in created if i.round_key == "tech")
    assert tech.uid.endswith("@hire.example") and tech.sequence >= 0
    assert tech.round_detail["kind"] == "technical" and tech.round_detail["minutes"] == 60
    assert {"slug": "compiler-design", "name": "Compiler design", "focus": "primary"} in \
        tech.round_detail["competencies"]
    assert tech.round_detail["focus_questions"] == ["Walk through a pass you designed."]
    seats = {(s.interviewer_id, s.role) for s in tech.seats}
    assert (pool["ana"].id, SeatRole.ASSESSOR) in seats
    assert (pool["dev"].id, SeatRole.TRAINEE) in seats
    assert next(s for s in tech.seats if s.role == SeatRole.TRAINEE).training_level == "shadow"
    recipients = set(db.scalars(select(OutboxMessage.recipient_email)
                                .where(OutboxMessage.interview_id == tech.id)))
    assert {"ana@hire.example", "dev@hire.example", "kim@cand.example"} <= recipients
    assert db.scalar(select(AuditEntry).where(AuditEntry.action == "loop_scheduled",
                                              AuditEntry.entity_id == loop.id)) is not None


def test_confirm_refuses_a_loop_already_scheduled(db):
    """Confirming twice gives a Conflict and writes nothing more."""
    world = World(db)
    world.basic_pool()
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=NOW, settings=SETTINGS)
    before = (row_count(db, Interview), row_count(db, OutboxMessage))
    with pytest.raises(Conflict, match="scheduled meanwhile"):
        scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=NOW, settings=SETTINGS)
    assert (row_count(db, Interview), row_count(db, OutboxMessage)) == before


def test_confirm_rechecks_against_seats_booked_meanwhile(db):
    """A seat booked for the same person after the proposal makes confirm a Conflict; nothing is written."""
    world = World(db)
    pool = world.basic_pool()
    pool["ana"].max_per_day = 2
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    tech = next(i for i in proposal.interviews if i["round"] == "tech")
    start = parse_z(tech["start"])
    world.booked(pool["ana"], start, start + timedelta(minutes=30))
    db.commit()
    before = (row_count(db, Interview), row_count(db, Seat), row_count(db, OutboxMessage))
    with pytest.raises(Conflict, match="no longer fits.*Ana"):
        scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=NOW, settings=SETTINGS)
    assert (row_count(db, Interview), row_count(db, Seat), row_count(db, OutboxMessage)) == before
    assert db.get(type(loop), loop.id).status == LoopStatus.DRAFT


def test_confirm_refuses_a_tampered_proposal(db):
    """A proposal putting an unqualified person in a round is refused by the re-check."""
    world = World(db)
    pool = world.basic_pool()
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    bad = [dict(i, interviewers=[f"p{pool['cleo'].id}"]) if i["round"] == "tech" else i
           for i in proposal.interviews]
    with pytest.raises(Conflict):
        scheduling.confirm(db, loop.id, bad, actor_id=None, now=NOW, settings=SETTINGS)
    assert row_count(db, Interview) == 0


def test_uncovered_must_have_needs_a_written_reason(db):
    """With a must-have no round covers, confirm without a reason is refused and nothing is written."""
    world = World(db, uncovered=True)
    world.basic_pool()
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    assert proposal.uncovered == ["pre-silicon-feedback"]
    for reason in (None, "   "):
        with pytest.raises(UncoveredMustHave):
            scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=NOW, settings=SETTINGS,
                               override_reason=reason)
    assert row_count(db, Interview) == 0 and row_count(db, OutboxMessage) == 0
    assert loop.status == LoopStatus.DRAFT


def test_override_with_a_reason_is_audited(db, make_user):
    """A written reason lets the loop through; the audit entry keeps the reason, actor and waived slugs."""
    world = World(db, uncovered=True)
    world.basic_pool()
    user = make_user()
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    scheduling.confirm(db, loop.id, proposal.interviews, actor_id=user.id, now=NOW, settings=SETTINGS,
                       override_reason="Hardware panel covers it on site.")
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "coverage_override"))
    assert entry.reason == "Hardware panel covers it on site." and entry.actor_id == user.id
    assert entry.details["uncovered"] == ["pre-silicon-feedback"]
    assert loop.coverage_override == "Hardware panel covers it on site."
    assert loop.status == LoopStatus.SCHEDULED


def test_swap_suggestions_all_keep_every_rule(db):
    """Every substitute offered passes the scheduler's validator; unqualified or capped people are not."""
    world = World(db)
    pool = world.basic_pool()
    ben = world.person("Ben", "Europe/Berlin", {"compiler-design": "qualified"}, hours=("09:00", "24:00"))
    eve = world.person("Eve", "America/New_York", {"compiler-design": "qualified"}, caps=(0, 5))
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    tech = next(i for i in proposal.interviews if i["round"] == "tech")
    leaving = int(tech["interviewers"][0][1:])
    options = scheduling.substitutes(db, loop.id, proposal.interviews, "tech", leaving, now=NOW)
    offered = {o.interviewer_id for o in options}
    assert offered, "someone qualified and free should be offered"
    assert pool["cleo"].id not in offered  # not qualified in compiler design
    assert eve.id not in offered  # daily cap 0
    assert offered <= {pool["ana"].id, ben.id}
    for option in options:
        assert option.why and "Compiler design" in option.why
        assert proposal_errors(db, loop.id, option.interviews) == []
    swapped = scheduling.swap(db, loop.id, proposal.interviews, "tech", leaving, options[0].interviewer_id,
                              now=NOW)
    assert f"p{options[0].interviewer_id}" in next(i for i in swapped if i["round"] == "tech")["interviewers"]
    with pytest.raises(ValidationFailed, match="cannot take the seat"):
        scheduling.swap(db, loop.id, proposal.interviews, "tech", leaving, pool["cleo"].id, now=NOW)


def test_move_offers_only_valid_starts_and_refuses_bad_ones(db):
    """Every start offered for a round keeps every rule; a start outside the windows is refused."""
    world = World(db)
    world.basic_pool()
    loop = world.loop(max_gap=None)
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    starts = scheduling.move_options(db, loop.id, proposal.interviews, "mentor", now=NOW)
    assert starts
    for start in starts[:6]:
        moved = scheduling.move(db, loop.id, proposal.interviews, "mentor", start, now=NOW)
        assert proposal_errors(db, loop.id, moved) == []
    with pytest.raises(ValidationFailed, match="cannot move there"):
        scheduling.move(db, loop.id, proposal.interviews, "mentor", utc(2030, 3, 6, 3), now=NOW)


def test_batch_confirm_is_all_or_nothing(db):
    """Confirming several loops writes all of them, or none when one no longer fits."""
    world = World(db)
    world.basic_pool()
    world.person("Ben", "Europe/Berlin", {"compiler-design": "qualified"}, hours=("09:00", "24:00"))
    first, second = world.loop("Kim Lee"), world.loop("Lou Park")
    db.commit()
    proposals = {p.loop_id: p.interviews for p in scheduling.propose_batch(db, world.posting.id, now=NOW)}
    broken = dict(proposals)
    broken[second.id] = [dict(i, start="2030-03-06T03:00:00Z", end="2030-03-06T04:00:00Z")
                         for i in proposals[second.id]]
    with pytest.raises(Conflict):
        scheduling.confirm_many(db, broken, actor_id=None, now=NOW, settings=SETTINGS)
    assert row_count(db, Interview) == 0
    created = scheduling.confirm_many(db, proposals, actor_id=None, now=NOW, settings=SETTINGS)
    assert set(created) == {first.id, second.id}
    assert first.status == second.status == LoopStatus.SCHEDULED
