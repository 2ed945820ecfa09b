"""Withdrawing messages nobody has received yet, when the person they are for is taken off an interview.

A person replaced before the worker delivered their invite never heard of the interview: sending them
the invite and then its CANCEL is noise in their mailbox. Their pending messages for the interview are
dropped (audited) and no CANCEL is queued. A message a worker has claimed (``sending``) may already be
on its way, and a ``failed`` one may have reached them before a worker crashed, so either counts as
received: the person then gets the CANCEL as usual.

Nothing here commits: it runs in the transaction of the replacement.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from planner.models import OutboxMessage, OutboxState
from planner.services.audit import record


@dataclass(frozen=True)
class Withdrawal:
    """What happened to one person's messages about one interview."""

    #: Some message may have reached them (sent, being sent, or failed after a try): they need a CANCEL.
    told: bool
    #: Ids of the pending messages removed from the outbox.
    dropped: tuple[int, ...]


def withdraw_unsent(session: Session, interview_id: int, email: str, *, actor_id: int | None,
                    interviewer_id: int | None = None, loop_id: int | None = None) -> Withdrawal:
    """Drop the pending messages to ``email`` about the interview; say whether anything may have reached them.

    Each row is deleted only while still pending (``DELETE ... WHERE state = 'pending'``), so a message a
    worker claims at the same moment is kept, and counts as told.
    """
    rows = session.execute(
        select(OutboxMessage.id, OutboxMessage.state, OutboxMessage.kind, OutboxMessage.sequence)
        .where(OutboxMessage.interview_id == interview_id,
               func.lower(OutboxMessage.recipient_email) == email.lower())
        .order_by(OutboxMessage.id)).all()
    told = any(row.state != OutboxState.PENDING for row in rows)
    dropped = []
    for row in rows:
        if row.state != OutboxState.PENDING:
            continue
        gone = session.execute(delete(OutboxMessage).where(
            OutboxMessage.id == row.id, OutboxMessage.state == OutboxState.PENDING)).rowcount
        if gone:
            dropped.append(row.id)
        else:
            told = True  # claimed by a worker meanwhile: it may be on its way
    if dropped:
        kinds = {row.id: f"{row.kind} (SEQUENCE {row.sequence})" for row in rows}
        record(session, actor_id=actor_id, action="outbox_withdrawn", entity="interview", entity_id=interview_id,
               reason="taken off the interview before the message was sent",
               details={"recipient": email, "messages": dropped, "kinds": [kinds[i] for i in dropped],
                        "cancel_sent": told},
               loop_id=loop_id, interviewer_id=interviewer_id)
    return Withdrawal(told, tuple(dropped))
