"""Several workers draining one outbox at once: each message is delivered exactly once."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

from invitedata import NOW, SETTINGS, make_interviewer, make_loop
from smtputil import RecordingHandler, smtp_server
from sqlalchemy import func, select

from planner.db import make_session_factory
from planner.models import OutboxMessage, OutboxState
from planner.services import invites, outbox


class SlowHandler(RecordingHandler):
    """Takes a little time per message so the workers really overlap."""

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(0.02)
        return await super().handle_DATA(server, session, envelope)


def _fill(factory) -> int:
    with factory() as session:
        people = [
            make_interviewer(session, f"Person {n}", f"p{n}@hire.example", "Europe/London") for n in range(3)
        ]
        for number in range(5):
            scenario = make_loop(session, rounds=2, existing=people, tag=str(number))
            invites.announce_scheduled(
                session, [i.id for i in scenario.interviews], settings=SETTINGS, now=NOW
            )
        session.commit()
        return session.scalar(select(func.count()).select_from(OutboxMessage))


def _waiting(session) -> int:
    # A claim can lose every candidate to the other worker (SQLite), so "nothing claimed" is not "done".
    session.rollback()
    states = (OutboxState.PENDING, OutboxState.SENDING)
    return session.scalar(
        select(func.count()).select_from(OutboxMessage).where(OutboxMessage.state.in_(states))
    )


def test_two_workers_at_once_deliver_each_message_exactly_once(committed_db):
    """Two worker threads with their own connections share the queue; no message is taken or sent twice."""
    factory = make_session_factory(committed_db)
    total = _fill(factory)
    assert total == 40
    handler = SlowHandler()
    results: dict[str, list[int]] = {"a": [], "b": []}
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    with smtp_server(handler=handler) as (port, _):
        settings = outbox.SmtpSettings(server="127.0.0.1", port=port, timeout=5)

        def work(name: str) -> None:
            try:
                start.wait()
                with factory() as session:
                    while True:
                        report = outbox.run_once(
                            session, settings, worker_id=name, now=NOW + timedelta(seconds=1), batch=3
                        )
                        if report.claimed == 0 and not _waiting(session):
                            return
                        results[name].extend(report.sent)
            except BaseException as exc:  # surfaced below, a thread cannot fail the test itself
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(n,)) for n in results]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert not errors, errors
    assert results["a"] and results["b"], "both workers should have delivered some messages"
    assert not set(results["a"]) & set(results["b"])
    assert len(results["a"]) + len(results["b"]) == total
    ids = handler.message_ids()
    assert len(ids) == len(set(ids)) == total
    with factory() as session:
        states = session.scalars(select(OutboxMessage.state)).all()
    assert set(states) == {OutboxState.SENT}
