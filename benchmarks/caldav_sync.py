"""CalDAV sync benchmark: a real Radicale on loopback, N events, full vs incremental sync.

    .venv/bin/python benchmarks/caldav_sync.py [--sizes 50 200 1000] [--repeats 3]

For each size it fills a fresh calendar (a fifth of the events repeat weekly), then times with the
planner's own service on a fresh SQLite database:
- full: the first sync (PROPFIND for the sync-token, one time-range REPORT, expansion, replace);
- unchanged: a second sync, same day: the sync-token matches, nothing is downloaded or written;
- next day: the horizon moved, so the events are downloaded again, but the blocks are the same and
  nothing is rewritten;
- one changed: one event edited on the server: download, expansion and a replace.
Times are medians of ``--repeats`` runs (each unchanged/next-day run follows a fresh full sync).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from radicaleutil import PASSWORD, running_radicale  # noqa: E402

from planner import migrate  # noqa: E402
from planner.db import make_engine, make_session_factory  # noqa: E402
from planner.services import pool  # noqa: E402
from planner.services.calendars import (  # noqa: E402
    CalendarInput,
    CalendarSettings,
    generate_key,
    set_calendar,
    sync_calendar,
)

NOW = datetime(2027, 3, 20, 12, 0, tzinfo=UTC)


def _event(n: int) -> str:
    day = NOW + timedelta(days=1 + n % 55, hours=n % 9)
    start = day.replace(hour=8 + n % 9, minute=(n % 4) * 15)
    repeat = "RRULE:FREQ=WEEKLY;COUNT=8\r\n" if n % 5 == 0 else ""
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:bench-{n}@planner\r\nDTSTAMP:20270101T000000Z\r\n"
            f"DTSTART;TZID=Europe/London:{start:%Y%m%dT%H%M%S}\r\n"
            f"DTEND;TZID=Europe/London:{start + timedelta(minutes=30):%Y%m%dT%H%M%S}\r\n"
            f"{repeat}SUMMARY:Meeting {n}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


def _timed(session, person_id, settings, now):
    started = time.perf_counter()
    report = sync_calendar(session, person_id, now=now, settings=settings)
    assert report.ok, report.message
    return time.perf_counter() - started, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    settings = CalendarSettings(secret_keys=(generate_key(),), horizon_days=60, timeout=30)
    rows = []
    with tempfile.TemporaryDirectory() as folder, running_radicale(Path(folder)) as server:
        engine = make_engine(f"sqlite:///{folder}/bench.sqlite3")
        migrate.upgrade(engine)
        factory = make_session_factory(engine)
        for size in args.sizes:
            calendar = server.new_calendar(f"Bench {size}")
            objects = [calendar.save_event(_event(n)) for n in range(size)]
            with factory() as session:
                person = pool.create_interviewer(session, pool.InterviewerInput(
                    name=f"Bench {size}", email=f"bench{size}@example.com", timezone="Europe/London"), actor_id=None)
                set_calendar(session, person.id, CalendarInput(str(calendar.url), server.user, PASSWORD),
                             settings=settings, actor_id=None)
                times = {"full": [], "unchanged": [], "next day": [], "one changed": []}
                report = None
                for repeat in range(args.repeats):
                    from planner.models import CalendarSource

                    source = session.query(CalendarSource).filter_by(interviewer_id=person.id).one()
                    source.state_token = None  # force a full download
                    session.commit()
                    seconds, report = _timed(session, person.id, settings, NOW)
                    times["full"].append(seconds)
                    seconds, unchanged = _timed(session, person.id, settings, NOW)
                    assert unchanged.unchanged_on_server and not unchanged.replaced
                    times["unchanged"].append(seconds)
                    seconds, later = _timed(session, person.id, settings, NOW + timedelta(hours=13))
                    times["next day"].append(seconds)
                    edited = objects[repeat % len(objects)]
                    edited.data = edited.data.replace("SUMMARY:Meeting", f"SUMMARY:Edited {repeat}")
                    edited.save()
                    seconds, changed = _timed(session, person.id, settings, NOW + timedelta(hours=13))
                    assert changed.replaced
                    times["one changed"].append(seconds)
            full = statistics.median(times["full"])
            rows.append((size, report.events, report.blocks, full, *(statistics.median(times[k]) for k in
                                                                     ("unchanged", "next day", "one changed"))))
    print("| events | objects fetched | busy blocks | full sync s | unchanged s | saved | next day (no rewrite) s |"
          " one event changed s |")
    print("|---|---|---|---|---|---|---|---|")
    for size, events, blocks, full, unchanged, next_day, changed in rows:
        print(f"| {size} | {events} | {blocks} | {full:.3f} | {unchanged:.3f} | {100 * (1 - unchanged / full):.0f}% |"
              f" {next_day:.3f} | {changed:.3f} |")


if __name__ == "__main__":
    main()
