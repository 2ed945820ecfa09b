"""Builders of scheduling problem documents (DESIGN 5.2 JSON) for the scheduling tests."""

from __future__ import annotations

import random
from typing import Any

MONDAY = "2026-12-07"  # an ordinary week, no daylight-saving change


def person(pid: str, skills: dict[str, str], **extra: Any) -> dict[str, Any]:
    """An interviewer in UTC working 09-17 Monday to Friday unless ``extra`` says otherwise."""
    doc = {
        "id": pid,
        "timezone": "UTC",
        "working_hours": {"start": "09:00", "end": "17:00"},
        "team": "other",
        "skills": skills,
    }
    doc.update(extra)
    return doc


def rnd(rid: str, competencies: list[str], minutes: int = 60, **extra: Any) -> dict[str, Any]:
    """A round assessing ``competencies`` with one interviewer by default."""
    doc = {"id": rid, "minutes": minutes, "competencies": competencies, "interviewers": 1}
    doc.update(extra)
    return doc


def loop(lid: str, rounds: list[dict], windows: list[tuple[str, str]], **extra: Any) -> dict[str, Any]:
    """A loop with ``windows`` given as (start, end) RFC 3339 pairs."""
    doc = {
        "id": lid,
        "windows": [{"start": s, "end": e} for s, e in windows],
        "hiring_team": "hiring",
        "rounds": rounds,
    }
    doc.update(extra)
    return doc


def problem(people: list[dict], loops: list[dict], slot: int = 15) -> dict[str, Any]:
    return {"slot_minutes": slot, "interviewers": people, "loops": loops}


ZONES = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Tokyo", "America/Los_Angeles"]
COMPS = ["a", "b", "c"]


def random_problem(seed: int, people: int = 6, loops: int = 2, dst_week: bool = False) -> dict[str, Any]:
    """A small random problem with zones, busy time, caps, teams, trainees and gap rules."""
    rng = random.Random(seed)
    base_day = 26 if dst_week else 7
    month = "2026-03" if dst_week else "2026-12"
    pool = []
    for n in range(people):
        skills = {
            c: rng.choice(["qualified", "qualified", "shadow", "reverse-shadow"])
            for c in rng.sample(COMPS, rng.randint(1, 3))
        }
        busy = []
        for _ in range(rng.randint(0, 3)):
            day = base_day + rng.randint(0, 4)
            hour = rng.randint(0, 22)
            busy.append(
                {
                    "start": f"{month}-{day:02d}T{hour:02d}:00:00Z",
                    "end": f"{month}-{day:02d}T{hour + 1:02d}:{rng.choice(['00', '30'])}:00Z",
                }
            )
        existing = []
        if rng.random() < 0.4:
            day = base_day + rng.randint(0, 4)
            existing.append({"start": f"{month}-{day:02d}T12:00:00Z", "end": f"{month}-{day:02d}T13:00:00Z"})
        start = rng.choice([0, 6, 8, 9])
        pool.append(
            {
                "id": f"p{n}",
                "timezone": rng.choice(ZONES),
                "working_hours": {
                    "start": f"{start:02d}:00",
                    "end": rng.choice(["17:00", "20:00", "24:00"]),
                    "days": rng.choice(
                        [
                            ["mon", "tue", "wed", "thu", "fri"],
                            ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
                        ]
                    ),
                },
                "busy": busy,
                "existing": existing,
                "max_per_day": rng.choice([None, 1, 2]),
                "max_per_week": rng.choice([None, 1, 2, 3]),
                "team": rng.choice(["t1", "t2"]),
                "skills": skills,
            }
        )
    cases = []
    for k in range(loops):
        day = base_day + rng.randint(0, 4)
        hour = rng.randint(0, 13)
        length = rng.randint(3, 10)
        rounds = []
        for r in range(rng.randint(1, 3)):
            comps = rng.sample(COMPS, rng.randint(1, 2))
            count = rng.randint(1, 2)
            rounds.append(
                {
                    "id": f"r{r}",
                    "minutes": rng.choice([30, 45, 50, 60]),
                    "competencies": comps,
                    "interviewers": count,
                    "trainee": rng.random() < 0.6,
                    "outside_hiring_team": rng.randint(0, 1) if count > 1 else 0,
                }
            )
        case = {
            "id": f"l{k}",
            "windows": [
                {
                    "start": f"{month}-{day:02d}T{hour:02d}:00:00Z",
                    "end": f"{month}-{day:02d}T{hour + length:02d}:00:00Z",
                }
            ],
            "hiring_team": rng.choice(["t1", "t2"]),
            "rounds": rounds,
        }
        if rng.random() < 0.5:
            case["max_gap_minutes"] = rng.choice([0, 15, 60])
        cases.append(case)
    return {"slot_minutes": rng.choice([15, 30]), "interviewers": pool, "loops": cases}
