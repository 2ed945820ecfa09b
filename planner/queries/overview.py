"""The coordinator's overview: what needs attention today, in a handful of queries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from planner.models import (
    Candidate,
    Interview,
    InterviewStatus,
    Loop,
    LoopStatus,
    OutboxMessage,
    OutboxState,
    Posting,
    PostingStatus,
)
from planner.queries.coverage import PostingSummary, list_posting_coverage
from planner.queries.pool import ReadyItem, list_ready


@dataclass(frozen=True)
class Overview:
    open_postings: int
    draft_loops: int
    scheduled_loops: int
    interviews_next_14_days: int
    outbox_pending: int
    outbox_failed: int
    ready_to_promote: tuple[ReadyItem, ...]
    postings_needing_attention: tuple[PostingSummary, ...]
    next_interviews: tuple[tuple[datetime, str, str, int], ...]


def get_overview(session: Session, *, now: datetime) -> Overview:
    """Counts and short lists for the coordinator's home page (bounded queries, whatever the data size)."""
    open_postings = session.scalar(select(func.count(Posting.id)).where(Posting.status == PostingStatus.OPEN))
    loops = dict(session.execute(select(Loop.status, func.count(Loop.id)).group_by(Loop.status)).all())
    outbox = dict(session.execute(
        select(OutboxMessage.state, func.count(OutboxMessage.id)).group_by(OutboxMessage.state)).all())
    week_ahead = (Interview.status == InterviewStatus.SCHEDULED, Interview.start >= now,
                  Interview.start < now + timedelta(days=14))
    upcoming = session.scalar(select(func.count(Interview.id)).where(*week_ahead))
    next_rows = session.execute(
        select(Interview.start, Interview.round_name, Loop.id, Loop.candidate_id)
        .join(Loop, Interview.loop_id == Loop.id).where(*week_ahead).order_by(Interview.start).limit(5)
    ).all()
    names = dict(session.execute(select(Candidate.id, Candidate.name).where(
        Candidate.id.in_({row.candidate_id for row in next_rows}))).all())
    attention = tuple(row for row in list_posting_coverage(session, open_only=True)
                      if row.status == "open"
                      and (row.critical or row.coverage_status in ("gap", "no-assessor", "thin", "empty")))
    return Overview(
        open_postings=open_postings or 0,
        draft_loops=loops.get(LoopStatus.DRAFT, 0),
        scheduled_loops=loops.get(LoopStatus.SCHEDULED, 0),
        interviews_next_14_days=upcoming or 0,
        outbox_pending=outbox.get(OutboxState.PENDING, 0) + outbox.get(OutboxState.SENDING, 0),
        outbox_failed=outbox.get(OutboxState.FAILED, 0),
        ready_to_promote=list_ready(session, now=now),
        postings_needing_attention=attention,
        next_interviews=tuple(
            (row.start, row.round_name, names.get(row.candidate_id, ""), row.id) for row in next_rows),
    )
