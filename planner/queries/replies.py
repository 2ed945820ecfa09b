"""Read side of calendar answers: the inbox, declines to act on, open proposed times, one person's answers.

Every function issues a fixed number of queries, whatever the data size.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from planner.models import (
    Candidate,
    CounterState,
    InboundMessage,
    InboundOutcome,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    LoopStatus,
    PartStat,
    Seat,
    SeatStatus,
)

#: The inbox's tabs: every message, or one outcome.
INBOX_TABS = ("all", "applied", "counter", "stale", "refused", "duplicate")


@dataclass(frozen=True)
class InboxRow:
    """One processed message as the inbox lists it."""

    message: InboundMessage
    person: str
    candidate: str
    round_name: str


@dataclass(frozen=True)
class InboxPage:
    rows: tuple[InboxRow, ...]
    counts: dict[str, int]
    page: int
    pages: int
    first_shown: int


def list_inbox(session: Session, *, tab: str = "all", page: int = 1, size: int = 50,
               loop_id: int | None = None) -> InboxPage:
    """A page of processed messages, newest first, with the counts per outcome (three queries)."""
    scope = [InboundMessage.loop_id == loop_id] if loop_id is not None else []
    counts = {outcome.value: count for outcome, count in session.execute(
        select(InboundMessage.outcome, func.count(InboundMessage.id)).where(*scope)
        .group_by(InboundMessage.outcome)).all()}
    counts = {tab_name: counts.get(tab_name, 0) for tab_name in INBOX_TABS[1:]}
    counts["all"] = sum(counts.values())
    tab = tab if tab in INBOX_TABS else "all"
    size = max(1, size)
    pages = max(1, -(-counts[tab] // size))
    page = min(max(page, 1), pages)
    where = [*scope] + ([InboundMessage.outcome == InboundOutcome(tab)] if tab != "all" else [])
    rows = session.execute(
        select(InboundMessage, Interviewer.name, Candidate.name, Interview.round_name)
        .outerjoin(Interviewer, Interviewer.id == InboundMessage.interviewer_id)
        .outerjoin(Interview, Interview.id == InboundMessage.interview_id)
        .outerjoin(Loop, Loop.id == InboundMessage.loop_id)
        .outerjoin(Candidate, Candidate.id == Loop.candidate_id)
        .where(*where).order_by(InboundMessage.received_at.desc(), InboundMessage.id.desc())
        .limit(size).offset((page - 1) * size)
    ).all()
    return InboxPage(rows=tuple(InboxRow(m, person or "", candidate or "", round_name or "")
                                for m, person, candidate, round_name in rows),
                     counts=counts, page=page, pages=pages, first_shown=(page - 1) * size + 1)


@dataclass(frozen=True)
class Decline:
    """Someone still seated on an upcoming interview who said they will not come."""

    interview_id: int
    loop_id: int
    round_name: str
    start: datetime
    interviewer_id: int
    name: str
    role: str
    comment: str
    answered_at: datetime | None
    via: str
    candidate: str


def list_declines(session: Session, *, now: datetime, loop_id: int | None = None,
                  limit: int | None = None) -> list[Decline]:
    """Declines on active seats of upcoming scheduled interviews of scheduled loops, soonest first (one query).

    A decline stops being listed once the person is replaced (their seat is removed), answers again,
    or the interview is cancelled or over.
    """
    query = (
        select(Seat, Interview.round_name, Interview.start, Interview.loop_id, Interviewer.name, Candidate.name)
        .join(Interview, Interview.id == Seat.interview_id)
        .join(Interviewer, Interviewer.id == Seat.interviewer_id)
        .join(Loop, Loop.id == Interview.loop_id)
        .join(Candidate, Candidate.id == Loop.candidate_id)
        .where(Seat.status == SeatStatus.ACTIVE, Seat.partstat == PartStat.DECLINED,
               Interview.status == InterviewStatus.SCHEDULED, Interview.start > now,
               Loop.status == LoopStatus.SCHEDULED)
        .order_by(Interview.start, Interviewer.name, Seat.id)
    )
    if loop_id is not None:
        query = query.where(Interview.loop_id == loop_id)
    if limit is not None:
        query = query.limit(limit)
    return [Decline(seat.interview_id, loop, round_name, start, seat.interviewer_id, name, seat.role.value,
                    seat.partstat_comment, seat.partstat_at, seat.partstat_via or "", candidate)
            for seat, round_name, start, loop, name, candidate in session.execute(query).all()]


def count_declines(session: Session, *, now: datetime) -> int:
    """How many declines wait for a replacement, everywhere."""
    return session.scalar(
        select(func.count(Seat.id)).join(Interview, Interview.id == Seat.interview_id)
        .join(Loop, Loop.id == Interview.loop_id)
        .where(Seat.status == SeatStatus.ACTIVE, Seat.partstat == PartStat.DECLINED,
               Interview.status == InterviewStatus.SCHEDULED, Interview.start > now,
               Loop.status == LoopStatus.SCHEDULED)) or 0


@dataclass(frozen=True)
class Proposal:
    """An open COUNTER: someone proposes another time for an upcoming interview."""

    inbound_id: int
    interview_id: int
    loop_id: int
    round_name: str
    start: datetime
    end: datetime
    proposed_start: datetime
    proposed_end: datetime
    name: str
    comment: str
    received_at: datetime
    candidate: str


def list_proposals(session: Session, *, now: datetime, loop_id: int | None = None,
                   limit: int | None = None) -> list[Proposal]:
    """Open proposed new times for upcoming scheduled interviews, newest first (one query)."""
    query = (
        select(InboundMessage, Interview, Interviewer.name, Candidate.name)
        .join(Interview, Interview.id == InboundMessage.interview_id)
        .join(Loop, Loop.id == Interview.loop_id)
        .join(Candidate, Candidate.id == Loop.candidate_id)
        .outerjoin(Interviewer, Interviewer.id == InboundMessage.interviewer_id)
        .where(InboundMessage.outcome == InboundOutcome.COUNTER, InboundMessage.counter_state == CounterState.OPEN,
               Interview.status == InterviewStatus.SCHEDULED, Interview.start > now,
               Loop.status == LoopStatus.SCHEDULED)
        .order_by(InboundMessage.received_at.desc(), InboundMessage.id.desc())
    )
    if loop_id is not None:
        query = query.where(Interview.loop_id == loop_id)
    if limit is not None:
        query = query.limit(limit)
    return [Proposal(m.id, i.id, i.loop_id, i.round_name, i.start, i.end, m.proposed_start, m.proposed_end,
                     name or m.attendee, m.comment, m.received_at, candidate)
            for m, i, name, candidate in session.execute(query).all()]


@dataclass(frozen=True)
class MyAnswer:
    """The interviewer's own answer to one interview."""

    partstat: str
    at: datetime | None
    comment: str
    via: str


