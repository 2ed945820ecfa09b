"""Rescheduling, cancelling and re-placing one interview of a scheduled loop: messages, audit, re-checks."""

from __future__ import annotations

from datetime import timedelta

import pytest
from changeutil import last_id, loop_errors, outbox, scheduled_loop
from loopworld import NOW, SETTINGS, World
from sqlalchemy import func, select

from planner.core.errors import ValidationFailed
from planner.models import AuditEntry, Interview, InterviewStatus, LoopStatus, OutboxMessage
from planner.services import changes


def test_reschedule_options_keep_every_rule_and_moving_sends_updates(db):
    """Every offered start is valid; moving bumps SEQUENCE by one and updates the panel and the candidate."""
    world = World(db)
    world.basic_pool()
    loop, rounds = scheduled_loop(db, world)
    mentor = rounds["mentor"]
    options = changes.reschedule_options(db, mentor.id, now=NOW)
    assert options and mentor.start not in options
    start = options[-1]
    before, mark = mentor.sequence, last_id(db)
    changes.reschedule_interview(db, mentor.id, start, reason="candidate moved", actor_id=None, now=NOW,
                                 settings=SETTINGS)
    mentor = db.get(Interview, mentor.id)
    assert mentor.start == start and mentor.end == start + timedelta(minutes=45)
    assert mentor.sequence == before + 1
    assert outbox(db, mentor.id, mark) == [("update", "REQUEST", "cleo@hire.example", before + 1),
                                           ("itinerary", "REQUEST", "kim@cand.example", before + 1)]
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "interview_rescheduled"))
    assert entry.reason == "candidate moved" and entry.details["to"] == start.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert loop_errors(db, loop.id) == []


def test_reschedule_to_a_time_that_breaks_a_rule_writes_nothing(db):
    """Onto the other round, outside the windows, no reason: one sentence each, nothing written."""
    world = World(db)
    world.basic_pool()
    loop, rounds = scheduled_loop(db, world)
    mentor, tech = rounds["mentor"], rounds["tech"]
    mark, sequence = last_id(db), mentor.sequence
    with pytest.raises(ValidationFailed, match="cannot move there"):
        changes.reschedule_interview(db, mentor.id, tech.start, reason="moved", actor_id=None, now=NOW,
                                     settings=SETTINGS)
    with pytest.raises(ValidationFailed, match="cannot move there"):
        changes.reschedule_interview(db, mentor.id, mentor.start + timedelta(days=3), reason="moved",
                                     actor_id=None, now=NOW, settings=SETTINGS)
    with pytest.raises(ValidationFailed, match="Say why"):
        changes.reschedule_interview(db, mentor.id, mentor.start + timedelta(minutes=15), reason="",
                                     actor_id=None, now=NOW, settings=SETTINGS)
    assert last_id(db) == mark and db.get(Interview, mentor.id).sequence == sequence
    assert db.scalar(select(func.count(AuditEntry.id)).where(AuditEntry.action == "interview_rescheduled")) == 0


def test_cancel_one_interview_sends_cancels_and_keeps_the_loop(db):
    """Cancelling: status cancelled, CANCEL to panel and candidate with SEQUENCE + 1 (stored + 2), audit with
    the reason."""
    world = World(db)
    world.basic_pool()
    loop, rounds = scheduled_loop(db, world)
    tech = rounds["tech"]
    before, mark = tech.sequence, last_id(db)
    changes.cancel_interview(db, tech.id, "Round no longer needed", actor_id=None, now=NOW, settings=SETTINGS)
    tech = db.get(Interview, tech.id)
    assert tech.status == InterviewStatus.CANCELLED and tech.sequence == before + 2
    assert sorted(outbox(db, tech.id, mark)) == sorted([
        ("cancel", "CANCEL", "ana@hire.example", before + 1), ("cancel", "CANCEL", "dev@hire.example", before + 1),
        ("itinerary", "CANCEL", "kim@cand.example", before + 1)])
    assert loop.status == LoopStatus.SCHEDULED
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "interview_cancelled"))
    assert entry.reason == "Round no longer needed"
    with pytest.raises(ValidationFailed, match="cancelled"):
        changes.cancel_interview(db, tech.id, "again", actor_id=None, now=NOW, settings=SETTINGS)
    with pytest.raises(ValidationFailed, match="Say why"):
        changes.cancel_interview(db, rounds["mentor"].id, "  ", actor_id=None, now=NOW, settings=SETTINGS)
    # The rest of the loop can still change: the cancelled round is not held against it.
    assert changes.reschedule_options(db, rounds["mentor"].id, now=NOW)


def test_place_of_one_interview_or_of_the_whole_loop(db):
    """A place change is an update (SEQUENCE + 1) for each interview it changes, and only those."""
    world = World(db)
    world.basic_pool()
    loop, rounds = scheduled_loop(db, world)
    tech, mentor = rounds["tech"], rounds["mentor"]
    seq = {i.id: i.sequence for i in rounds.values()}
    mark = last_id(db)
    assert changes.update_place(db, tech.id, location="Room 4", video_url="", actor_id=None, now=NOW,
                                settings=SETTINGS) == 1
    assert db.get(Interview, tech.id).location == "Room 4" and db.get(Interview, tech.id).sequence == seq[tech.id] + 1
    assert {m[3] for m in outbox(db, tech.id, mark)} == {seq[tech.id] + 1} and outbox(db, mentor.id, mark) == []
    assert {m[0] for m in outbox(db, tech.id, mark)} == {"update", "itinerary"}
    mark = last_id(db)
    assert changes.update_place(db, tech.id, location="", video_url="https://meet.example/kim", whole_loop=True,
                                reason="remote now", actor_id=None, now=NOW, settings=SETTINGS) == 2
    assert loop.video_url == "https://meet.example/kim"
    assert db.get(Interview, mentor.id).sequence == seq[mentor.id] + 1
    assert db.get(Interview, tech.id).sequence == seq[tech.id] + 2
    assert db.scalar(select(func.count(OutboxMessage.id)).where(OutboxMessage.id > mark)) == 5  # 3 + 2 people
    with pytest.raises(ValidationFailed, match="already the place"):
        changes.update_place(db, tech.id, location="", video_url="https://meet.example/kim", actor_id=None,
                             now=NOW, settings=SETTINGS)
    with pytest.raises(ValidationFailed, match="https://"):
        changes.update_place(db, tech.id, location="", video_url="javascript:alert(1)", actor_id=None, now=NOW,
                             settings=SETTINGS)
    assert db.scalar(select(func.count(AuditEntry.id)).where(AuditEntry.action == "interview_place_changed")) == 2
