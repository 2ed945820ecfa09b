"""The demo's past loop: interviews last week with and without scorecards, and trainees ready to move up.

Past interviews cannot come from the scheduler (it plans only ahead of now), so they are written here
directly from the plan version, as a loop that took place would have left them; scorecards go through the
real scorecard service. Idempotent: nothing happens when the past candidate exists.
"""

from __future__ import annotations

import secrets
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.models import (
    Candidate,
    Competency,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    LoopStatus,
    LoopWindow,
    Posting,
    Qualification,
    Seat,
    SeatRole,
)
from planner.services import demo_data as data
from planner.services.plans import latest_version
from planner.services.scorecards import ScorecardInput, save_scorecard

#: Minutes between two rounds of the past loop.
BREAK = 15


def load_past_loop(session: Session, posting: Posting, now: datetime) -> bool:
    """Add last week's loop with its interviews, seats and scorecards; commit. False when it is already there."""
    name, email, tz = data.PAST_CANDIDATE
    version = latest_version(session, posting.id)
    if version is None or session.scalar(select(Candidate.id).where(Candidate.email == email)) is not None:
        return False
    zone = ZoneInfo(tz)
    today = now.astimezone(zone).date()
    day = today - timedelta(days=today.weekday() + 6)  # Tuesday of last week
    start = datetime.combine(day, time(9), zone)
    loop = Loop(posting_id=posting.id, candidate=Candidate(name=name, email=email, timezone=tz),
                plan_version_id=version.id, status=LoopStatus.COMPLETED, hiring_team=data.HIRING_TEAM,
                max_gap_minutes=60, video_url="https://meet.example.com/neuron-loop")
    people = {p.email: p for p in session.scalars(select(Interviewer))}
    names = dict(session.execute(select(Competency.slug, Competency.name)).all())
    cursor = start
    for item in version.snapshot:
        assessors, trainee = data.PAST_PANELS.get(item["name"], ([], None))
        if not assessors or any(a not in people for a in assessors):
            continue
        end = cursor + timedelta(minutes=item["minutes"])
        interview = Interview(
            round_key=item["key"], round_name=item["name"], start=cursor, end=end, status=InterviewStatus.COMPLETED,
            round_detail={"kind": item["kind"], "minutes": item["minutes"],
                          "competencies": [{"slug": c["slug"], "name": names.get(c["slug"], c["slug"]),
                                            "focus": c["focus"]} for c in item["competencies"]],
                          "focus_questions": list(item.get("focus_questions", []))},
            location="", video_url=loop.video_url, uid=f"interview-{secrets.token_hex(12)}@planner.example")
        interview.seats = [Seat(interviewer_id=people[a].id, role=SeatRole.ASSESSOR) for a in assessors]
        if trainee in people:
            interview.seats.append(Seat(interviewer_id=people[trainee].id, role=SeatRole.TRAINEE,
                                        training_level=_trainee_level(session, people[trainee], item)))
        loop.interviews.append(interview)
        cursor = end + timedelta(minutes=BREAK)
    loop.windows = [LoopWindow(start=start, end=max(cursor, start + timedelta(hours=1)))]
    session.add(loop)
    session.commit()
    for interview in loop.interviews:
        for seat in interview.seats:
            card = data.PAST_SCORECARDS.get((interview.round_name, seat.interviewer.email))
            if card is None:
                continue
            ratings, notes = card
            slugs = {c["slug"] for c in interview.round_detail["competencies"]}
            save_scorecard(session, seat.interviewer_id, interview.id,
                           ScorecardInput({s: v for s, v in ratings.items() if s in slugs}, notes),
                           submit=True, now=interview.end + timedelta(hours=2), actor_id=None)
    return True


def _trainee_level(session: Session, person: Interviewer, item: dict) -> str | None:
    """The trainee level the person holds in one of the round's competencies (what the seat records)."""
    slugs = [c["slug"] for c in item["competencies"]]
    rows = session.execute(select(Competency.slug, Qualification.level)
                           .join(Qualification, Qualification.competency_id == Competency.id)
                           .where(Qualification.interviewer_id == person.id, Competency.slug.in_(slugs))).all()
    return next((level.value for _slug, level in rows if level.value in ("shadow", "reverse-shadow")), None)
