"""Read side of the outbox: counts per state, the message list and the loops it can be narrowed to."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from planner.models import Candidate, Loop, OutboxMessage, OutboxState, Posting


@dataclass(frozen=True, slots=True)
class LoopChoice:
    """A loop the outbox can be filtered by: whose loop, for which posting, and how many messages it has."""

    id: int
    candidate: str
    posting: str
    messages: int

    @property
    def label(self) -> str:
        return f"{self.candidate} — {self.posting} ({self.messages})"


def count_by_state(session: Session, *, loop_id: int | None = None) -> dict[str, int]:
    """How many messages are in each state (every state present, zero when empty), of one loop if given."""
    counts = {state.value: 0 for state in OutboxState}
    query = select(OutboxMessage.state, func.count()).group_by(OutboxMessage.state)
    if loop_id is not None:
        query = query.where(OutboxMessage.loop_id == loop_id)
    for state, count in session.execute(query):
        counts[state.value] = count
    return counts


def list_messages(
    session: Session, state: str | None = None, *, loop_id: int | None = None, limit: int = 200, offset: int = 0
) -> list[OutboxMessage]:
    """Messages newest first, optionally only those in ``state`` (unknown states list nothing) and of one loop."""
    query = select(OutboxMessage).order_by(OutboxMessage.created_at.desc(), OutboxMessage.id.desc())
    if state:
        try:
            query = query.where(OutboxMessage.state == OutboxState(state))
        except ValueError:
            return []
    if loop_id is not None:
        query = query.where(OutboxMessage.loop_id == loop_id)
    return list(session.scalars(query.limit(limit).offset(offset)))


def loop_choices(session: Session, *, also: int | None = None) -> list[LoopChoice]:
    """Every loop with at least one message (and loop ``also``, should it exist, even without any), by candidate
    name then newest loop first, with its posting and message count (one query)."""
    counts = (
        select(OutboxMessage.loop_id, func.count(OutboxMessage.id).label("n"))
        .where(OutboxMessage.loop_id.is_not(None))
        .group_by(OutboxMessage.loop_id)
        .subquery()
    )
    query = (
        select(Loop.id, Candidate.name, Posting.title, func.coalesce(counts.c.n, 0))
        .join(Candidate, Candidate.id == Loop.candidate_id)
        .join(Posting, Posting.id == Loop.posting_id)
        .outerjoin(counts, counts.c.loop_id == Loop.id)
        .order_by(Candidate.name, Loop.id.desc())
    )
    has_messages = counts.c.n.is_not(None)
    query = query.where(or_(has_messages, Loop.id == also) if also is not None else has_messages)
    return [LoopChoice(*row) for row in session.execute(query)]


def get_message(session: Session, message_id: int) -> OutboxMessage | None:
    """One message by id."""
    return session.get(OutboxMessage, message_id)
