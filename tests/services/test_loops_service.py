"""Loop use cases: create with local windows, edit windows, cancel with CANCEL messages."""

from __future__ import annotations

from datetime import date, time

import pytest
from loopworld import NOW, SETTINGS, World, utc
from sqlalchemy import func, select

from planner.core.errors import ValidationFailed
from planner.models import InterviewStatus, LoopStatus, OutboxMessage
from planner.services import loops, scheduling
from planner.services.loops import LoopInput, WindowInput


def _input(**changes) -> LoopInput:
    values = {"candidate_name": "Ana Silva", "candidate_email": "ana@cand.example",
              "candidate_timezone": "Asia/Tokyo",
              "windows": [WindowInput(date(2030, 3, 7), time(9), time(18))]}
    values.update(changes)
    return LoopInput(**values)


def test_create_loop_converts_local_windows_and_pins_the_plan(db):
    """Windows typed in Tokyo time are stored in UTC; the loop starts as a draft on the latest version."""
    world = World(db)
    loop = loops.create_loop(db, world.posting.id, _input(), actor_id=None, now=NOW)
    assert [(w.start, w.end) for w in loop.windows] == [(utc(2030, 3, 7, 0), utc(2030, 3, 7, 9))]
    assert loop.status == LoopStatus.DRAFT and loop.plan_version_id == world.version.id
    assert loop.hiring_team == "neuron-compiler"


@pytest.mark.parametrize(("changes", "message"), [
    ({"candidate_timezone": "Mars/Base"}, "not a time zone"),
    ({"candidate_email": "nope"}, "not an email"),
    ({"windows": [WindowInput(date(2030, 3, 1), time(9), time(17))]}, "in the past"),
    ({"windows": [WindowInput(date(2030, 3, 7), time(9), time(12)),
                  WindowInput(date(2030, 3, 7), time(11), time(13))]}, "overlap"),
])
def test_bad_loop_input_changes_nothing(db, changes, message):
    """Each bad field gets one sentence and no loop is written."""
    world = World(db)
    db.commit()
    with pytest.raises(ValidationFailed, match=message):
        loops.create_loop(db, world.posting.id, _input(**changes), actor_id=None, now=NOW)
    assert db.scalar(select(func.count()).select_from(type(world.posting))) == 1


def test_windows_change_only_on_draft_loops(db):
    """Editing windows replaces them on a draft and is refused once scheduled."""
    world = World(db)
    world.basic_pool()
    loop = world.loop()
    db.commit()
    loops.update_windows(db, loop.id, [WindowInput(date(2030, 3, 6), time(9), time(17))], actor_id=None,
                         now=NOW)
    assert [(w.start, w.end) for w in loop.windows] == [(utc(2030, 3, 6, 14), utc(2030, 3, 6, 22))]
    proposal = scheduling.propose(db, loop.id, now=NOW)
    scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=NOW, settings=SETTINGS)
    with pytest.raises(ValidationFailed, match="only on draft"):
        loops.update_windows(db, loop.id, [WindowInput(date(2030, 3, 7), time(9), time(17))], actor_id=None,
                             now=NOW)


def test_cancel_loop_cancels_interviews_and_queues_cancels(db):
    """Cancelling a scheduled loop marks its interviews cancelled and adds CANCEL messages."""
    world = World(db)
    world.basic_pool()
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=NOW, settings=SETTINGS)
    with pytest.raises(ValidationFailed, match="Say why"):
        loops.cancel_loop(db, loop.id, " ", actor_id=None, now=NOW, settings=SETTINGS)
    assert loops.cancel_loop(db, loop.id, "Withdrew", actor_id=None, now=NOW, settings=SETTINGS) == 2
    assert loop.status == LoopStatus.CANCELLED
    assert {i.status for i in loop.interviews} == {InterviewStatus.CANCELLED}
    assert db.scalar(select(func.count(OutboxMessage.id)).where(OutboxMessage.method == "CANCEL")) >= 2


def test_the_longest_break_changes_with_the_windows_and_is_audited(db):
    """The break a fix asks for ('allow more than 60 minutes between rounds') is set where the windows are;
    left out it stays; out of range it is refused and nothing changes."""
    from planner.models import AuditEntry

    world = World(db)
    world.basic_pool()
    loop = world.loop()
    db.commit()
    window = [WindowInput(date(2030, 3, 6), time(9), time(17))]
    before = loop.max_gap_minutes
    loops.update_windows(db, loop.id, window, actor_id=None, now=NOW)
    assert loop.max_gap_minutes == before
    loops.update_windows(db, loop.id, window, actor_id=None, now=NOW, max_gap_minutes=120)
    assert loop.max_gap_minutes == 120
    entry = db.scalars(select(AuditEntry).where(AuditEntry.action == "loop_windows_changed")
                       .order_by(AuditEntry.id.desc())).first()
    assert entry.details["max_gap_minutes"] == {"from": before, "to": 120}
    loops.update_windows(db, loop.id, window, actor_id=None, now=NOW, max_gap_minutes=None)
    assert loop.max_gap_minutes is None
    with pytest.raises(ValidationFailed, match="between 0 and 1440 minutes"):
        loops.update_windows(db, loop.id, [WindowInput(date(2030, 3, 7), time(9), time(17))], actor_id=None,
                             now=NOW, max_gap_minutes=5000)
    db.rollback()
    assert loop.max_gap_minutes is None
    assert [(w.start, w.end) for w in loop.windows] == [(utc(2030, 3, 6, 14), utc(2030, 3, 6, 22))]
