"""The IMAP poller against a real Dovecot: each message once, also when the poller dies midway."""

from __future__ import annotations

from datetime import timedelta

import pytest
from imaputil import dovecot_server
from loopworld import NOW
from replyworld import answered_loop, mail_answer
from smtputil import free_port
from sqlalchemy import event, func, select

from planner.models import AuditEntry, InboundMessage, InboundOutcome, PartStat, Seat
from planner.services.mailbox import ImapSettings, MailboxUnavailable, poll_once

LATER = NOW + timedelta(hours=1)


class Killed(BaseException):
    """The poller's process dies here (like SIGKILL: nothing after this line runs)."""


@pytest.fixture
def imap():
    with dovecot_server() as server:
        yield server


def _settings(imap, **overrides) -> ImapSettings:
    return ImapSettings.from_mapping({**imap.config, **overrides})


def _count(db, model) -> int:
    return db.scalar(select(func.count()).select_from(model))


def _replies(db) -> int:
    return db.scalar(select(func.count(AuditEntry.id)).where(AuditEntry.action == "reply_recorded"))


def _seat(db, a) -> Seat:
    db.expire_all()
    return db.scalar(select(Seat).where(Seat.interview_id == a.interview.id, Seat.interviewer_id == a.mentor.id))


def test_a_decline_in_the_mailbox_is_applied_once_and_marked_seen(db, session_factory, imap):
    """One pass applies the decline and marks it \\Seen; the next pass finds nothing new."""
    a = answered_loop(db)
    uid = imap.append(mail_answer(db, a.interview, a.mentor, "DECLINED", comment="Conference"))
    report = poll_once(_settings(imap), session_factory, now=lambda: LATER)
    assert report.outcomes == {"applied": 1} and report.remaining == 0
    assert _seat(db, a).partstat == PartStat.DECLINED
    assert "\\Seen" in imap.flags()[uid]
    row = db.scalar(select(InboundMessage))
    assert row.imap_key.startswith("INBOX:") and row.imap_key.endswith(f":{uid}") and row.source == "imap"
    again = poll_once(_settings(imap), session_factory, now=lambda: LATER)
    assert again.processed == 0 and _count(db, InboundMessage) == 1


def test_a_message_someone_already_opened_is_still_read(db, session_factory, imap):
    """Correctness does not hang on \\Seen: a message a person opened in their mail client is processed too."""
    a = answered_loop(db)
    uid = imap.append(mail_answer(db, a.interview, a.mentor, "ACCEPTED"))
    conn = imap.client()
    conn.uid("STORE", str(uid), "+FLAGS", "(\\Seen)")
    conn.logout()
    assert poll_once(_settings(imap), session_factory, now=lambda: LATER).outcomes == {"applied": 1}


def test_killed_after_the_commit_before_marking_seen_is_not_applied_twice(db, session_factory, imap):
    """Dies right after the commit: the message is still unseen; the restart skips it (key known) and marks it."""
    a = answered_loop(db)
    uid = imap.append(mail_answer(db, a.interview, a.mentor, "DECLINED"))

    def die(_row):
        raise Killed

    with pytest.raises(Killed):
        poll_once(_settings(imap), session_factory, now=lambda: LATER, on_processed=die)
    assert "\\Seen" not in imap.flags()[uid]
    assert (_count(db, InboundMessage), _replies(db)) == (1, 1)
    report = poll_once(_settings(imap), session_factory, now=lambda: LATER)
    assert (report.processed, report.marked_late) == (0, 1)
    assert "\\Seen" in imap.flags()[uid]
    assert (_count(db, InboundMessage), _replies(db)) == (1, 1)


def test_killed_before_the_commit_is_applied_once_on_restart(db, session_factory, imap):
    """Dies inside the commit: nothing was written and the message is unseen; the restart applies it once."""
    a = answered_loop(db)
    uid = imap.append(mail_answer(db, a.interview, a.mentor, "DECLINED"))

    def dying_factory():
        session = session_factory()

        @event.listens_for(session, "before_commit")
        def _die(_session):
            raise Killed

        return session

    with pytest.raises(Killed):
        poll_once(_settings(imap), dying_factory, now=lambda: LATER)
    assert (_count(db, InboundMessage), _replies(db)) == (0, 0)
    assert _seat(db, a).partstat is None and "\\Seen" not in imap.flags()[uid]
    assert poll_once(_settings(imap), session_factory, now=lambda: LATER).outcomes == {"applied": 1}
    assert (_count(db, InboundMessage), _replies(db)) == (1, 1)
    assert _seat(db, a).partstat == PartStat.DECLINED and "\\Seen" in imap.flags()[uid]


def test_an_oversized_message_is_refused_without_fetching_its_body(db, session_factory, imap):
    """A message over the cap is refused on the size the server reports; the inbox still names its sender."""
    a = answered_loop(db)
    raw = mail_answer(db, a.interview, a.mentor, "DECLINED")
    raw = raw.replace(b"Answer from my calendar.", b"Answer from my calendar." + b"A" * 3_000)
    imap.append(raw)
    report = poll_once(_settings(imap, INBOUND_MAX_BYTES=2_000), session_factory, now=lambda: LATER)
    assert report.outcomes == {"refused": 1}
    row = db.scalar(select(InboundMessage))
    assert row.outcome == InboundOutcome.REFUSED and "larger than the 2,000 bytes allowed" in row.reason
    assert row.sender == a.mentor.email and row.size > 3_000 and _seat(db, a).partstat is None


def test_batches_leave_the_rest_for_the_next_pass(db, session_factory, imap):
    """With more messages than one batch, a pass says how many are left, oldest first."""
    a = answered_loop(db)
    for minute in range(3):
        imap.append(mail_answer(db, a.interview, a.mentor, "ACCEPTED", now=NOW + timedelta(minutes=minute)))
    first = poll_once(_settings(imap), session_factory, now=lambda: LATER, batch=2)
    assert (first.processed, first.remaining) == (2, 1)
    second = poll_once(_settings(imap), session_factory, now=lambda: LATER, batch=2)
    assert (second.processed, second.remaining) == (1, 0)


def test_unreachable_server_and_wrong_password_say_so(imap, session_factory):
    """Nothing listening, or a refused login: one sentence naming the server."""
    closed = ImapSettings(server="127.0.0.1", port=free_port(), use_ssl=False, timeout=5)
    with pytest.raises(MailboxUnavailable, match=r"^Cannot reach the IMAP server 127\.0\.0\.1:\d+ \(.+\)\.$"):
        poll_once(closed, session_factory, now=lambda: LATER)
    with pytest.raises(MailboxUnavailable, match="mailbox 'Nope' cannot be opened"):
        poll_once(_settings(imap, IMAP_MAILBOX="Nope"), session_factory, now=lambda: LATER)
    # Last: after a failed login Dovecot delays that address's next login by a few seconds.
    with pytest.raises(MailboxUnavailable, match=r"login as recruiting was refused .* \(\[AUTHENTICATIONFAILED\]"):
        poll_once(_settings(imap, IMAP_PASSWORD="wrong"), session_factory, now=lambda: LATER)
