"""Test data for the invites, outbox, feed and interviewer-page tests, built directly with the models.

The default scenario straddles a daylight-saving change: on Sun 28 Mar 2027 Europe/London moves to
BST (01:00 UTC), and on Sun 4 Apr 2027 Australia/Sydney leaves AEDT. Interviewers sit in
America/Los_Angeles, Europe/London and Asia/Kolkata; the candidate is in Australia/Sydney.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from planner.models import (
    Candidate,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    LoopStatus,
    Posting,
    Seat,
    SeatRole,
)
from planner.services.invites import MailSettings, new_interview_uid

SETTINGS = MailSettings(
    organizer_email="recruiting@hire.example",
    organizer_name="Hire Example Recruiting",
    base_url="https://planner.hire.example",
    uid_domain="hire.example",
)
NOW = datetime(2027, 3, 20, 12, 0, tzinfo=UTC)
#: 08:00 UTC on Mon 29 Mar 2027: London has just moved to BST (09:00), LA is on PDT (01:00),
#: Kolkata is 13:30 and Sydney still on AEDT (19:00).
FIRST_START = datetime(2027, 3, 29, 8, 0, tzinfo=UTC)

PEOPLE = [
    ("Ana Ruiz", "ana@hire.example", "America/Los_Angeles"),
    ("Oliver Hughes", "oliver@hire.example", "Europe/London"),
    ("Priya Nair", "priya@hire.example", "Asia/Kolkata"),
]

DETAIL = {
    "kind": "technical",
    "minutes": 60,
    "competencies": [
        {"slug": "compiler-design", "name": "Compiler design", "focus": "primary"},
        {"slug": "mentoring", "name": "Mentoring", "focus": "secondary"},
    ],
    "focus_questions": ["Walk through a lowering pass you designed.", "How do you grow junior engineers?"],
}


@dataclass
class Scenario:
    """What :func:`make_loop` created."""

    posting: Posting
    candidate: Candidate
    loop: Loop
    interviewers: list[Interviewer]
    interviews: list[Interview]


def make_interviewer(session: Session, name: str, email: str, tz: str, *, user_id: int | None = None):
    """An interviewer with a fresh feed token."""
    person = Interviewer(
        name=name, email=email, timezone=tz, feed_token=secrets.token_urlsafe(24), user_id=user_id
    )
    session.add(person)
    session.flush()
    return person


def make_loop(
    session: Session,
    *,
    people=PEOPLE,
    trainee: tuple[str, str, str] | None = None,
    rounds: int = 2,
    first_start: datetime = FIRST_START,
    candidate_tz: str = "Australia/Sydney",
    existing: list[Interviewer] | None = None,
    tag: str = "",
) -> Scenario:
    """A posting, a candidate in ``candidate_tz`` and a loop of ``rounds`` interviews, each with every person
    of ``people`` as assessor (and ``trainee`` as trainee); not announced yet."""
    posting = Posting(title="Senior ML Compiler Engineer", team="neuron-compiler")
    slug = re.sub(r"[^a-z0-9]+", "-", tag.lower()).strip("-")
    candidate = Candidate(
        name=f"Kim Lee{tag}",
        email=f"kim{'-' + slug if slug else ''}@candidate.example",
        timezone=candidate_tz,
    )
    session.add_all([posting, candidate])
    session.flush()
    loop = Loop(
        posting_id=posting.id,
        candidate_id=candidate.id,
        status=LoopStatus.SCHEDULED,
        video_url="https://video.example/room-1",
    )
    session.add(loop)
    session.flush()
    interviewers = existing or [make_interviewer(session, n, e, z) for n, e, z in people]
    trainee_row = make_interviewer(session, *trainee) if trainee else None
    interviews = []
    for number in range(rounds):
        start = first_start + timedelta(hours=2 * number)
        interview = Interview(
            loop_id=loop.id,
            round_key=f"r{number + 1}",
            round_name=["Compiler design", "Bar raiser"][number % 2],
            round_detail=DETAIL,
            start=start,
            end=start + timedelta(minutes=60),
            uid=new_interview_uid(SETTINGS),
            sequence=0,
            status=InterviewStatus.SCHEDULED,
        )
        session.add(interview)
        session.flush()
        for person in interviewers:
            session.add(Seat(interview_id=interview.id, interviewer_id=person.id, role=SeatRole.ASSESSOR))
        if trainee_row:
            session.add(
                Seat(
                    interview_id=interview.id,
                    interviewer_id=trainee_row.id,
                    role=SeatRole.TRAINEE,
                    training_level="shadow",
                )
            )
        interviews.append(interview)
    session.flush()
    session.expire_all()
    all_people = [*interviewers, *([trainee_row] if trainee_row else [])]
    return Scenario(posting, candidate, loop, all_people, [session.get(Interview, i.id) for i in interviews])
