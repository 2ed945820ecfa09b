"""Interview rows as calendar inputs: the event of an interview, its recipients and the panel on its seats."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from planner.core.calendar import InterviewEvent, Person
from planner.models import Interview, Interviewer, InterviewStatus, Loop, Posting, SeatRole, SeatStatus

if TYPE_CHECKING:
    from planner.services.invites import MailSettings


def competency_labels(detail: Mapping | None) -> tuple[str, ...]:
    """The competencies of ``Interview.round_detail`` as display strings, tolerant of missing keys."""
    labels = []
    for item in (detail or {}).get("competencies") or []:
        if isinstance(item, str):
            name, focus = item, ""
        elif isinstance(item, Mapping):
            name = str(item.get("name") or item.get("slug") or "").strip()
            focus = str(item.get("focus") or "").strip()
        else:
            continue
        if name:
            labels.append(f"{name} ({focus} focus)" if focus else name)
    return tuple(labels)


def focus_questions(detail: Mapping | None) -> tuple[str, ...]:
    """The focus questions of ``Interview.round_detail``, empty when absent."""
    raw = (detail or {}).get("focus_questions") or []
    return tuple(str(q).strip() for q in raw if isinstance(q, str | int | float) and str(q).strip())


def interview_event(
    session: Session,
    interview: Interview,
    settings: MailSettings,
    *,
    last_modified: datetime,
    sequence: int | None = None,
) -> InterviewEvent:
    """The calendar view of an interview row (status CANCELLED when the interview is cancelled)."""
    loop = interview.loop
    posting = session.get(Posting, loop.posting_id)
    status = "CANCELLED" if interview.status == InterviewStatus.CANCELLED else "CONFIRMED"
    return InterviewEvent(
        uid=interview.uid,
        sequence=interview.sequence if sequence is None else sequence,
        start_utc=interview.start,
        end_utc=interview.end,
        last_modified_utc=last_modified,
        candidate_name=loop.candidate.name,
        posting_title=posting.title if posting else "Interview",
        round_name=interview.round_name,
        competencies=competency_labels(interview.round_detail),
        focus_questions=focus_questions(interview.round_detail),
        location=(interview.location or loop.location or "").strip() or None,
        video_url=(interview.video_url or loop.video_url or "").strip() or None,
        interviewer_page_url=settings.interviewer_page_url,
        status=status,
    )


def person_of(interviewer: Interviewer) -> Person:
    """An interviewer as a calendar recipient."""
    return Person(email=interviewer.email, name=interviewer.name, timezone=interviewer.timezone or "UTC")


def candidate_person(loop: Loop) -> Person:
    """The loop's candidate as a calendar recipient."""
    candidate = loop.candidate
    return Person(email=candidate.email, name=candidate.name, timezone=candidate.timezone or "UTC")


def panel(interview: Interview) -> tuple[list[Person], list[Person]]:
    """Assessors and trainees on the interview's active seats."""
    active = [s for s in interview.seats if s.status == SeatStatus.ACTIVE]
    active.sort(key=lambda s: (s.role != SeatRole.ASSESSOR, s.interviewer.name, s.interviewer_id))
    assessors = [person_of(s.interviewer) for s in active if s.role == SeatRole.ASSESSOR]
    trainees = [person_of(s.interviewer) for s in active if s.role == SeatRole.TRAINEE]
    return assessors, trainees
