"""Read side of the interviewer's home page: their interviews with what to assess."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from planner.models import Interview, Interviewer, InterviewStatus, Loop, Posting, Seat, SeatStatus


@dataclass(frozen=True)
class MyInterview:
    """One interview as its interviewer sees it."""

    id: int
    start: datetime
    end: datetime
    round_name: str
    kind: str
    candidate_name: str
    posting_title: str
    role: str
    status: str
    competencies: tuple[dict, ...]
    focus_questions: tuple[str, ...]
    location: str
    video_url: str
    colleagues: tuple[str, ...]


def interviewer_for_user(session: Session, user_id: int) -> Interviewer | None:
    """The pool entry linked to a login, if any."""
    return session.scalar(select(Interviewer).where(Interviewer.user_id == user_id))


def _competencies(detail: dict | None) -> tuple[dict, ...]:
    out = []
    for item in (detail or {}).get("competencies") or []:
        if isinstance(item, str):
            out.append({"name": item, "focus": ""})
        elif isinstance(item, dict) and (item.get("name") or item.get("slug")):
            out.append(
                {"name": str(item.get("name") or item.get("slug")), "focus": str(item.get("focus") or "")}
            )
    return tuple(out)


def list_my_interviews(
    session: Session, interviewer_id: int, now: datetime
) -> tuple[list[MyInterview], list[MyInterview]]:
    """(upcoming, past) interviews of the interviewer's non-removed seats; past ones newest first."""
    rows = session.execute(
        select(Interview, Seat)
        .join(Seat, Seat.interview_id == Interview.id)
        .where(Seat.interviewer_id == interviewer_id, Seat.status != SeatStatus.REMOVED)
        .options(
            selectinload(Interview.loop).selectinload(Loop.candidate),
            selectinload(Interview.seats).selectinload(Seat.interviewer),
        )
        .order_by(Interview.start, Interview.id)
    ).all()
    titles = dict(session.execute(select(Posting.id, Posting.title)).all()) if rows else {}
    upcoming, past = [], []
    for interview, seat in rows:
        detail = interview.round_detail or {}
        item = MyInterview(
            id=interview.id,
            start=interview.start,
            end=interview.end,
            round_name=interview.round_name,
            kind=str(detail.get("kind") or ""),
            candidate_name=interview.loop.candidate.name,
            posting_title=titles.get(interview.loop.posting_id, ""),
            role=seat.role.value,
            status=interview.status.value,
            competencies=_competencies(detail),
            focus_questions=tuple(str(q) for q in detail.get("focus_questions") or [] if str(q).strip()),
            location=interview.location or interview.loop.location or "",
            video_url=interview.video_url or interview.loop.video_url or "",
            colleagues=tuple(
                s.interviewer.name
                for s in interview.seats
                if s.status == SeatStatus.ACTIVE and s.interviewer_id != interviewer_id
            ),
        )
        is_past = interview.end < now or interview.status == InterviewStatus.COMPLETED
        (past if is_past else upcoming).append(item)
    past.reverse()
    return upcoming, past
