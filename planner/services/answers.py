"""Answers given in the app, and what a coordinator does with a proposed new time (COUNTER).

* :func:`answer_invite`: an interviewer accepts or declines an upcoming interview on their own page (a
  decline needs a reason). It is recorded on their seat exactly like an answer from their calendar.
* :func:`move_to_counter`: move the round to the time an interviewer proposed, through the same
  reschedule use case the loop page uses (every rule re-checked under lock, the update sent to the
  panel and the candidate); the proposal is closed in the same transaction.
* :func:`dismiss_counter`: close a proposal without moving anything.

Each function validates, changes, audits and commits once; bad input changes nothing.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.core.errors import NotFound, ValidationFailed
from planner.models import (
    CounterState,
    InboundMessage,
    InboundOutcome,
    Interview,
    Interviewer,
    InterviewStatus,
    LoopStatus,
    PartStat,
    Seat,
    SeatStatus,
)
from planner.services.audit import record
from planner.services.changes import reschedule_interview
from planner.services.invites import MailSettings

#: What an interviewer can say on their page.
APP_ANSWERS = ("accepted", "declined")
MAX_COMMENT = 2000


def answer_invite(session: Session, interviewer_id: int, interview_id: int, answer: str, reason: str | None, *,
                  actor_id: int | None, now: datetime) -> Seat:
    """Record the interviewer's own answer to an upcoming interview of theirs; commit.

    :raise NotFound: the interviewer holds no active seat on that interview.
    :raise ValidationFailed: an unknown answer, a decline without a reason, or an interview that is
        cancelled, over, or in a loop that is no longer scheduled.
    """
    if answer not in APP_ANSWERS:
        raise ValidationFailed("Choose accept or decline.")
    text = " ".join((reason or "").split())
    if answer == "declined" and not text:
        raise ValidationFailed("Say why you decline; the coordinator reads it when finding someone else.")
    if len(text) > MAX_COMMENT:
        raise ValidationFailed(f"Keep the reason under {MAX_COMMENT} characters.")
    row = session.execute(
        select(Seat, Interview).join(Interview, Interview.id == Seat.interview_id)
        .where(Seat.interview_id == interview_id, Seat.interviewer_id == interviewer_id,
               Seat.status == SeatStatus.ACTIVE)
    ).first()
    if row is None:
        raise NotFound("No such interview among yours.")
    seat, interview = row
    if interview.status != InterviewStatus.SCHEDULED or interview.loop.status != LoopStatus.SCHEDULED:
        raise ValidationFailed(f"'{interview.round_name}' is {interview.status.value}; there is nothing to answer.")
    if interview.start <= now:
        raise ValidationFailed(f"'{interview.round_name}' has already started; answer before an interview, "
                               "or tell the coordinator.")
    try:
        seat.partstat, seat.partstat_at = PartStat(answer), now
        seat.partstat_comment, seat.partstat_via = text, "app"
        record(session, actor_id=actor_id, action="invite_answered", entity="seat", entity_id=seat.id,
               reason=text or answer, loop_id=interview.loop_id, interviewer_id=interviewer_id,
               details={"interview_id": interview.id, "partstat": answer, "via": "app",
                        "start": interview.start.isoformat()})
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return seat


def _open_counter(session: Session, inbound_id: int) -> InboundMessage:
    row = session.get(InboundMessage, inbound_id)
    if row is None or row.outcome != InboundOutcome.COUNTER:
        raise NotFound(f"There is no proposed new time #{inbound_id}.")
    if row.counter_state != CounterState.OPEN:
        state = row.counter_state.value if row.counter_state else "closed"
        raise ValidationFailed(f"That proposed time was already {state}; reload the page.")
    if row.interview_id is None or row.proposed_start is None:
        raise ValidationFailed("The interview of that proposal no longer exists.")
    return row


def _name(session: Session, row: InboundMessage) -> str:
    person = session.get(Interviewer, row.interviewer_id) if row.interviewer_id else None
    return person.name if person else row.attendee


def move_to_counter(session: Session, inbound_id: int, *, actor_id: int | None, now: datetime,
                    settings: MailSettings) -> Interview:
    """Move the round to the start the interviewer proposed (same panel, same length) and close the proposal.

    :raise NotFound: no such proposal.
    :raise ValidationFailed: the proposal is closed, or the new start breaks a rule (the reschedule says which).
    :raise Conflict: someone changed these people's calendars at the same moment; nothing is written.
    """
    row = _open_counter(session, inbound_id)
    name = _name(session, row)
    interview_id, start = row.interview_id, row.proposed_start
    try:
        # Closed first, so the reschedule's single commit carries it; any failure rolls both back.
        row.counter_state, row.resolved_at, row.resolved_by = CounterState.MOVED, now, actor_id
        record(session, actor_id=actor_id, action="counter_accepted", entity="inbound_message", entity_id=row.id,
               reason=f"moved to the time {name} proposed", loop_id=row.loop_id, interviewer_id=row.interviewer_id,
               details={"interview_id": interview_id, "start": start.isoformat()})
        return reschedule_interview(session, interview_id, start, reason=f"{name} proposed this time",
                                    actor_id=actor_id, now=now, settings=settings)
    except BaseException:
        session.rollback()
        raise


def dismiss_counter(session: Session, inbound_id: int, *, actor_id: int | None, now: datetime) -> InboundMessage:
    """Close a proposed new time without moving the round; commit.

    :raise NotFound: no such proposal.
    :raise ValidationFailed: it is already closed.
    """
    row = _open_counter(session, inbound_id)
    try:
        row.counter_state, row.resolved_at, row.resolved_by = CounterState.DISMISSED, now, actor_id
        record(session, actor_id=actor_id, action="counter_dismissed", entity="inbound_message", entity_id=row.id,
               reason=f"kept the time; {_name(session, row)}'s proposal dismissed", loop_id=row.loop_id,
               interviewer_id=row.interviewer_id,
               details={"interview_id": row.interview_id, "start": row.proposed_start.isoformat()})
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return row
