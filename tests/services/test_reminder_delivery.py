"""Reminders through the outbox worker to a real SMTP server on loopback: a plain email, never text/calendar."""

from __future__ import annotations

from datetime import timedelta

from invitedata import FIRST_START, SETTINGS, make_loop
from smtputil import smtp_server
from sqlalchemy import select

from planner.models import OutboxMessage, OutboxState
from planner.services import invites, outbox
from planner.services.reminders import queue_reminders

NOW = FIRST_START + timedelta(hours=28)


def _smtp(port: int) -> outbox.SmtpSettings:
    return outbox.SmtpSettings(server="127.0.0.1", port=port, timeout=5)


def test_a_reminder_arrives_as_a_plain_email_beside_calendar_messages(db):
    """Invites and reminders go out in one pass: invites as iMIP, reminders as text + HTML from the organizer."""
    scenario = make_loop(db, rounds=2)
    invites.announce_scheduled(db, [scenario.interviews[0].id], settings=SETTINGS, now=NOW)
    db.commit()
    queued = queue_reminders(db, now=NOW, settings=SETTINGS)
    assert len(queued) == 3
    with smtp_server() as (port, handler):
        report = outbox.run_once(db, _smtp(port), worker_id="w1", now=NOW)
    db.expire_all()
    assert sorted(report.sent) == sorted(db.scalars(select(OutboxMessage.id)).all())
    rows = {m.message_id: m for m in db.scalars(select(OutboxMessage))}
    plain = [r for r in handler.received if rows[str(r.email["Message-ID"])].kind == "reminder"]
    assert len(plain) == 3
    for received in plain:
        email, row = received.email, rows[str(received.email["Message-ID"])]
        assert email.get_content_type() == "multipart/alternative"
        assert [p.get_content_type() for p in email.iter_parts()] == ["text/plain", "text/html"]
        assert not any(p.get_content_type() in ("text/calendar", "application/ics") for p in email.walk())
        assert "method" not in str(email["Content-Type"])
        assert received.mail_from == SETTINGS.organizer_email and received.rcpt_tos == [row.recipient_email]
        assert email["From"].addresses[0].display_name == SETTINGS.organizer_name
        assert email["Subject"] == "Reminder: 2 scorecards overdue"
        body = email.get_body(preferencelist=("plain",)).get_content()
        assert f"/interviewer/interviews/{scenario.interviews[0].id}/scorecard" in body
        assert row.state == OutboxState.SENT and row.sent_at == NOW
    invite = next(r for r in handler.received if rows[str(r.email["Message-ID"])].kind != "reminder")
    assert any(p.get_content_type() == "text/calendar" for p in invite.email.walk())


def test_a_reminder_is_rendered_the_same_for_download(db):
    """The .eml the coordinator downloads is the email the worker sends (same Message-ID, plain parts)."""
    make_loop(db, rounds=1)
    db.commit()
    [message_id] = queue_reminders(db, now=NOW, settings=SETTINGS)[:1]
    message = db.get(OutboxMessage, message_id)
    email = outbox.render_email(message)
    assert email["Message-ID"] == message.message_id and email.get_content_type() == "multipart/alternative"
    assert outbox.eml_bytes(message).count(b"text/calendar") == 0
