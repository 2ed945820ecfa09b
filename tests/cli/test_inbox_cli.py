"""`planner inbox`: the whole path from a delivered invite to a decline, a flag and a replacement."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from imaputil import dovecot_server
from replyutil import calendar_of, reply_from_request
from replyworld import table_counts
from smtputil import free_port, smtp_server
from sqlalchemy import select

from planner.db import make_session_factory, utcnow
from planner.models import InboundMessage, Interview, Interviewer, OutboxMessage, Seat, SeatRole, SeatStatus
from planner.queries.replies import list_declines
from planner.services import replacements
from planner.services.demo import load_demo
from planner.services.invites import MailSettings
from planner.services.outbox import SmtpSettings, run_once

PLANNER = [sys.executable, "-m", "planner.cli"]


def _env(database_url: str, **extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PLANNER_")}
    return base | {"PLANNER_DATABASE_URL": database_url} | extra


def _inbox(database_url: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([*PLANNER, "inbox", "--once"], capture_output=True, text=True, timeout=180,
                          env=_env(database_url, **extra))


def test_without_a_server_the_inbox_says_so(committed_db, database_url):
    """No IMAP_SERVER: one sentence, exit 0, nothing written."""
    done = _inbox(database_url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith("No IMAP server is configured") and done.stderr == ""
    assert done.stdout.count("\n") == 1


def test_an_unreachable_server_is_one_sentence_and_a_failure(committed_db, database_url):
    """--once against a closed port: exit 1, one line on standard error, no traceback."""
    done = _inbox(database_url, PLANNER_IMAP_SERVER="127.0.0.1", PLANNER_IMAP_PORT=str(free_port()),
                  PLANNER_IMAP_USE_SSL="false")
    assert done.returncode == 1
    assert done.stderr.startswith("Error: Cannot reach the IMAP server 127.0.0.1:")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def _deliver(session, port: int) -> None:
    smtp = SmtpSettings(server="127.0.0.1", port=port)
    while run_once(session, smtp, worker_id="test", now=utcnow()).claimed:
        pass


def _uid_and_method(email: bytes) -> tuple[str, str]:
    calendar = calendar_of(email)
    return str(next(iter(calendar.walk("VEVENT")))["UID"]), str(calendar["METHOD"])


def _sole_assessor(session) -> tuple[Interview, Interviewer]:
    """An upcoming interview of the demo's scheduled loop with one assessor, and that assessor (the demo's
    past loop is over: its interviews are not invited to)."""
    for interview in session.scalars(select(Interview).where(Interview.start > utcnow()).order_by(Interview.start)):
        assessors = [s for s in interview.seats if s.role == SeatRole.ASSESSOR and s.status == SeatStatus.ACTIVE]
        if len(assessors) == 1:
            return interview, assessors[0].interviewer
    raise AssertionError("the demo loop has no round with a single assessor")


@pytest.mark.slow
def test_decline_by_mail_flags_the_loop_and_the_replacement_is_announced(committed_db, database_url):
    """Demo loop -> invites over SMTP -> one REQUEST turned into a Decline REPLY -> IMAP -> `planner inbox --once`
    -> the loop is flagged -> first replacement -> one CANCEL to the old and one REQUEST to the new interviewer;
    the inbox run again changes nothing."""
    factory = make_session_factory(committed_db)
    with factory() as session:
        load_demo(session, now=utcnow())
        interview, leaving = _sole_assessor(session)
        with smtp_server() as (port, handler):
            _deliver(session, port)
    request = next(r.data for r in handler.received if leaving.email in r.rcpt_tos
                   and _uid_and_method(r.data) == (interview.uid, "REQUEST"))
    reply = reply_from_request(request, leaving.email, "DECLINED", now=utcnow(), comment="At a conference that week")
    with dovecot_server() as imap:
        imap.append(reply)
        done = _inbox(database_url, **imap.env)
        assert done.returncode == 0, done.stderr
        assert "Processed 1 messages: 1 applied." in done.stdout
        assert "\\Seen" in imap.flags()[1]

        with factory() as session:
            [flag] = list_declines(session, now=utcnow())
            assert (flag.interviewer_id, flag.interview_id, flag.comment) == (leaving.id, interview.id,
                                                                              "At a conference that week")
            options = replacements.replacement_options(session, interview.id, leaving.id, now=utcnow())
            joining = options.substitutes[0]
            last = session.scalar(select(OutboxMessage.id).order_by(OutboxMessage.id.desc()).limit(1))
            replacements.replace_interviewer(session, interview.id, leaving.id, joining_id=joining.interviewer_id,
                                             reason="declined", actor_id=None, now=utcnow(),
                                             settings=MailSettings.from_mapping({}))
            # (A substitute who gives up a trainee seat elsewhere also gets that round's cancellation.)
            queued = session.execute(select(OutboxMessage.method, OutboxMessage.recipient_email)
                                     .where(OutboxMessage.id > last, OutboxMessage.interview_id == interview.id)).all()
            new_email = session.get(Interviewer, joining.interviewer_id).email
            assert [q for q in queued if q.recipient_email == leaving.email] == [("CANCEL", leaving.email)]
            assert [q for q in queued if q.recipient_email == new_email] == [("REQUEST", new_email)]
            assert list_declines(session, now=utcnow()) == []
            seat = session.scalar(select(Seat).where(Seat.interview_id == interview.id,
                                                     Seat.interviewer_id == leaving.id))
            assert seat.status == SeatStatus.REMOVED
            before = table_counts(session)

        again = _inbox(database_url, **imap.env)
        assert again.returncode == 0, again.stderr
        assert "Processed 0 messages." in again.stdout
        with factory() as session:
            assert table_counts(session) == before
            assert session.scalar(select(InboundMessage.outcome)).value == "applied"
