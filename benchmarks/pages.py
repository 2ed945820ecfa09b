"""Page load: the main pages of each role and the calendar feed, on gunicorn + PostgreSQL, against the floor.

    .venv/bin/python benchmarks/pages.py            # 200 postings, 2,000 interviewers, 20,000 interviews
    .venv/bin/python benchmarks/pages.py --short    # small sizes, a few seconds a page (CI)

For each size the script creates its own PostgreSQL database (``planner_bench_<n>``, dropped at the
end), fills it in bulk (benchmarks/pagedata.py), serves the app with gunicorn on loopback next to a
minimal Flask page served the same way (benchmarks/floor.py: the framework's floor), signs in as each
role, and drives every page for a fixed time with ``wrk`` (Debian's package; a Lua script sends the
session cookie and reports the percentiles). It prints, per page: requests per second, p50/p95/p99,
the ratio to the floor's requests per second, and the SQL statements one request runs (the app counts
them when PLANNER_SQL_COUNT_HEADER is set and reports them in a response header).

wrk asks for the same page again and again, so it measures the page cache (planner/web/pagecache.py)
serving pages nothing has changed since. The "uncached" column is what a view costs when something
has: the median of a few requests that each miss the cache (an extra query argument the page ignores
makes each a new address), one at a time. ``--page-cache-seconds 0`` runs the app without the cache.

It runs at two sizes (the full one and a tenth of it) to show that the statements per page do not
grow with the data. Goals: every page at least 25 % of the floor's rps and a p95 under 50 ms at the
full size. The exit status is 1 when a page answers with an error or its statements grow with the
size; with --check, also when a goal is missed.

PLANNER_BENCH_DATABASE_URL names the PostgreSQL server (default postgres@127.0.0.1:5432).
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from benchmarks.pagedata import Size, fill  # noqa: E402
from planner import migrate  # noqa: E402
from planner.db import make_engine, make_session_factory  # noqa: E402

BIN = Path(sys.executable).parent
PASSWORD = "planner-demo"
FULL = Size(postings=200, interviewers=2000, interviews=20_000)
SHORT = Size(postings=20, interviewers=200, interviews=2000)
GOAL_RATIO, GOAL_P95_MS = 0.25, 50.0
SQL_TOLERANCE = 2
# Every request carries the same User-Agent as the sign-in did, as a browser's do: Flask-Login's session
# protection marks a session "not fresh" (and rewrites its cookie) when the agent changes.
USER_AGENT = "planner-page-benchmark"


def pages(filled) -> list[tuple[str, str, str]]:
    """(role, label, path) of the pages measured."""
    p, loop, person = filled.posting_id, filled.loop_id, filled.interviewer_id
    return [
        ("coordinator", "overview", "/coordinator/"),
        ("coordinator", "postings", "/coordinator/postings"),
        ("coordinator", "posting", f"/coordinator/postings/{p}"),
        ("coordinator", "loop plan", f"/coordinator/postings/{p}/plan"),
        ("coordinator", "competencies", "/coordinator/competencies"),
        ("coordinator", "interviewers", "/coordinator/interviewers"),
        ("coordinator", "interviewer", f"/coordinator/interviewers/{person}"),
        ("coordinator", "loops", "/coordinator/loops"),
        ("coordinator", "loop", f"/coordinator/loops/{loop}"),
        ("coordinator", "outbox", "/coordinator/outbox"),
        ("manager", "coverage", "/manager/"),
        ("manager", "posting coverage", f"/manager/postings/{p}"),
        ("manager", "evidence", f"/manager/postings/{p}/evidence"),
        ("interviewer", "my interviews", "/interviewer/"),
        ("feed", "calendar feed", f"/feeds/{filled.feed_token}.ics"),
    ]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def bench_database(size: Size):
    base = make_url(os.environ.get("PLANNER_BENCH_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"))
    name = f"planner_bench_{size.interviews}_{os.getpid()}"  # two runs on one server never share a database
    admin = make_engine(base.render_as_string(hide_password=False), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = base.set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def gunicorn(app: str, env: dict[str, str], workers: int):
    port = _free_port()
    process = subprocess.Popen(
        [str(BIN / "gunicorn"), "--workers", str(workers), "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
         app], cwd=ROOT, env={**os.environ, **env}, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + ("/healthz" if "planner" in app else "/"), timeout=2).read()
                break
            except OSError:
                if process.poll() is not None:
                    raise SystemExit(f"gunicorn {app} exited with {process.returncode}") from None
                time.sleep(0.1)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


def session_cookie(base: str, email: str) -> str:
    """Sign in through the login form; return the Cookie header value of the signed-in session."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.addheaders = [("User-Agent", USER_AGENT)]
    page = opener.open(base + "/login").read().decode()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"email": email, "password": PASSWORD, "csrf_token": token}).encode()
    opener.open(base + "/login", data=body).read()
    return "; ".join(f"{c.name}={c.value}" for c in jar)


