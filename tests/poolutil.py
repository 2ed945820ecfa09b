"""Builders for the interviewer-pool tests: competencies, interviewers, and booked interviews with seats."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

from planner.models import (
    Candidate,
    Competency,
    CompetencyCategory,
    Interview,
    InterviewStatus,
    Loop,
    Posting,
    Seat,
    SeatRole,
    SeatStatus,
)
from planner.services import pool

_counter = itertools.count(1)


def competency(db, slug: str, name: str | None = None) -> Competency:
    row = Competency(
        slug=slug, name=name or slug.replace("-", " ").title(), category=CompetencyCategory.TECHNICAL
    )
    db.add(row)
    db.flush()
    return row


def interviewer(db, name: str = "Ana Ruiz", tz: str = "America/Los_Angeles", **kwargs):
    email = kwargs.pop("email", f"{name.split()[0].lower()}{next(_counter)}@example.com")
    data = pool.InterviewerInput(name=name, email=email, timezone=tz, **kwargs)
    return pool.create_interviewer(db, data, actor_id=None)


def loop(db) -> Loop:
    posting = Posting(title=f"Role {next(_counter)}")
    candidate = Candidate(name="Kim Lee", email=f"kim{next(_counter)}@example.com")
    row = Loop(candidate=candidate)
    db.add(posting)
    db.flush()
    row.posting_id = posting.id
    db.add(row)
    db.flush()
    return row


def book(
    db,
    person,
    start: datetime,
    *,
    minutes: int = 60,
    role: str = "assessor",
    level: str | None = None,
    competencies: tuple[str, ...] = (),
    status: InterviewStatus = InterviewStatus.SCHEDULED,
    seat_status: SeatStatus = SeatStatus.ACTIVE,
    round_name: str = "Compiler design",
    the_loop=None,
) -> Interview:
    """An interview of a fresh loop at ``start`` with ``person`` in one seat."""
    the_loop = the_loop or loop(db)
    interview = Interview(
        loop_id=the_loop.id,
        round_key="r1",
        round_name=round_name,
        round_detail={"competencies": [{"slug": s, "focus": "primary"} for s in competencies]},
        start=start,
        end=start + timedelta(minutes=minutes),
        uid=f"test-{next(_counter)}@planner.example",
        status=status,
    )
    interview.seats.append(
        Seat(interviewer_id=person.id, role=SeatRole(role), training_level=level, status=seat_status)
    )
    db.add(interview)
    db.flush()
    return interview
