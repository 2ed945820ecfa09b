"""Record calendar answers that came in by mail or upload: match, check, apply, list on the inbox; commit once.

Each message becomes one :class:`InboundMessage` row, whatever its outcome, written in the same
transaction as the change it causes: an answer on the person's seat (``applied``), a proposed new
time for the coordinator (``counter``), or nothing (``stale``, ``refused``, ``duplicate``). The IMAP
poller passes the message's ``imap_key``; its unique constraint makes a second processing of the same
message impossible, so a poller killed between the commit and marking the message \\Seen cannot apply
it twice.

The checks, in order: the bytes are an answer at all (:mod:`planner.core.inbound`); the UID is one of
our interviews; the attendee holds a seat on it; the email comes from that attendee (a bare .ics
uploaded by a coordinator has no sender and is trusted as the coordinator's word); the interview is
not cancelled; the answer's SEQUENCE is not older than the last invite sent. A REPLY older than the
answer already recorded (by DTSTAMP) is stale too: RFC 5546 orders replies of one SEQUENCE that way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from planner.core.calendar.itinerary import ITINERARY_UID_PREFIX
from planner.core.inbound import DEFAULT_LIMITS, InboundLimits, InboundReply, Refusal, fingerprint, read_reply
from planner.models import (
    CounterState,
    InboundMessage,
    InboundOutcome,
    Interview,
    Interviewer,
    InterviewStatus,
    PartStat,
    Seat,
    SeatStatus,
)
from planner.services.audit import record

SOURCES = ("imap", "upload")
#: How an answer reached the seat, by the message's source.
VIA = {"imap": "mail", "upload": "upload"}
ANSWER_WORDS = {"accepted": "accepted", "tentative": "tentatively accepted", "declined": "declined",
                "needs-action": "has not decided on"}


@dataclass(frozen=True)
class Match:
    """The interview and seat an answer is about."""

    interview: Interview
    seat: Seat
    person: Interviewer


class _Refused(Exception):
    """A check failed; the message says why, and the row records it."""


def _fill(row: InboundMessage, found: InboundReply | Refusal) -> None:
    row.sender = (found.sender or "")[:254]
    row.subject = found.subject[:300]
    if isinstance(found, InboundReply):
        row.method, row.calendar_uid = found.method, found.uid[:255]
        row.attendee, row.sequence = found.attendee[:254], found.sequence
        row.partstat = (found.partstat or "").lower()[:16]
        row.comment = found.comment
        row.proposed_start, row.proposed_end = found.proposed_start, found.proposed_end


def _interview(session: Session, uid: str) -> Interview:
    interview = session.scalar(select(Interview).where(Interview.uid == uid))
    if interview is not None:
        return interview
    if uid.startswith(ITINERARY_UID_PREFIX) and session.scalar(
            select(Interview.id).where(Interview.uid == uid.removeprefix(ITINERARY_UID_PREFIX))):
        raise _Refused("This is the candidate's answer to their own copy of the interview; candidates' answers are "
                       "not tracked here.")
    raise _Refused(f"No interview has the calendar UID {uid[:80]!r}; it is not an answer to one of the planner's "
                   "invites.")


def _match(session: Session, found: InboundReply, source: str, loop_id: int | None) -> Match:
    interview = _interview(session, found.uid)
    if loop_id is not None and interview.loop_id != loop_id:
        raise _Refused(f"This answer is about another candidate's loop ({interview.loop.candidate.name}); upload "
                       "it on that loop's page.")
    row = session.execute(
        select(Seat, Interviewer).join(Interviewer, Interviewer.id == Seat.interviewer_id)
        .where(Seat.interview_id == interview.id, func.lower(Interviewer.email) == found.attendee)
    ).first()
    if row is None:
        raise _Refused(f"{found.attendee} is not on the panel of '{interview.round_name}'.")
    seat, person = row
    if seat.status != SeatStatus.ACTIVE:
        raise _Refused(f"{person.name} was taken off '{interview.round_name}'; their answer changes nothing.")
    if source == "imap" and not found.sender:
        raise _Refused("The message has no usable From address, so nobody can tell who answered.")
    if found.sender and found.sender != found.attendee:
        raise _Refused(f"The message comes from {found.sender}, but the answer is {person.name}'s "
                       f"({found.attendee}); people can only answer for themselves.")
    if interview.status == InterviewStatus.CANCELLED:
        raise _Refused(f"'{interview.round_name}' is cancelled; there is nothing to answer.")
    return Match(interview, seat, person)


def _stale_reason(found: InboundReply, match: Match) -> str | None:
    interview, seat = match.interview, match.seat
    if found.sequence < interview.sequence:
        return (f"It answers version {found.sequence} of the invite, but version {interview.sequence} was sent "
                "since (the time or the panel changed); it changes nothing.")
    if not found.is_counter and found.dtstamp and seat.partstat_at and found.dtstamp < seat.partstat_at:
        return f"A later answer from {match.person.name} is already recorded; this older one changes nothing."
    return None


def _apply_reply(session: Session, row: InboundMessage, found: InboundReply, match: Match, *, source: str,
                 actor_id: int | None, now: datetime) -> None:
    seat, interview, person = match.seat, match.interview, match.person
    partstat = PartStat((found.partstat or "needs-action").lower())
    seat.partstat = partstat
    # When the person answered, as their client says; never later than when it arrived.
    seat.partstat_at = min(found.dtstamp, now) if found.dtstamp else now
    seat.partstat_comment = found.comment
    seat.partstat_via = VIA[source]
    row.outcome = InboundOutcome.APPLIED
    row.reason = f"{person.name} {ANSWER_WORDS[partstat.value]} '{interview.round_name}'."
    session.add(row)
    session.flush()
    record(session, actor_id=actor_id, action="reply_recorded", entity="seat", entity_id=seat.id,
           reason=found.comment or partstat.value, loop_id=interview.loop_id, interviewer_id=person.id,
           details={"interview_id": interview.id, "partstat": partstat.value, "via": VIA[source],
                    "sequence": found.sequence, "inbound_id": row.id, "start": interview.start.isoformat()})


def _apply_counter(session: Session, row: InboundMessage, match: Match, *, source: str,
                   actor_id: int | None) -> None:
    interview, person = match.interview, match.person
    row.outcome, row.counter_state = InboundOutcome.COUNTER, CounterState.OPEN
    row.reason = f"{person.name} proposes a new time for '{interview.round_name}'."
    session.add(row)
    session.flush()
    record(session, actor_id=actor_id, action="counter_received", entity="inbound_message", entity_id=row.id,
           reason=row.comment or "new time proposed", loop_id=interview.loop_id, interviewer_id=person.id,
           details={"interview_id": interview.id, "start": row.proposed_start.isoformat(),
                    "end": row.proposed_end.isoformat(), "via": VIA[source], "inbound_id": row.id})


def _earlier(session: Session, key: str | None) -> InboundMessage | None:
    """An earlier message with the same Message-ID that was taken (refused ones may be tried again)."""
    if not key:
        return None
    return session.scalar(select(InboundMessage).where(
        InboundMessage.fingerprint == key,
        InboundMessage.outcome.in_([InboundOutcome.APPLIED, InboundOutcome.STALE, InboundOutcome.COUNTER]))
        .order_by(InboundMessage.id).limit(1))


def _decide(session: Session, row: InboundMessage, found: InboundReply, *, source: str, loop_id: int | None,
            actor_id: int | None, now: datetime) -> None:
    earlier = _earlier(session, row.fingerprint)
    if earlier is not None:
        row.outcome = InboundOutcome.DUPLICATE
        row.reason = f"The same message (Message-ID) was processed on {earlier.received_at:%Y-%m-%d %H:%M} UTC."
        row.interview_id, row.loop_id, row.interviewer_id = earlier.interview_id, earlier.loop_id, \
            earlier.interviewer_id
        return
    try:
        match = _match(session, found, source, loop_id)
    except _Refused as exc:
        row.outcome, row.reason = InboundOutcome.REFUSED, str(exc)
        interview = session.scalar(select(Interview).where(Interview.uid == found.uid))
        if interview is not None:
            row.interview_id, row.loop_id = interview.id, interview.loop_id
        return
    row.interview_id, row.loop_id, row.interviewer_id = match.interview.id, match.interview.loop_id, match.person.id
    stale = _stale_reason(found, match)
    if stale:
        row.outcome, row.reason = InboundOutcome.STALE, stale
    elif found.is_counter:
        _apply_counter(session, row, match, source=source, actor_id=actor_id)
    else:
        _apply_reply(session, row, found, match, source=source, actor_id=actor_id, now=now)


def process_message(session: Session, raw: bytes, *, source: str, now: datetime, imap_key: str | None = None,
                    actor_id: int | None = None, loop_id: int | None = None,
                    limits: InboundLimits = DEFAULT_LIMITS, declared_size: int | None = None) -> InboundMessage:
    """Read one inbound message, apply what it says when every check passes, list it on the inbox; commit.

    :param source: "imap" (the poller) or "upload" (a coordinator, on the loop page of ``loop_id``).
    :param imap_key: the poller's "<mailbox>:<UIDVALIDITY>:<UID>"; a message already recorded under it is
        returned as it was, unchanged (it was processed before the poller died).
    :param declared_size: the size the mail server reports when ``raw`` is only the headers of a message
        too large to fetch (it is refused on that size).
    :return: the inbox row: its ``outcome`` and ``reason`` say what happened.
    """
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r}")
    if imap_key is not None:
        done = session.scalar(select(InboundMessage).where(InboundMessage.imap_key == imap_key))
        if done is not None:
            return done
    found = read_reply(raw, limits, declared_size=declared_size)
    row = InboundMessage(received_at=now, source=source, imap_key=imap_key, size=declared_size or len(raw),
                         actor_id=actor_id,
                         fingerprint=(found.message_id or fingerprint(raw))[:300], loop_id=loop_id)
    _fill(row, found)
    try:
        if isinstance(found, Refusal):
            row.outcome, row.reason = InboundOutcome.REFUSED, found.reason
        else:
            # The row joins the session once decided: the checks' queries must not flush it half-filled.
            _decide(session, row, found, source=source, loop_id=loop_id, actor_id=actor_id, now=now)
        session.add(row)
        session.commit()
    except IntegrityError:
        # Another poller recorded the same IMAP message a moment ago: theirs stands, this one changes nothing.
        session.rollback()
        done = session.scalar(select(InboundMessage).where(InboundMessage.imap_key == imap_key)) if imap_key else None
        if done is None:
            raise
        return done
    except BaseException:
        session.rollback()
        raise
    return row