def my_answers(session: Session, interviewer_id: int) -> dict[int, MyAnswer]:
    """Interview id -> the interviewer's answer, for their active seats that have one (one query)."""
    rows = session.scalars(select(Seat).where(Seat.interviewer_id == interviewer_id,
                                              Seat.status == SeatStatus.ACTIVE, Seat.partstat.is_not(None)))
    return {seat.interview_id: MyAnswer(seat.partstat.value, seat.partstat_at, seat.partstat_comment,
                                        seat.partstat_via or "") for seat in rows}


@dataclass(frozen=True)
class RepliesOverview:
    """What the coordinator's overview shows about answers."""

    declines: tuple[Decline, ...]
    decline_total: int
    proposals: tuple[Proposal, ...]
    refused_this_week: int


def get_replies_overview(session: Session, *, now: datetime, limit: int = 8) -> RepliesOverview:
    """Declines to replace, open proposed times and recently refused messages (four queries)."""
    refused = session.scalar(select(func.count(InboundMessage.id)).where(
        InboundMessage.outcome == InboundOutcome.REFUSED, InboundMessage.received_at >= now - timedelta(days=7)))
    return RepliesOverview(declines=tuple(list_declines(session, now=now, limit=limit)),
                           decline_total=count_declines(session, now=now),
                           proposals=tuple(list_proposals(session, now=now, limit=limit)),
                           refused_this_week=refused or 0)

