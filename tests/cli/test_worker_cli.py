"""`planner worker`: no server leaves the outbox alone; a server gets everything, also from two processes."""

from __future__ import annotations

import os
import subprocess
import sys

from invitedata import SETTINGS, make_loop
from smtputil import smtp_server
from sqlalchemy import select

from planner.db import make_session_factory, utcnow
from planner.models import OutboxMessage, OutboxState
from planner.services import invites

PLANNER = [sys.executable, "-m", "planner.cli"]


def _env(database_url: str, **extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PLANNER_")}
    # These tests count calendar messages; scorecard reminders (tests/cli/test_reminders_cli.py) would add
    # to them once the test interviews lie more than a day in the past.
    return base | {"PLANNER_DATABASE_URL": database_url, "PLANNER_SCORECARD_REMINDERS": "off"} | extra


def _queue(engine, loops: int = 1) -> int:
    with make_session_factory(engine)() as session:
        for number in range(loops):
            scenario = make_loop(
                session,
                rounds=2,
                tag=str(number),
                people=[(f"P{number}-{k}", f"p{number}-{k}@hire.example", "UTC") for k in range(3)],
            )
            invites.announce_scheduled(
                session, [i.id for i in scenario.interviews], settings=SETTINGS, now=utcnow()
            )
        session.commit()
        return len(session.scalars(select(OutboxMessage.id)).all())


def _states(engine) -> list[OutboxState]:
    with make_session_factory(engine)() as session:
        return list(session.scalars(select(OutboxMessage.state)))


def test_without_a_server_the_worker_says_so_and_touches_nothing(committed_db, database_url):
    """No MAIL_SERVER: one sentence, exit 0, every message still pending with no attempt counted."""
    _queue(committed_db)
    done = subprocess.run(
        [*PLANNER, "worker", "--once"], capture_output=True, text=True, timeout=120, env=_env(database_url)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith("No SMTP server is configured")
    assert done.stdout.count(".") == 1 and done.stderr == ""
    with make_session_factory(committed_db)() as session:
        rows = session.scalars(select(OutboxMessage)).all()
    assert {(m.state, m.attempts) for m in rows} == {(OutboxState.PENDING, 0)}


def test_worker_once_delivers_everything_due(committed_db, database_url):
    """`planner worker --once` with MAIL_SERVER set delivers every pending message and reports the count."""
    total = _queue(committed_db)
    with smtp_server() as (port, handler):
        done = subprocess.run(
            [*PLANNER, "worker", "--once"],
            capture_output=True,
            text=True,
            timeout=120,
            env=_env(database_url, PLANNER_MAIL_SERVER="127.0.0.1", PLANNER_MAIL_PORT=str(port)),
        )
    assert done.returncode == 0, done.stderr
    assert f"Sent {total}, will retry 0, failed 0." in done.stdout
    assert len(handler.received) == total
    assert set(_states(committed_db)) == {OutboxState.SENT}


def test_two_worker_processes_share_the_queue(committed_db, database_url):
    """Two `planner worker --once` processes started together deliver each message exactly once."""
    total = _queue(committed_db, loops=4)
    with smtp_server() as (port, handler):
        env = _env(database_url, PLANNER_MAIL_SERVER="127.0.0.1", PLANNER_MAIL_PORT=str(port))
        procs = [
            subprocess.Popen(
                [*PLANNER, "worker", "--once", "--batch", "2"],
                env=env,
                text=True,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for _ in range(2)
        ]
        outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    ids = handler.message_ids()
    assert len(ids) == len(set(ids)) == total
    assert set(_states(committed_db)) == {OutboxState.SENT}


def test_worker_help_lists_options():
    """The command is registered with --once and --interval."""
    done = subprocess.run([*PLANNER, "worker", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--once" in done.stdout and "--interval" in done.stdout
