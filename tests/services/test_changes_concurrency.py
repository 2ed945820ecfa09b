"""Two coordinators replacing into the same free slot of the same substitute at once: exactly one wins."""

from __future__ import annotations

import threading

import pytest
from loopworld import NOW, SETTINGS, World
from sqlalchemy import select

from planner.core.errors import Conflict
from planner.db import make_session_factory
from planner.models import Interview, OutboxMessage, Seat, SeatStatus
from planner.services import replacements, scheduling


@pytest.mark.parametrize("attempt", range(5))
def test_concurrent_replacements_into_one_slot(committed_db, backend, attempt):
    """Two loops at the same time each lose their mentor; both pick Eve: one succeeds, the other Conflict."""
    if backend != "postgresql":
        pytest.skip("row locks (SELECT ... FOR UPDATE) are what this checks; SQLite has one writer")
    factory = make_session_factory(committed_db)
    with factory() as session:
        world = World(session)
        pool = world.basic_pool()
        gus = world.person("Gus", "America/New_York", {"compiler-design": "qualified"}, caps=(5, 10))
        eve = world.person("Eve", "Europe/Berlin", {"mentoring": "qualified"}, team="platform",
                           hours=("09:00", "23:00"), caps=(5, 10))
        m1 = world.person("Mia", "America/New_York", {"mentoring": "qualified"}, team="x")
        m2 = world.person("Max", "America/New_York", {"mentoring": "qualified"}, team="x")
        first_loop, second_loop = world.loop("Kim Lee"), world.loop("Lou Park")
        session.commit()
        proposal = scheduling.propose(session, first_loop.id, now=NOW)
        assert proposal.scheduled, proposal.reason
        mentors = {}
        # Both loops at the very same times, with their own people: Ana/Mia for one, Gus/Max for the other.
        for loop, tech, mentor in ((first_loop, pool["ana"], m1), (second_loop, gus, m2)):
            items = [dict(i, interviewers=[f"p{(tech if i['round'] == 'tech' else mentor).id}"], trainees=[])
                     for i in proposal.interviews]
            assert scheduling.check(session, loop.id, items, now=NOW) == []
            created = scheduling.confirm(session, loop.id, items, actor_id=None, now=NOW, settings=SETTINGS)
            mentors[loop.id] = (next(i for i in created if i.round_key == "mentor"), mentor)
        (first, m1), (second, m2) = mentors.values()
        assert first.start == second.start
        for interview, mentor in mentors.values():
            options = replacements.replacement_options(session, interview.id, mentor.id, now=NOW)
            assert eve.id in [o.interviewer_id for o in options.substitutes]
        eve_id = eve.id
    barrier = threading.Barrier(2)
    outcomes: dict[int, object] = {}

    def coordinator(interview_id: int, leaving_id: int) -> None:
        with factory() as own:
            barrier.wait()
            try:
                replacements.replace_interviewer(own, interview_id, leaving_id, joining_id=eve_id,
                                                 reason="declined", actor_id=None, now=NOW, settings=SETTINGS)
                outcomes[interview_id] = "ok"
            except Conflict as exc:
                outcomes[interview_id] = exc
            except Exception as exc:  # noqa: BLE001 - anything else is a failure the test reports
                outcomes[interview_id] = repr(exc)

    threads = [threading.Thread(target=coordinator, args=(i.id, m.id)) for i, m in mentors.values()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(type(o).__name__ for o in outcomes.values()) == ["Conflict", "str"], outcomes
    assert list(outcomes.values()).count("ok") == 1, outcomes
    with factory() as session:
        seats = session.scalars(select(Seat).join(Interview).where(Seat.interviewer_id == eve_id,
                                                                   Seat.status == SeatStatus.ACTIVE)).all()
        assert len(seats) == 1
        loser = next(i for i, o in outcomes.items() if o != "ok")
        assert session.scalar(select(OutboxMessage.id).where(OutboxMessage.interview_id == loser,
                                                             OutboxMessage.kind == "reassign")) is None
        loser_seats = session.scalars(select(Seat).where(Seat.interview_id == loser)).all()
        assert [(s.interviewer_id, s.status) for s in loser_seats if s.interviewer_id in (m1.id, m2.id)] \
            == [(m1.id if loser == first.id else m2.id, SeatStatus.ACTIVE)]
