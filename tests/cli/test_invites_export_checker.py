"""`planner invites export --history` after every kind of change passes the strict ics_check as a whole.

The checker compares every version of a UID it finds across the folder (current files, itinerary and
history together), so this catches a current file or itinerary that repeats or undoes what the
history already sent.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from invitestory import every_kind_of_change
from loopworld import SETTINGS

from planner.db import make_session_factory
from tests.core.calendar.ics_checker import CHECKER, run_ics_check

PLANNER = [sys.executable, "-m", "planner.cli"]


def _export(database_url: str, loop_id: int, out) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLANNER_")}
    env |= {
        "PLANNER_DATABASE_URL": database_url,
        "PLANNER_UID_DOMAIN": SETTINGS.uid_domain,
        "PLANNER_MAIL_ORGANIZER_EMAIL": SETTINGS.organizer_email,
        "PLANNER_MAIL_ORGANIZER_NAME": SETTINGS.organizer_name,
        "PLANNER_BASE_URL": SETTINGS.base_url,
    }
    return subprocess.run([*PLANNER, "invites", "export", "--loop", str(loop_id), "--out", str(out), "--history"],
                          capture_output=True, text=True, env=env, timeout=120)


def test_export_with_history_of_every_kind_of_change_has_no_problems(committed_db, database_url, tmp_path):
    """Schedule, reschedule, replace an assessor and a trainee, move, change place, cancel one and the loop:
    the whole exported folder gives ics_check 0 problems (and each kind of history file is there)."""
    if not CHECKER.is_file():
        pytest.skip(f"the shared checker {CHECKER} is not beside this checkout (set ICS_CHECK_SCRIPT)")
    with make_session_factory(committed_db)() as session:
        story = every_kind_of_change(session)
    out = tmp_path / "export"
    done = _export(database_url, story.loop_id, out)
    assert done.returncode == 0, done.stderr
    names = {p.relative_to(out).as_posix() for p in out.rglob("*.ics")}
    kinds = {name.rsplit("/", 1)[-1].split("-", 1)[1] for name in names if name.startswith("history/")}
    assert {"invite-request.ics", "update-request.ics", "reassign-cancel.ics", "reassign-request.ics",
            "cancel-cancel.ics", "candidate-request.ics", "candidate-cancel.ics"} <= kinds
    assert {"itinerary.ics", f"interview-{story.tech_id}.ics", f"interview-{story.mentor_id}.ics"} <= names
    result = run_ics_check(out)
    assert result.problems == () and result.returncode == 0, result.output
    assert result.summary.startswith(f"{len(names)} files, 0 problems"), result.summary
