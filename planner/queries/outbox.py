"""Read side of the outbox: counts per state and the message list for the coordinator's page."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from planner.models import OutboxMessage, OutboxState


def count_by_state(session: Session) -> dict[str, int]:
    """How many messages are in each state (every state present, zero when empty)."""
    counts = {state.value: 0 for state in OutboxState}
    rows = session.execute(select(OutboxMessage.state, func.count()).group_by(OutboxMessage.state))
    for state, count in rows:
        counts[state.value] = count
    return counts


def list_messages(
    session: Session, state: str | None = None, *, limit: int = 200, offset: int = 0
) -> list[OutboxMessage]:
    """Messages newest first, optionally only those in ``state`` (unknown states list nothing)."""
    query = select(OutboxMessage).order_by(OutboxMessage.created_at.desc(), OutboxMessage.id.desc())
    if state:
        try:
            query = query.where(OutboxMessage.state == OutboxState(state))
        except ValueError:
            return []
    return list(session.scalars(query.limit(limit).offset(offset)))


def get_message(session: Session, message_id: int) -> OutboxMessage | None:
    """One message by id."""
    return session.get(OutboxMessage, message_id)
