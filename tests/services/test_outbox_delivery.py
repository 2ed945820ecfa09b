"""The outbox worker against a real SMTP server on loopback: delivery, retries, refusals, crashes."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from invitedata import NOW, SETTINGS, make_loop
from smtputil import RecordingHandler, free_port, smtp_server
from sqlalchemy import select

from planner.core.errors import ValidationFailed
from planner.models import AuditEntry, OutboxMessage, OutboxState
from planner.services import invites, outbox
from tests.core.calendar.ics_checker import run_ics_check


def _smtp(port: int, **kw) -> outbox.SmtpSettings:
    return outbox.SmtpSettings(server="127.0.0.1", port=port, timeout=5, retry_base=60, **kw)


def _queue(db, rounds=1):
    scenario = make_loop(db, rounds=rounds)
    count = invites.announce_scheduled(db, [i.id for i in scenario.interviews], settings=SETTINGS, now=NOW)
    db.commit()
    return scenario, count


def _states(db) -> dict[int, OutboxState]:
    db.expire_all()
    return {m.id: m.state for m in db.scalars(select(OutboxMessage))}


def test_worker_delivers_imip_email_from_the_organizer(db, tmp_path):
    """Each message arrives once as iMIP email from the ORGANIZER, is marked sent and passes ics_check."""
    _, count = _queue(db)
    with smtp_server() as (port, handler):
        report = outbox.run_once(db, _smtp(port), worker_id="w1", now=NOW)
    assert len(report.sent) == count == 4
    assert set(_states(db).values()) == {OutboxState.SENT}
    rows = {m.message_id: m for m in db.scalars(select(OutboxMessage))}
    assert sorted(handler.message_ids()) == sorted(rows)
    for number, received in enumerate(handler.received):
        email = received.email
        row = rows[str(email["Message-ID"])]
        assert received.mail_from == "recruiting@hire.example"
        assert email["From"].addresses[0].addr_spec == "recruiting@hire.example"
        assert received.rcpt_tos == [row.recipient_email]
        assert email.get_content_type() == "multipart/mixed"
        calendar_part = next(p for p in email.walk() if p.get_content_type() == "text/calendar")
        assert calendar_part.get_param("method") == "REQUEST"
        assert row.sent_at == NOW and row.attempts == 1
        (tmp_path / f"message-{number}.eml").write_bytes(received.data)
    result = run_ics_check(tmp_path)
    assert result.returncode == 0, result.output
    assert result.summary.startswith("4 files, 0 problems")


def test_server_down_then_up_loses_nothing_and_doubles_nothing(db):
    """With the server down every message waits with backoff; once it is up each arrives exactly once."""
    _, count = _queue(db, rounds=2)
    port = free_port()
    settings = _smtp(port)
    report = outbox.run_once(db, settings, worker_id="w1", now=NOW)
    assert len(report.retrying) == count and not report.sent
    db.expire_all()
    for message in db.scalars(select(OutboxMessage)):
        assert message.state == OutboxState.PENDING and message.attempts == 1
        assert message.next_attempt_at == NOW + timedelta(seconds=60)
        assert "cannot reach the mail server" in message.last_error
    # Not due yet: nothing is claimed before the backoff has passed.
    assert outbox.run_once(db, settings, worker_id="w1", now=NOW + timedelta(seconds=30)).claimed == 0
    with smtp_server(port) as (_, handler):
        later = NOW + timedelta(seconds=61)
        report = outbox.run_once(db, settings, worker_id="w1", now=later)
        assert outbox.run_once(db, settings, worker_id="w1", now=later + timedelta(hours=2)).claimed == 0
    assert len(report.sent) == count
    ids = handler.message_ids()
    assert len(ids) == len(set(ids)) == count
    assert set(_states(db).values()) == {OutboxState.SENT}


def test_backoff_doubles_and_gives_up_after_max_attempts(db):
    """Each failed try doubles the wait; after max_attempts the message is failed with the reason."""
    _queue(db)
    settings = _smtp(free_port(), max_attempts=3)
    now = NOW
    waits = []
    for _ in range(3):
        outbox.run_once(db, settings, worker_id="w1", now=now)
        db.expire_all()
        message = db.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).first()
        waits.append(message.next_attempt_at - now)
        now = message.next_attempt_at
    assert waits[:2] == [timedelta(seconds=60), timedelta(seconds=120)]
    assert message.state == OutboxState.FAILED
    assert message.last_error.startswith("gave up after 3 attempts")


def test_refused_recipient_fails_with_reason_and_others_are_sent(db):
    """A 550 for one recipient marks that message failed with the server's reason; the rest are delivered."""
    _queue(db)
    handler = RecordingHandler(refuse={"oliver@hire.example"})
    with smtp_server(handler=handler) as (port, _):
        report = outbox.run_once(db, _smtp(port), worker_id="w1", now=NOW)
    assert len(report.sent) == 3 and len(report.failed) == 1
    failed = db.get(OutboxMessage, report.failed[0])
    assert failed.recipient_email == "oliver@hire.example"
    assert failed.state == OutboxState.FAILED
    assert "550" in failed.last_error and "mailbox unavailable" in failed.last_error
    assert "oliver@hire.example" not in {r for m in handler.received for r in m.rcpt_tos}


