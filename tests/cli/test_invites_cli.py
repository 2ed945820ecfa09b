"""`planner invites export`: the loop's invites, itinerary and history as files that pass ics_check."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta

from invitedata import NOW, SETTINGS, make_loop

from planner.db import make_session_factory
from planner.services import invites
from tests.core.calendar.ics_checker import run_ics_check

PLANNER = [sys.executable, "-m", "planner.cli"]


def _run(*args: str, database_url: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLANNER_")}
    env |= {
        "PLANNER_DATABASE_URL": database_url,
        "PLANNER_UID_DOMAIN": SETTINGS.uid_domain,
        "PLANNER_MAIL_ORGANIZER_EMAIL": SETTINGS.organizer_email,
    }
    return subprocess.run([*PLANNER, *args], capture_output=True, text=True, env=env, timeout=120)


def test_export_writes_invites_itinerary_and_history(committed_db, database_url, tmp_path):
    """Export with --history writes one file per interview, the itinerary and each version; all pass."""
    with make_session_factory(committed_db)() as session:
        scenario = make_loop(session, rounds=2)
        first = scenario.interviews[0]
        invites.announce_scheduled(session, [i.id for i in scenario.interviews], settings=SETTINGS, now=NOW)
        first.start += timedelta(hours=3)
        first.end += timedelta(hours=3)
        invites.announce_changed(session, first.id, settings=SETTINGS, now=NOW + timedelta(hours=1))
        session.commit()
        loop_id, ids = scenario.loop.id, [i.id for i in scenario.interviews]
    out = tmp_path / "out"
    done = _run(
        "invites", "export", "--loop", str(loop_id), "--out", str(out), "--history", database_url=database_url
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(f"files to {out}.")
    names = {p.relative_to(out).as_posix() for p in out.rglob("*.ics")}
    assert {"itinerary.ics", *(f"interview-{i}.ics" for i in ids)} <= names
    assert f"history/interview-{ids[0]}/seq01-update-request.ics" in names
    history = out / "history" / f"interview-{ids[0]}"
    result = run_ics_check(
        "--pair", history / "seq00-invite-request.ics", history / "seq01-update-request.ics"
    )
    assert result.returncode == 0, result.output
    for target in (out / "history", out / "itinerary.ics"):
        assert run_ics_check(target).returncode == 0
    plain = tmp_path / "plain"
    assert (
        _run(
            "invites", "export", "--loop", str(loop_id), "--out", str(plain), database_url=database_url
        ).returncode
        == 0
    )
    assert not (plain / "history").exists()


def test_export_of_unknown_loop_is_one_sentence(database_url, tmp_path):
    """An unknown loop id exits non-zero with one sentence and no traceback, writing nothing."""
    done = _run(
        "invites", "export", "--loop", "424242", "--out", str(tmp_path / "x"), database_url=database_url
    )
    assert done.returncode != 0
    assert done.stderr.strip() == "Error: Loop 424242 does not exist."
    assert not (tmp_path / "x").exists()
