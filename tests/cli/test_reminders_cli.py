"""`planner reminders` and `planner worker` queue scorecard reminders once a day; bad settings are one sentence."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta

from invitedata import make_loop
from smtputil import smtp_server
from sqlalchemy import select

from planner.db import make_session_factory, utcnow
from planner.models import OutboxMessage, OutboxState

PLANNER = [sys.executable, "-m", "planner.cli"]


def _env(database_url: str, **extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PLANNER_")}
    return base | {"PLANNER_DATABASE_URL": database_url} | extra


def _overdue(engine) -> None:
    """A loop whose two interviews ended three days ago, three assessors who submitted nothing."""
    with make_session_factory(engine)() as session:
        make_loop(session, rounds=2, first_start=utcnow().replace(microsecond=0) - timedelta(days=3))
        session.commit()


def _run(database_url: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([*PLANNER, *args], capture_output=True, text=True, timeout=120,
                          env=_env(database_url, **env))


def _reminders(engine) -> list[OutboxMessage]:
    with make_session_factory(engine)() as session:
        return list(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "reminder")))


def test_reminders_once_queues_today_and_only_once(committed_db, database_url):
    """The first run queues one reminder per assessor; a second run the same day queues none."""
    _overdue(committed_db)
    first = _run(database_url, "reminders", "--once")
    assert first.returncode == 0, first.stderr
    assert "Queued 3 scorecard reminders (scorecards are due 24 h after the interview ends)." in first.stdout
    again = _run(database_url, "reminders", "--once")
    assert again.returncode == 0 and "Queued 0 scorecard reminders" in again.stdout
    assert len(_reminders(committed_db)) == 3


def test_worker_once_queues_and_delivers_reminders_as_plain_email(committed_db, database_url):
    """`planner worker --once` queues the due reminders and delivers them in the same pass, without a calendar part."""
    _overdue(committed_db)
    with smtp_server() as (port, handler):
        done = _run(database_url, "worker", "--once", PLANNER_MAIL_SERVER="127.0.0.1", PLANNER_MAIL_PORT=str(port))
    assert done.returncode == 0, done.stderr
    assert "Sent 3, will retry 0, failed 0." in done.stdout
    assert len(handler.received) == 3
    assert all(not any(p.get_content_type() == "text/calendar" for p in r.email.walk()) for r in handler.received)
    assert {m.state for m in _reminders(committed_db)} == {OutboxState.SENT}


def test_switched_off_or_misconfigured(committed_db, database_url):
    """SCORECARD_REMINDERS=off queues nothing and says so; a bad SCORECARD_DUE_HOURS is one sentence, exit 2."""
    _overdue(committed_db)
    off = _run(database_url, "reminders", "--once", PLANNER_SCORECARD_REMINDERS="off")
    assert off.returncode == 0 and "switched off" in off.stdout
    bad = _run(database_url, "reminders", "--once", PLANNER_SCORECARD_DUE_HOURS="soon")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == ("Error: SCORECARD_DUE_HOURS must be a whole number of hours from 1 to 720; "
                                  "it is 'soon'.")
    assert _reminders(committed_db) == []
