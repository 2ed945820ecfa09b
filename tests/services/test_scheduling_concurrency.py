"""Two coordinators confirming clashing schedules at the same moment never double-book anybody."""

from __future__ import annotations

import threading

import pytest
from loopworld import NOW, SETTINGS, World
from sqlalchemy import select
from sqlalchemy.orm import aliased

from planner.core.errors import Conflict
from planner.db import make_session_factory
from planner.models import Interview, InterviewStatus, Seat, SeatStatus
from planner.services import scheduling


def _overlaps(session) -> list[tuple]:
    """Pairs of active seats of one person in overlapping, non-cancelled interviews."""
    s1, s2 = aliased(Seat), aliased(Seat)
    i1, i2 = aliased(Interview), aliased(Interview)
    return session.execute(
        select(s1.interviewer_id, i1.id, i2.id)
        .join(i1, i1.id == s1.interview_id).join(s2, s2.interviewer_id == s1.interviewer_id)
        .join(i2, i2.id == s2.interview_id)
        .where(s1.id < s2.id, s1.status == SeatStatus.ACTIVE, s2.status == SeatStatus.ACTIVE,
               i1.status != InterviewStatus.CANCELLED, i2.status != InterviewStatus.CANCELLED,
               i1.start < i2.end, i2.start < i1.end)).all()


@pytest.mark.parametrize("attempt", range(10))
def test_concurrent_confirms_of_clashing_proposals(committed_db, attempt):
    """Two sessions confirm proposals booking the same people at the same time: one wins, one Conflict."""
    factory = make_session_factory(committed_db)
    with factory() as session:
        world = World(session)
        pool = world.basic_pool()
        pool["ana"].max_per_day, pool["ana"].max_per_week = 5, 10
        first, second = world.loop("Kim Lee"), world.loop("Lou Park")
        session.commit()
        loop_ids = [first.id, second.id]
        proposal = scheduling.propose(session, first.id, now=NOW)
        assert proposal.scheduled, proposal.reason
        # Each coordinator's proposal alone is valid; together they seat Ana and Cleo twice at once.
        assert scheduling.check(session, second.id, proposal.interviews, now=NOW) == []
    barrier = threading.Barrier(2)
    outcomes: dict[int, object] = {}

    def coordinator(loop_id: int) -> None:
        with factory() as own:
            barrier.wait()
            try:
                scheduling.confirm(own, loop_id, proposal.interviews, actor_id=None, now=NOW,
                                   settings=SETTINGS)
                outcomes[loop_id] = "ok"
            except Conflict as exc:
                outcomes[loop_id] = exc
            except Exception as exc:  # noqa: BLE001 - anything else is a failure the test reports
                outcomes[loop_id] = repr(exc)

    threads = [threading.Thread(target=coordinator, args=(loop_id,)) for loop_id in loop_ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(type(o).__name__ for o in outcomes.values()) == ["Conflict", "str"], outcomes
    assert list(outcomes.values()).count("ok") == 1, outcomes
    with factory() as session:
        assert _overlaps(session) == []
        statuses = {loop_id: session.get(type(first), loop_id).status for loop_id in loop_ids}
        assert sorted(s.value for s in statuses.values()) == ["draft", "scheduled"]
        loser = next(loop_id for loop_id, o in outcomes.items() if o != "ok")
        assert session.scalar(select(Interview.id).where(Interview.loop_id == loser)) is None
        # The loser gets a fresh proposal that fits around the winner's seats.
        fresh = scheduling.propose(session, loser, now=NOW)
        if fresh.scheduled:
            assert scheduling.check(session, loser, fresh.interviews, now=NOW) == []
