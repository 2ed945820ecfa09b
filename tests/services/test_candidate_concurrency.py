"""Two candidates picking the same time at the same moment, needing the same people: never a double booking."""

from __future__ import annotations

import threading

import pytest
from candidateworld import MAIL, OFFERS, double_bookings, issue, offers_now
from loopworld import NOW, World
from sqlalchemy import func, select

from planner.core.errors import Conflict
from planner.db import make_session_factory
from planner.models import Interview, Loop, LoopStatus
from planner.services import candidate_booking as booking


@pytest.mark.parametrize("attempt", range(8))
def test_parallel_picks_of_the_same_slot_book_one_loop(committed_db, attempt):
    """Ana is the only compiler assessor and Cleo mentors only 10:00-10:45: both loops need both of them at the
    same moment. Two threads book the same start at once: one wins, the other gets a Conflict, no overlaps."""
    factory = make_session_factory(committed_db)
    with factory() as session:
        world = World(session)
        pool = world.basic_pool()
        pool["ana"].max_per_day, pool["ana"].max_per_week = 5, 10
        pool["cleo"].work_start, pool["cleo"].work_end = "10:00", "10:45"
        loops = [world.loop("Kim Lee", windows=()), world.loop("Lou Park", windows=())]
        session.commit()
        links = {loop.id: issue(session, loop) for loop in loops}
        start = offers_now(session, loops[0]).times[0].start
        assert start in {t.start for t in offers_now(session, loops[1]).times}
    barrier = threading.Barrier(2)
    outcomes: dict[int, object] = {}

    def candidate(loop_id: int) -> None:
        link_id, secret = links[loop_id]
        with factory() as own:
            barrier.wait()
            try:
                booking.book(own, link_id, secret, start, now=NOW, settings=OFFERS, mail=MAIL)
                outcomes[loop_id] = "ok"
            except Conflict as exc:
                outcomes[loop_id] = exc
            except Exception as exc:  # noqa: BLE001 - anything else is a failure the test reports
                outcomes[loop_id] = repr(exc)

    threads = [threading.Thread(target=candidate, args=(loop_id,)) for loop_id in links]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(type(o).__name__ for o in outcomes.values()) == ["Conflict", "str"], outcomes
    assert list(outcomes.values()).count("ok") == 1, outcomes
    with factory() as session:
        assert double_bookings(session) == []
        assert sorted(session.get(Loop, loop_id).status.value for loop_id in links) == ["draft", "scheduled"]
        loser = next(loop_id for loop_id, o in outcomes.items() if o != "ok")
        assert session.scalar(select(func.count(Interview.id)).where(Interview.loop_id == loser)) == 0
        assert session.get(Loop, loser).status == LoopStatus.DRAFT
        # The loser's fresh times no longer hold the start just taken.
        fresh = offers_now(session, session.get(Loop, loser))
        assert start not in {t.start for t in fresh.times}