def _headers(cookie: str) -> dict[str, str]:
    return {"User-Agent": USER_AGENT, **({"Cookie": cookie} if cookie else {})}


def statements(base: str, path: str, cookie: str) -> tuple[int, int]:
    """(HTTP status, SQL statements) of one request that misses the page cache."""
    path += ("&" if "?" in path else "?") + "bench-first=1"
    request = urllib.request.Request(base + path, headers=_headers(cookie))
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, int(response.headers.get("X-SQL-Statements", "-1"))
    except urllib.error.HTTPError as exc:
        return exc.code, int(exc.headers.get("X-SQL-Statements", "-1"))


def uncached_ms(base: str, path: str, cookie: str, times: int = 5) -> float:
    """Median time of requests that each miss the page cache (a new query argument each time), one at a time."""
    spent = []
    for n in range(times):
        url = f"{base}{path}{'&' if '?' in path else '?'}bench-uncached={n}-{time.monotonic_ns()}"
        request = urllib.request.Request(url, headers=_headers(cookie))
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
        spent.append((time.perf_counter() - started) * 1000)
    return statistics.median(spent)


def drive(url: str, cookie: str, seconds: float, connections: int) -> dict:
    """Run wrk against one URL; its Lua script prints one JSON line."""
    result = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s",
         str(ROOT / "benchmarks" / "wrk_report.lua"), url],
        capture_output=True, text=True, env={**os.environ, "BENCH_COOKIE": cookie, "BENCH_USER_AGENT": USER_AGENT},
        check=True)
    line = next(line for line in result.stdout.splitlines() if line.startswith("WRK "))
    data = json.loads(line[4:])
    data["rps"] = data["requests"] / (data["duration_us"] / 1e6)
    return data


def measure(size: Size, seconds: float, workers: int, connections: int, cache_seconds: float | None) -> dict:
    """Fill a database of ``size``, serve it and the floor, and measure every page."""
    with bench_database(size) as url:
        engine = make_engine(url)
        migrate.upgrade(engine)
        started = time.perf_counter()
        with make_session_factory(engine)() as session:
            filled = fill(session, size)
        # A served database has its planner statistics kept by autovacuum; a bulk fill has none until then
        # (and this server may run with autovacuum off), so gather them as a deployment would have them.
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("ANALYZE"))
        engine.dispose()
        fill_seconds = time.perf_counter() - started
        env = {"PLANNER_DATABASE_URL": url, "PLANNER_SECRET_KEY": "benchmark-only", "PLANNER_SQL_COUNT_HEADER": "true",
               "PLANNER_LOGIN_LIMIT_PER_ADDRESS": "1000 per minute"}
        if cache_seconds is not None:
            env["PLANNER_PAGE_CACHE_SECONDS"] = str(cache_seconds)
        with gunicorn("planner.wsgi:app", env, workers) as app_base, \
                gunicorn("benchmarks.floor:app", {}, workers) as floor:
            cookies = {role: session_cookie(app_base, f"{role}@demo.test")
                       for role in ("coordinator", "manager", "interviewer")}
            cookies["feed"] = ""
            floor_result = drive(floor + "/", "", seconds, connections)
            rows = []
            for role, label, path in pages(filled):
                status, count = statements(app_base, path, cookies[role])
                result = drive(app_base + path, cookies[role], seconds, connections) if status == 200 else None
                cold = uncached_ms(app_base, path, cookies[role]) if status == 200 and seconds > 1 else None
                rows.append({"role": role, "page": label, "path": path, "status": status, "sql": count,
                             "result": result, "uncached_ms": cold})
    return {"size": size, "filled": filled, "fill_seconds": fill_seconds, "floor": floor_result, "rows": rows}


