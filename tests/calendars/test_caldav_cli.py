"""`planner calendars sync|keygen|rotate-key` as a separate process against a real Radicale."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

from caldavutil import KEY, SETTINGS, vcalendar, vevent
from radicaleutil import PASSWORD
from sqlalchemy import func, select

from planner.db import make_session_factory
from planner.models import BusyBlock, CalendarSource
from planner.services import pool
from planner.services.calendars import CalendarInput, set_calendar

PLANNER = [sys.executable, "-m", "planner.cli"]


def _env(database_url: str, **extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PLANNER_")}
    return base | {"PLANNER_DATABASE_URL": database_url, "PLANNER_CALENDAR_SECRET_KEY": KEY} | extra


def _run(database_url: str, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([*PLANNER, "calendars", *args], capture_output=True, text=True, timeout=120,
                          env=_env(database_url, **extra))


def _people(engine, radicale) -> tuple[int, int]:
    """Ana with a good calendar (one meeting tomorrow), Bo whose password is wrong."""
    calendar = radicale.new_calendar()
    day = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y%m%d")
    calendar.save_event(vcalendar(vevent("cli@test", f"{day}T100000", f"{day}T110000", "Planning")))
    with make_session_factory(engine)() as session:
        ids = []
        for name, password in (("Ana Ruiz", PASSWORD), ("Bo Berg", "wrong-password")):
            person = pool.create_interviewer(session, pool.InterviewerInput(
                name=name, email=f"{name.split()[0].lower()}@example.com", timezone="Europe/London"), actor_id=None)
            set_calendar(session, person.id, CalendarInput(str(calendar.url), "ana", password), settings=SETTINGS,
                         actor_id=None)
            ids.append(person.id)
    return ids[0], ids[1]


def test_sync_reports_each_calendar_and_fails_for_the_bad_one(committed_db, database_url, radicale):
    """One line per person; the refused one on standard error; exit 1; the good one's block is stored."""
    ana, bo = _people(committed_db, radicale)

    done = _run(database_url, "sync")

    assert done.returncode == 1
    assert "Ana Ruiz: 1 busy block from 1 event." in done.stdout and "Synced 1 of 2 calendars." in done.stdout
    assert done.stderr.strip().splitlines() == [
        "Error: Bo Berg: sync failed: The calendar server refused the user name or password (HTTP 401); "
        "check them, or use an app password."]
    assert "Traceback" not in done.stderr and "wrong-password" not in done.stderr + done.stdout

    only = _run(database_url, "sync", "--interviewer", str(ana))
    assert only.returncode == 0 and "Nothing changed on the calendar server" in only.stdout
    with make_session_factory(committed_db)() as session:
        assert session.scalar(select(func.count()).select_from(BusyBlock)) == 1


def test_bad_arguments_and_missing_key(committed_db, database_url, radicale):
    """Unknown person, no calendar, no key: one sentence each, nothing written."""
    ana, _bo = _people(committed_db, radicale)
    unknown = _run(database_url, "sync", "--interviewer", "999")
    assert unknown.returncode == 2 and unknown.stderr.strip() == "Error: There is no interviewer #999."
    assert _run(database_url, "sync", "--interviewer", "x").returncode == 2
    no_key = _run(database_url, "sync", "--interviewer", str(ana), PLANNER_CALENDAR_SECRET_KEY="")
    assert no_key.returncode == 1 and "no calendar secret key is configured" in no_key.stderr
    with make_session_factory(committed_db)() as session:
        assert session.scalar(select(func.count()).select_from(BusyBlock)) == 0


def test_keygen_and_rotation(committed_db, database_url, radicale):
    """keygen prints a usable key; rotate-key re-encrypts under it, after which the old key can go."""
    ana, _bo = _people(committed_db, radicale)
    new_key = _run(database_url, "keygen").stdout.strip()
    assert len(new_key) == 44

    rotated = _run(database_url, "rotate-key", PLANNER_CALENDAR_SECRET_KEY=f"{new_key},{KEY}")
    assert rotated.returncode == 0 and "Re-encrypted 2 calendar passwords" in rotated.stdout

    synced = _run(database_url, "sync", "--interviewer", str(ana), PLANNER_CALENDAR_SECRET_KEY=new_key)
    assert synced.returncode == 0, synced.stderr
    with make_session_factory(committed_db)() as session:
        assert session.scalar(select(CalendarSource.last_block_count).where(
            CalendarSource.interviewer_id == ana)) == 1


def test_two_syncs_at_once_leave_one_set_of_blocks(committed_db, radicale):
    """Two processes syncing the same calendar at the same moment take turns on the calendar row: the
    second replaces the first's blocks instead of adding a second copy."""
    import threading

    from planner.services.calendars import sync_calendar

    ana, _bo = _people(committed_db, radicale)
    factory = make_session_factory(committed_db)
    reports, barrier = [], threading.Barrier(2)

    def sync(hours: int) -> None:
        with factory() as session:
            barrier.wait()
            reports.append(sync_calendar(session, ana, now=datetime.now(UTC) + timedelta(hours=hours),
                                         settings=SETTINGS))

    threads = [threading.Thread(target=sync, args=(h,)) for h in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert [r.ok for r in reports] == [True, True], [r.message for r in reports]
    with factory() as session:
        assert session.scalar(select(func.count()).select_from(BusyBlock)) == 1
