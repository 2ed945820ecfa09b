"""Scheduler benchmark: seeded realistic problems (DESIGN 5.2 format), engine vs first-fit baseline.

    .venv/bin/python benchmarks/scheduler.py freeze          # (re)write benchmarks/fixtures/*.json
    .venv/bin/python benchmarks/scheduler.py run [--only m]  # print the table (fresh process per run)

Fixtures are frozen so that later edits of the generator do not move the baseline. Every run happens
in a fresh Python process so that peak memory and timings belong to that run alone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import subprocess
import sys
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent
FIXTURES = ROOT / "fixtures"

COMPETENCIES = ["compiler-design", "customer-ownership", "pre-silicon-feedback", "mentoring",
                "system-design", "coding", "performance", "communication"]
TEAMS = ["neuron-compiler", "runtime", "silicon", "frameworks", "infra"]
# Share of the pool per zone; London and Berlin change to summer time inside the benchmark week.
ZONES = [("America/Los_Angeles", 0.3), ("America/New_York", 0.35), ("Europe/London", 0.15),
         ("Europe/Berlin", 0.2)]
# Thursday 26 March to Wednesday 1 April 2026: Europe springs forward on Sunday 29 March and the
# working days span two ISO weeks, so daily and weekly caps are both exercised.
DAYS = [date(2026, 3, 26), date(2026, 3, 27), date(2026, 3, 30), date(2026, 3, 31), date(2026, 4, 1)]

#: name -> (family, loops, interviewers, busy share, seed list)
CASES = {
    "xs-easy": ("easy", 1, 20, 0.2), "s-easy": ("easy", 10, 60, 0.2), "m-easy": ("easy", 40, 150, 0.2),
    "l-easy": ("easy", 200, 600, 0.2), "single-150": ("easy", 1, 150, 0.2),
    "xs-tight": ("tight", 1, 20, 0.35), "s-tight": ("tight", 10, 60, 0.35), "m-tight": ("tight", 40, 150, 0.35),
    "l-tight": ("tight", 200, 600, 0.35), "scarce-100": ("tight", 40, 100, 0.35),
}
SEEDS = (1, 2, 3)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _pick_zone(rng: random.Random) -> str:
    roll, acc = rng.random(), 0.0
    for zone, share in ZONES:
        acc += share
        if roll < acc:
            return zone
    return ZONES[-1][0]


def _interviewer(rng: random.Random, n: int, family: str, busy_share: float) -> dict:
    zone = ZoneInfo(_pick_zone(rng))
    start_hour = rng.choice([8, 9, 9, 9, 10])
    skills = {}
    for competency in rng.sample(COMPETENCIES, rng.choice([1, 2, 2, 3])):
        roll = rng.random()
        skills[competency] = "qualified" if roll < 0.7 else ("shadow" if roll < 0.85 else "reverse-shadow")
    busy, existing = [], []
    for day in DAYS:
        cursor = datetime.combine(day, time(start_hour), tzinfo=zone)
        end = cursor + timedelta(hours=8)
        while cursor < end:
            length = timedelta(minutes=rng.choice([30, 60, 90]))
            if rng.random() < busy_share:
                busy.append({"start": _iso(cursor), "end": _iso(min(end, cursor + length))})
            cursor += length
    prior = rng.choice([0, 0, 1, 2])
    for _ in range(prior):
        day = rng.choice(DAYS)
        slot = datetime.combine(day, time(start_hour + rng.randrange(7)), tzinfo=zone)
        if not any(b["start"] == _iso(slot) for b in busy + existing):
            existing.append({"start": _iso(slot), "end": _iso(slot + timedelta(hours=1))})
    extra = rng.choice([1, 2]) if family == "tight" else rng.choice([2, 3, 4])
    return {
        "id": f"i{n:03d}", "name": f"Interviewer {n}", "email": f"i{n:03d}@example.com",
        "timezone": zone.key,
        "working_hours": {"start": f"{start_hour:02d}:00", "end": f"{start_hour + 8:02d}:00",
                          "days": ["mon", "tue", "wed", "thu", "fri"]},
        "busy": busy, "existing": existing,
        "max_per_day": rng.choice([1, 2]) if family == "tight" else rng.choice([2, 3]),
        "max_per_week": len(existing) + extra,
        "team": rng.choice(TEAMS), "skills": skills,
    }


def _loop(rng: random.Random, n: int, day: date) -> dict:
    zone = ZoneInfo(rng.choice(["America/Los_Angeles", "America/New_York", "Europe/London", "Europe/Berlin"]))
    open_hour = rng.choice([8, 9, 10])
    start = datetime.combine(day, time(open_hour), tzinfo=zone)
    windows = [{"start": _iso(start), "end": _iso(start + timedelta(hours=rng.choice([7, 8, 9])))}]
    competencies = rng.sample(COMPETENCIES, 5)
    rounds = []
    for k, competency in enumerate(competencies[:4]):
        rounds.append({"id": f"r{k + 1}", "minutes": rng.choice([45, 60]), "competencies": [competency],
                       "interviewers": 1, "trainee": rng.random() < 0.8})
    rounds.append({"id": "bar", "minutes": 60, "competencies": [competencies[4], competencies[0]],
                   "interviewers": 2, "outside_hiring_team": 1, "trainee": rng.random() < 0.5})
    return {
        "id": f"c{n:03d}", "candidate": {"name": f"Candidate {n}", "timezone": zone.key},
        "windows": windows, "hiring_team": rng.choice(TEAMS),
        "max_gap_minutes": rng.choice([None, 60, 90]), "rounds": rounds,
    }


def generate(family: str, loops: int, interviewers: int, busy_share: float, seed: int) -> dict:
    """A seeded problem in the DESIGN 5.2 format."""
    rng = random.Random(f"{family}-{loops}-{interviewers}-{seed}")
    pool = [_interviewer(rng, n, family, busy_share) for n in range(interviewers)]
    days = DAYS if loops > 1 else [DAYS[2]]
    cases = [_loop(rng, n, days[n % len(days)]) for n in range(loops)]
    for case in cases:
        if case["max_gap_minutes"] is None:
            del case["max_gap_minutes"]
    return {"slot_minutes": 15, "interviewers": pool, "loops": cases}