def report(full: dict, small: dict, check: bool) -> int:
    floor = full["floor"]
    print(f"\n## {full['size'].label} (filled in {full['fill_seconds']:.1f} s; {full['filled'].counts})\n")
    print(f"floor (minimal Flask page): {floor['rps']:.0f} rps, p50 {floor['p50'] / 1000:.1f} ms, "
          f"p95 {floor['p95'] / 1000:.1f} ms, p99 {floor['p99'] / 1000:.1f} ms\n")
    print(f"| role | page | rps | p50 ms | p95 ms | p99 ms | vs floor | uncached ms | SQL/request | "
          f"SQL at {small['size'].interviews:,} interviews | goals |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    problems, misses = [], []
    for row, other in zip(full["rows"], small["rows"], strict=True):
        result = row["result"]
        if result is None or result["errors"] or result["non2xx"]:
            problems.append(f"{row['path']}: status {row['status']}, {result}")
            print(f"| {row['role']} | {row['page']} | error | | | | | | {row['sql']} | {other['sql']} | |")
            continue
        ratio = result["rps"] / floor["rps"]
        ok = ratio >= GOAL_RATIO and result["p95"] / 1000 < GOAL_P95_MS
        if not ok:
            misses.append(row["page"])
        # The rows asked for differ a little between sizes (a loop with or without a trainee seat loads one
        # relation more or less); statements that grow with the data would differ by far more.
        if abs(row["sql"] - other["sql"]) > SQL_TOLERANCE:
            problems.append(f"{row['page']}: {other['sql']} statements at the small size, {row['sql']} at the full one")
        print(f"| {row['role']} | {row['page']} | {result['rps']:.0f} | {result['p50'] / 1000:.1f} | "
              f"{result['p95'] / 1000:.1f} | {result['p99'] / 1000:.1f} | {ratio:.0%} | "
              f"{'' if row['uncached_ms'] is None else format(row['uncached_ms'], '.0f')} | {row['sql']} | "
              f"{other['sql']} | {'met' if ok else 'MISSED'} |")
    print()
    for problem in problems:
        print(f"PROBLEM: {problem}")
    if misses:
        print(f"Goals missed (>= {GOAL_RATIO:.0%} of the floor's rps and p95 < {GOAL_P95_MS:.0f} ms): "
              f"{', '.join(misses)}")
    return 1 if problems or (check and misses) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", action="store_true", help="small sizes and a few seconds per page (CI)")
    parser.add_argument("--seconds", type=float, help="seconds of load per page (default 10; 2 with --short)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers for the app and the floor")
    parser.add_argument("--connections", type=int, default=4, help="concurrent connections wrk keeps open")
    parser.add_argument("--check", action="store_true", help="exit 1 when a page misses the goals")
    parser.add_argument("--page-cache-seconds", type=float,
                        help="the app's PAGE_CACHE_SECONDS (default: the app's own; 0 turns the cache off)")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        print("Error: wrk is not installed (apt-get install wrk).", file=sys.stderr)
        return 2
    size = SHORT if args.short else FULL
    seconds = args.seconds or (2 if args.short else 10)
    small = Size(max(size.postings // 10, 2), max(size.interviewers // 10, 20), max(size.interviews // 10, 100))
    print(f"Page benchmark: {size.label}, and {small.label} for the statement counts; {seconds:g} s a page, "
          f"{args.workers} gunicorn workers, wrk with {args.connections} connections")
    cache = args.page_cache_seconds
    if cache is not None and cache < 0:
        parser.error("--page-cache-seconds cannot be negative")
    print(f"Page cache: {'off' if cache == 0 else 'on'}")
    small_run = measure(small, 1, args.workers, args.connections, cache)
    full_run = measure(size, seconds, args.workers, args.connections, cache)
    return report(full_run, small_run, args.check)


if __name__ == "__main__":
    sys.exit(main())
