"""Candidate page benchmark: offered times of a 5-round loop over two weeks with 150 interviewers.

    .venv/bin/python benchmarks/candidate_page.py [--repeats 9] [--database-url URL] [--seed 1]

Seeds a fresh database (SQLite in a temporary folder unless ``--database-url`` names an empty one):
150 interviewers in four zones with qualifications, busy time over the horizon and seats in other loops,
a posting with a 5-round plan, and one loop without windows whose candidate (London) gets a link. Then:

* **offers, cold**: ``get_offers`` without the cache (fingerprint query, problem from the database,
  packing from every start), median of ``--repeats``; the same split into its steps;
* **page, cold / cached**: ``GET /c/<token>`` through the app (cold: cache cleared first);
* every offered time is fed back to the validator as a plan (all must be valid);
* the number of SQL statements a cached page issues.

Targets: offers computed in at most 300 ms, the page served in under 100 ms once computed. The machine's
pace (``machine_pace`` of benchmarks/scheduler.py) is printed so tables of different days compare.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import sys
import tempfile
import time as clock
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT))

from scheduler import machine_pace  # noqa: E402
from sqlalchemy import event  # noqa: E402

from planner import create_app, migrate  # noqa: E402
from planner.core.scheduling import validate  # noqa: E402
from planner.db import make_engine, make_session_factory, utcnow  # noqa: E402
from planner.models import (  # noqa: E402
    BusyBlock,
    Candidate,
    Competency,
    CompetencyCategory,
    Interview,
    Interviewer,
    Loop,
    PlanVersion,
    Posting,
    PostingCompetency,
    Priority,
    Qualification,
    Seat,
    SeatRole,
    SelectionState,
    TrainingLevel,
)
from planner.queries.scheduling_fingerprint import scheduling_fingerprint  # noqa: E402
from planner.services import candidate_links  # noqa: E402
from planner.services.candidate_offers import (  # noqa: E402
    CACHE,
    OfferSettings,
    build_offer_problem,
    get_offers,
    offer_windows,
    offered_times,
)

COMPETENCIES = ["compiler-design", "customer-ownership", "pre-silicon-feedback", "mentoring", "system-design",
                "coding", "performance", "communication"]
ZONES = [("America/Los_Angeles", 0.3), ("America/New_York", 0.35), ("Europe/London", 0.15), ("Europe/Berlin", 0.2)]
TEAMS = ["neuron-compiler", "runtime", "silicon", "frameworks", "infra"]
ROUNDS = [  # key, kind, minutes, interviewers, competencies, outside team
    ("r1", "technical", 60, 1, ["compiler-design"], 0),
    ("r2", "design", 60, 1, ["system-design", "performance"], 0),
    ("r3", "technical", 45, 1, ["coding"], 0),
    ("r4", "behavioural", 45, 1, ["customer-ownership"], 0),
    ("r5", "bar-raiser", 60, 2, ["mentoring", "communication"], 1),
]
TARGET_OFFERS_MS, TARGET_PAGE_MS = 300, 100


def _zone(rng: random.Random) -> str:
    roll, acc = rng.random(), 0.0
    for zone, share in ZONES:
        acc += share
        if roll < acc:
            return zone
    return ZONES[-1][0]


def seed(session, rng: random.Random, now: datetime, people: int = 150) -> int:
    """The pool, the plan and the candidate's loop; returns the loop's id."""
    competencies = {}
    for slug in COMPETENCIES:
        competencies[slug] = Competency(slug=slug, name=slug.replace("-", " ").capitalize(),
                                        category=CompetencyCategory.TECHNICAL)
        session.add(competencies[slug])
    session.flush()
    posting = Posting(title="Senior ML Compiler Engineer", team="Neuron Compiler", location="Seattle")
    used = sorted({c for *_, comps, _o in ROUNDS for c in comps})
    posting.competencies = [PostingCompetency(competency_id=competencies[c].id, state=SelectionState.ACCEPTED,
                                              priority=Priority.NICE_TO_HAVE, required_coverage=1) for c in used]
    session.add(posting)
    session.flush()
    snapshot = [{"key": key, "name": f"Round {key}", "kind": kind, "minutes": minutes, "interviewers": count,
                 "focus_questions": [], "min_outside_team": outside, "max_trainees": 1,
                 "competencies": [{"slug": c, "focus": "primary"} for c in comps]}
                for key, kind, minutes, count, comps, outside in ROUNDS]
    version = PlanVersion(posting_id=posting.id, number=1, snapshot=snapshot)
    session.add(version)
    session.flush()
    other = Loop(posting_id=posting.id, candidate=Candidate(name="Earlier candidate", email="e@x.example"),
                 plan_version_id=version.id, hiring_team="neuron-compiler")
    session.add(other)
    session.flush()
    first_day = now.date()
    for n in range(people):
        zone = ZoneInfo(_zone(rng))
        start_hour = rng.choice([8, 9, 9, 9, 10])
        person = Interviewer(name=f"Interviewer {n}", email=f"i{n:03d}@example.com", team=rng.choice(TEAMS),
                             timezone=zone.key, work_start=f"{start_hour:02d}:00", work_end=f"{start_hour + 8:02d}:00",
                             max_per_day=rng.choice([2, 3]), max_per_week=rng.choice([4, 5, 6]),
                             feed_token=secrets.token_urlsafe(16))
        for slug in rng.sample(COMPETENCIES, rng.choice([1, 2, 2, 3])):
            roll = rng.random()
            level = TrainingLevel.QUALIFIED if roll < 0.7 else (TrainingLevel.SHADOW if roll < 0.85
                                                                else TrainingLevel.REVERSE_SHADOW)
            person.qualifications.append(Qualification(competency_id=competencies[slug].id, level=level))
        session.add(person)
        session.flush()
        for offset in range(17):
            day = first_day + timedelta(days=offset)
            if day.weekday() > 4:
                continue
            cursor = datetime.combine(day, time(start_hour), tzinfo=zone)
            end = cursor + timedelta(hours=8)
            while cursor < end:
                length = timedelta(minutes=rng.choice([30, 60, 90]))
                if rng.random() < 0.2:
                    session.add(BusyBlock(interviewer_id=person.id, start=cursor.astimezone(UTC),
                                          end=min(end, cursor + length).astimezone(UTC)))
                cursor += length
            if rng.random() < 0.08:  # a seat in another loop that day
                start = datetime.combine(day, time(start_hour + rng.randrange(7)), tzinfo=zone).astimezone(UTC)
                interview = Interview(loop_id=other.id, round_key="r1", round_name="Round r1", start=start,
                                      end=start + timedelta(hours=1), uid=f"b-{secrets.token_hex(8)}@x")
                interview.seats.append(Seat(interviewer_id=person.id, role=SeatRole.ASSESSOR))
                session.add(interview)
    loop = Loop(posting_id=posting.id, candidate=Candidate(name="Kim Lee", email="kim@cand.example",
                                                           timezone="Europe/London"),
                plan_version_id=version.id, hiring_team="neuron-compiler", max_gap_minutes=60)
    session.add(loop)
    session.commit()
    return loop.id


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _time(fn, repeats: int) -> tuple[float, object]:
    samples, result = [], None
    for _ in range(repeats):
        began = clock.perf_counter()
        result = fn()
        samples.append(clock.perf_counter() - began)
    return _median_ms(samples), result


def run(url: str, repeats: int, seed_value: int) -> None:
    engine = make_engine(url)
    migrate.upgrade(engine)
    factory = make_session_factory(engine)
    now = utcnow()
    settings = OfferSettings()
    with factory() as session:
        loop_id = seed(session, random.Random(seed_value), now)
        issued = candidate_links.issue_link(session, loop_id, actor_id=None, now=now, lifetime_days=7)
    pace = machine_pace()
    print(f"Machine pace: a pure-Python loop of 10^7 additions takes {pace:.2f} s here (median of 3).\n")

    with factory() as session:
        loop = session.get(Loop, loop_id)
        windows = offer_windows(loop, True, now, settings)
        fingerprint_ms, _ = _time(lambda: scheduling_fingerprint(session, loop_id), repeats)
        problem_ms, built = _time(lambda: build_offer_problem(session, loop, windows, now), repeats)

        def pack():
            built_fresh = build_offer_problem(session, loop, windows, now)  # new calendars each time
            began = clock.perf_counter()
            times = offered_times(built_fresh, loop, settings, earliest=now + settings.notice)
            return clock.perf_counter() - began, times

        packs = [pack() for _ in range(repeats)]
        pack_ms = _median_ms([p[0] for p in packs])
        times = packs[-1][1]
        offers_ms, offers = _time(lambda: get_offers(session, loop, True, now=now, settings=settings, cache=None),
                                  repeats)
        entries = [{"id": f"loop{loop_id}", "status": "scheduled", "interviews": [dict(i) for i in t.interviews]}
                   for t in offers.times]
        valid = sum(1 for e in entries if not [x for x in validate(built.problem, {"loops": [e], "stats": {}})
                                               if not x.startswith("stats.")])
        people = len(built.problem.interviewers)
        starts = len(times)

    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "benchmark", "MAIL_SERVER": None})
    from planner.web.candidate.tokens import token_of

    with app.test_request_context():
        token = token_of(issued)
    client = app.test_client()
    statements = []
    event.listen(app.extensions["planner.engine"], "before_cursor_execute",
                 lambda *args, **kwargs: statements.append(1))

    def cold():
        CACHE.clear()
        response = client.get(f"/c/{token}")
        assert response.status_code == 200
        return response

    def cached():
        response = client.get(f"/c/{token}")
        assert response.status_code == 200
        return response

    cold_ms, _ = _time(cold, repeats)
    cached()
    statements.clear()
    cached()
    queries = len(statements)
    cached_ms, page = _time(cached, repeats)
    assert page.get_data(as_text=True).count('name="start"') == len(offers.times)

    print(f"{people} interviewers, 5 rounds (6 seats), {len(windows)} business days in the candidate's zone "
          f"({settings.step_minutes}-minute starts), seed {seed_value}, {repeats} repeats, "
          f"{engine.dialect.name}.\n")
    print("| measure | median ms | target ms | ratio to target | at pace 0.33 s (ms) | note |")
    print("|---|---|---|---|---|---|")
    scale = 0.33 / pace

    def row(name, ms, target, note):
        ratio = f"{ms / target:.2f}" if target else ""
        print(f"| {name} | {ms:.1f} | {target or ''} | {ratio} | {ms * scale:.1f} | {note} |")

    row("fingerprint query", fingerprint_ms, None, "one SELECT of scalar subqueries")
    row("problem from the database", problem_ms, None, f"{people} people, busy time, seats, caps")
    row("packing every start", pack_ms, None, f"{starts} of the starts staffable")
    row("offers, cold (all of the above)", offers_ms, TARGET_OFFERS_MS, f"{valid}/{len(entries)} valid "
        "by the validator")
    row("page, cold (offers computed in the request)", cold_ms, None, "GET /c/<token>")
    row("page, cached", cached_ms, TARGET_PAGE_MS, f"{queries} SQL statements")
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="an empty database (default: a temporary SQLite file)")
    args = parser.parse_args()
    if args.database_url:
        run(args.database_url, args.repeats, args.seed)
        return
    with tempfile.TemporaryDirectory() as folder:
        run(f"sqlite:///{Path(folder) / 'bench.sqlite3'}", args.repeats, args.seed)


if __name__ == "__main__":
    main()