def test_temporary_refusal_is_retried(db):
    """A 450 answer is temporary: the message goes back to pending with backoff, then is delivered."""
    _queue(db)
    handler = RecordingHandler(refuse={"priya@hire.example"}, refuse_code="450 4.2.1 try later")
    with smtp_server(handler=handler) as (port, _):
        report = outbox.run_once(db, _smtp(port), worker_id="w1", now=NOW)
        assert len(report.retrying) == 1
        message = db.get(OutboxMessage, report.retrying[0])
        assert message.state == OutboxState.PENDING and "450" in message.last_error
        handler.refuse.clear()
        again = outbox.run_once(db, _smtp(port), worker_id="w1", now=NOW + timedelta(minutes=5))
    assert again.sent == [message.id]


def test_crash_between_send_and_mark_resends_the_same_message_id(db):
    """A message a dead worker left in 'sending' is re-sent, same Message-ID, once its lock expires."""
    _queue(db)
    claimed = outbox.claim(db, worker_id="dead", now=NOW, limit=1, lock_timeout=300)
    assert len(claimed) == 1
    with smtp_server() as (port, handler):
        settings = _smtp(port, lock_timeout=300)
        # The dead worker got as far as handing the message to the server.
        row = db.get(OutboxMessage, claimed[0])
        with smtplib.SMTP("127.0.0.1", port) as client:
            client.send_message(outbox.render_email(row, date=NOW))
        # While its lock is fresh nobody else touches it.
        first = outbox.run_once(db, settings, worker_id="w2", now=NOW + timedelta(seconds=10))
        assert claimed[0] not in first.sent and first.claimed == 3
        second = outbox.run_once(db, settings, worker_id="w2", now=NOW + timedelta(seconds=301))
    assert second.sent == claimed
    same = [r for r in handler.received if str(r.email["Message-ID"]) == row.message_id]
    assert len(same) == 2
    ics = [
        next(p for p in r.email.walk() if p.get_content_type() == "text/calendar").get_content() for r in same
    ]
    assert ics[0] == ics[1]  # same UID, same SEQUENCE: a calendar applies the second copy as a no-op
    db.expire_all()
    assert db.get(OutboxMessage, claimed[0]).state == OutboxState.SENT
    assert db.get(OutboxMessage, claimed[0]).attempts == 2


def test_resend_puts_failed_and_sent_messages_back(db, make_user):
    """Resend turns a failed or sent message into a due pending one, audits it, and refuses pending ones."""
    _queue(db)
    user = make_user()
    messages = list(db.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
    messages[0].state, messages[0].last_error, messages[0].attempts = OutboxState.FAILED, "550 no", 3
    messages[1].state = OutboxState.SENT
    db.commit()
    old_id = messages[1].message_id
    later = NOW + timedelta(days=1)
    failed = outbox.resend(db, messages[0].id, actor_id=user.id, now=later)
    assert (failed.state, failed.attempts, failed.last_error, failed.next_attempt_at) == (
        OutboxState.PENDING,
        0,
        "",
        later,
    )
    sent = outbox.resend(db, messages[1].id, actor_id=user.id, now=later)
    assert sent.state == OutboxState.PENDING and sent.message_id != old_id
    with pytest.raises(ValidationFailed):
        outbox.resend(db, messages[2].id, actor_id=user.id, now=later)
    actions = db.scalars(select(AuditEntry.action)).all()
    assert actions.count("outbox.resend") == 2
