"""Scorecards past due: assessors who sat an interview and have not submitted its scorecard in time.

Only assessors owe one: trainee scorecards are kept out of the decision view, so nobody is chased for
them. Cancelled interviews and seats taken away owe nothing; a submitted scorecard ends it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from planner.core.reminders import DEFAULT_DUE_HOURS, due_at
from planner.models import (
    Candidate,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    Scorecard,
    Seat,
    SeatRole,
    SeatStatus,
)


@dataclass(frozen=True)
class OverdueScorecard:
    """One scorecard not submitted by its due time."""

    interview_id: int
    loop_id: int
    round_name: str
    candidate: str
    start: datetime
    end: datetime
    due: datetime
    interviewer_id: int
    interviewer_name: str
    interviewer_email: str
    interviewer_timezone: str
    interviewer_active: bool
    #: True when a draft was saved (started, not submitted).
    has_draft: bool

    def overdue(self, now: datetime) -> timedelta:
        return now - self.due


@dataclass(frozen=True)
class OverdueList:
    """The first few overdue scorecards (most overdue first) and how many there are in all."""

    items: tuple[OverdueScorecard, ...]
    total: int
    due_hours: int
    #: The moment "overdue" was measured at.
    now: datetime


def _overdue_query(now: datetime, due_hours: int, columns):
    card = and_(Scorecard.interview_id == Interview.id, Scorecard.interviewer_id == Seat.interviewer_id)
    return (select(*columns)
            .select_from(Seat)
            .join(Interview, Interview.id == Seat.interview_id)
            .join(Interviewer, Interviewer.id == Seat.interviewer_id)
            .outerjoin(Scorecard, card)
            .where(Seat.role == SeatRole.ASSESSOR, Seat.status == SeatStatus.ACTIVE,
                   Interview.status != InterviewStatus.CANCELLED,
                   # Strictly before: exactly at the due time the scorecard is not late yet.
                   Interview.end < now - timedelta(hours=due_hours),
                   Scorecard.submitted_at.is_(None)))


def list_overdue(session: Session, *, now: datetime, due_hours: int = DEFAULT_DUE_HOURS,
                 limit: int | None = None, interviewer_ids=None) -> list[OverdueScorecard]:
    """Overdue scorecards, most overdue first (one query), optionally of some interviewers only."""
    query = _overdue_query(now, due_hours, (*_listed_columns(), Candidate.name.label("candidate")))
    query = (query.join(Loop, Loop.id == Interview.loop_id).join(Candidate, Candidate.id == Loop.candidate_id)
             .order_by(Interview.end, Interview.id, Interviewer.name))
    if interviewer_ids is not None:
        query = query.where(Seat.interviewer_id.in_(interviewer_ids))
    if limit is not None:
        query = query.limit(limit)
    return [_item(row, due_hours) for row in session.execute(query)]


def _listed_columns() -> tuple:
    """What a listed overdue scorecard shows, but its candidate's name (labelled as _item reads them)."""
    return (Interview.id.label("interview_id"), Interview.loop_id, Interview.round_name, Interview.start,
            Interview.end, Interviewer.id.label("interviewer_id"), Interviewer.name, Interviewer.email,
            Interviewer.timezone, Interviewer.active, Scorecard.id.label("card_id"))


def _item(row, due_hours: int) -> OverdueScorecard:
    return OverdueScorecard(row.interview_id, row.loop_id, row.round_name, row.candidate, row.start, row.end,
                            due_at(row.end, due_hours), row.interviewer_id, row.name, row.email, row.timezone,
                            row.active, row.card_id is not None)


def get_overdue_scorecards(session: Session, *, now: datetime, due_hours: int = DEFAULT_DUE_HOURS,
                           limit: int = 8) -> OverdueList:
    """What the coordinator's overview lists: the ``limit`` most overdue and the total (one query).

    The total is counted over the same rows as the list (a window count before the limit) rather than by a
    second scan, and candidates' names are joined for the listed rows only (every join here follows a
    required foreign key, so none of them drops a row).
    """
    columns = (*_listed_columns(), func.count().over().label("total"))
    first = (_overdue_query(now, due_hours, columns)
             .order_by(Interview.end, Interview.id, Interviewer.name).limit(limit).subquery())
    rows = session.execute(
        select(first, Candidate.name.label("candidate"))
        .join(Loop, Loop.id == first.c.loop_id).join(Candidate, Candidate.id == Loop.candidate_id)
        .order_by(first.c.end, first.c.interview_id, first.c.name)
    ).all()
    return OverdueList(tuple(_item(row, due_hours) for row in rows), rows[0].total if rows else 0, due_hours, now)
