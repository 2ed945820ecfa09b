"""Queue the calendar messages that announce a change of an interview, in the caller's transaction.

The scheduler's use cases (confirm, reschedule, cancel, replace) change Interview and Seat rows,
flush, call one ``announce_*`` function and commit once: the change and its outbox messages land
together or not at all. Nothing here commits or sends; ``planner.services.outbox`` delivers.

Every :class:`OutboxMessage` holds everything its email needs (subject, both bodies, the .ics
bytes, method, recipient) and a Message-ID fixed when it is written, so a re-delivery after a
crash is the very same message (see ``planner.services.outbox``). The rows' calendar view (event,
recipients, panel) is in ``invite_events``.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.core.calendar import (
    CANCELLATION_SEQUENCE_STEP,
    REASSIGNMENT_SEQUENCE_STEP,
    Organizer,
    OutgoingMessage,
    candidate_message,
    panel_cancel_messages,
    panel_request_messages,
    reassignment_messages,
)
from planner.core.errors import NotFound, ValidationFailed
from planner.models import (
    Interview,
    Interviewer,
    OutboxMessage,
    Seat,
    SeatRole,
    SeatStatus,
)
from planner.services.invite_events import candidate_person, interview_event, panel, person_of
from planner.services.outbox_withdraw import withdraw_unsent

#: Outbox kinds: first invite, later update, cancellation, panel change, the candidate's copy.
KINDS = ("invite", "update", "cancel", "reassign", "itinerary")


@dataclass(frozen=True)
class MailSettings:
    """What every calendar message needs from configuration."""

    organizer_email: str
    organizer_name: str
    base_url: str
    uid_domain: str

    @classmethod
    def from_mapping(cls, config: Mapping) -> MailSettings:
        """Read MAIL_ORGANIZER_EMAIL, MAIL_ORGANIZER_NAME, BASE_URL and UID_DOMAIN from app config."""
        return cls(
            organizer_email=str(config.get("MAIL_ORGANIZER_EMAIL") or "recruiting@planner.example"),
            organizer_name=str(config.get("MAIL_ORGANIZER_NAME") or "Recruiting"),
            base_url=str(config.get("BASE_URL") or "http://127.0.0.1:5000").rstrip("/"),
            uid_domain=str(config.get("UID_DOMAIN") or "planner.example"),
        )

    @property
    def organizer(self) -> Organizer:
        return Organizer(email=self.organizer_email, name=self.organizer_name)

    @property
    def interviewer_page_url(self) -> str:
        return self.base_url + "/interviewer/"


def new_interview_uid(settings: MailSettings) -> str:
    """A fresh, unguessable calendar UID for a new interview: ``interview-<hex>@<uid_domain>``."""
    return f"interview-{secrets.token_hex(12)}@{settings.uid_domain}"


def new_message_id(settings: MailSettings) -> str:
    """An RFC 5322 Message-ID, fixed when the outbox row is written."""
    return f"<outbox-{secrets.token_hex(16)}@{settings.uid_domain}>"


def _get_interview(session: Session, interview_id: int) -> Interview:
    interview = session.get(Interview, interview_id)
    if interview is None:
        raise NotFound(f"Interview {interview_id} does not exist.")
    if not interview.uid:
        raise ValidationFailed(
            f"Interview {interview_id} has no calendar UID; set one with new_interview_uid."
        )
    return interview


def _body(message: OutgoingMessage, subtype: str) -> str:
    part = message.email.get_body(preferencelist=(subtype,))
    return part.get_content() if part is not None else ""


def _queue(
    session: Session,
    messages: Sequence[OutgoingMessage],
    *,
    kind: str,
    interview: Interview,
    sequence: int,
    settings: MailSettings,
    now: datetime,
) -> int:
    for message in messages:
        session.add(
            OutboxMessage(
                message_id=new_message_id(settings),
                kind=kind,
                method=message.method,
                recipient_email=message.recipient.email,
                recipient_name=message.recipient.name[:120],
                subject=str(message.email["Subject"])[:300],
                body_text=_body(message, "plain"),
                body_html=_body(message, "html"),
                ics=message.ics,
                interview_id=interview.id,
                loop_id=interview.loop_id,
                sequence=sequence,
                next_attempt_at=now,
                created_at=now,
            )
        )
    return len(messages)


# --- the use-case helpers -------------------------------------------------------------------------


def announce_scheduled(
    session: Session, interview_ids: Sequence[int], *, settings: MailSettings, now: datetime
) -> int:
    """Queue the first REQUEST to each assessor and trainee, and the candidate's copy, per interview.

    :return: how many messages were queued.
    :raise NotFound: an interview id does not exist.
    :raise CalendarInputError: an interview cannot make a valid invite (no panel, bad link...).
    """
    session.flush()
    count = 0
    for interview_id in interview_ids:
        interview = _get_interview(session, interview_id)
        interview.updated_at = now
        event = interview_event(session, interview, settings, last_modified=now)
        assessors, trainees = panel(interview)
        msgs = panel_request_messages(
            event, settings.organizer, assessors, now, kind="invite", trainees=trainees
        )
        count += _queue(
            session,
            msgs,
            kind="invite",
            interview=interview,
            sequence=event.sequence,
            settings=settings,
            now=now,
        )
        count += _queue_candidate(session, interview, event, kind="invite", settings=settings, now=now)
    session.flush()
    return count


def _queue_candidate(session: Session, interview: Interview, event, *, kind: str, settings: MailSettings,
                     now: datetime) -> int:
    """Queue the candidate's own copy of an interview message (their itinerary entry)."""
    message = candidate_message(event, settings.organizer, candidate_person(interview.loop), now, kind=kind)
    return _queue(session, [message], kind="itinerary", interview=interview, sequence=event.sequence,
                  settings=settings, now=now)


def announce_changed(session: Session, interview_id: int, *, settings: MailSettings, now: datetime) -> int:
    """Bump the SEQUENCE by one and queue the updated REQUEST to the panel and the candidate."""
    session.flush()
    interview = _get_interview(session, interview_id)
    interview.updated_at = now  # LAST-MODIFIED of feeds and downloads
    interview.sequence += 1
    event = interview_event(session, interview, settings, last_modified=now)
    assessors, trainees = panel(interview)
    msgs = panel_request_messages(event, settings.organizer, assessors, now, kind="update", trainees=trainees)
    count = _queue(
        session, msgs, kind="update", interview=interview, sequence=event.sequence, settings=settings, now=now
    )
    count += _queue_candidate(session, interview, event, kind="update", settings=settings, now=now)
    session.flush()
    return count


def announce_cancelled(session: Session, interview_id: int, *, settings: MailSettings, now: datetime) -> int:
    """Raise the SEQUENCE by 2 and queue a CANCEL (one below it) to the panel and to the candidate.

    The panel is the active seats; if the caller already marked every seat removed, all seats.
    The stored SEQUENCE is left one above the CANCEL, for the cancelled copy that feeds, downloads
    and exports publish afterwards (``CANCELLATION_SEQUENCE_STEP``).
    """
    session.flush()
    interview = _get_interview(session, interview_id)
    interview.updated_at = now  # LAST-MODIFIED of feeds and downloads
    interview.sequence += CANCELLATION_SEQUENCE_STEP
    event = replace(
        interview_event(session, interview, settings, last_modified=now),
        status="CANCELLED",
        sequence=interview.sequence - 1,
    )
    assessors, trainees = panel(interview)
    if not assessors and not trainees:
        people = sorted(interview.seats, key=lambda s: (s.role != SeatRole.ASSESSOR, s.interviewer.name))
        assessors = [person_of(s.interviewer) for s in people]
    msgs = panel_cancel_messages(event, settings.organizer, assessors, now, trainees=trainees)
    count = _queue(
        session, msgs, kind="cancel", interview=interview, sequence=event.sequence, settings=settings, now=now
    )
    count += _queue_candidate(session, interview, event, kind="cancel", settings=settings, now=now)
    session.flush()
    return count


def announce_replaced(
    session: Session,
    interview_id: int,
    removed_interviewer_id: int | Sequence[int],
    *,
    settings: MailSettings,
    now: datetime,
    previous_time: tuple[datetime, datetime] | None = None,
    actor_id: int | None = None,
) -> int:
    """Raise the SEQUENCE by 2; CANCEL to the people taken off, updated REQUEST to the new panel.

    Panel members who never received a message about this interview get an "invite" wording,
    the others an "update". A trainee taken off is an optional participant of their CANCEL, as of
    their invite. When the same change moved the interview, ``previous_time`` is its (start, end)
    before: the people taken off are told the time they had, and the candidate's copy is updated
    at the same SEQUENCE, so nobody gets two messages for one change. Otherwise the candidate's
    copy does not change (it names no interviewers).
    When nothing about the interview has left the outbox for a person taken off, their pending
    messages are withdrawn and they get no CANCEL (see :mod:`planner.services.outbox_withdraw`).

    :raise NotFound: the interview or a removed interviewer does not exist.
    :raise ValidationFailed: a removed interviewer still holds an active seat.
    """
    session.flush()
    interview = _get_interview(session, interview_id)
    ids = [removed_interviewer_id] if isinstance(removed_interviewer_id, int) else list(removed_interviewer_id)
    removed, removed_trainees = [], []
    for removed_id in ids:
        person = session.get(Interviewer, removed_id)
        if person is None:
            raise NotFound(f"Interviewer {removed_id} does not exist.")
        seat = session.scalar(select(Seat).where(Seat.interview_id == interview.id, Seat.interviewer_id == person.id))
        if seat is not None and seat.status == SeatStatus.ACTIVE:
            raise ValidationFailed(f"{person.name} still holds a seat on this interview; remove the seat first.")
        withdrawal = withdraw_unsent(session, interview.id, person.email, actor_id=actor_id,
                                     interviewer_id=person.id, loop_id=interview.loop_id)
        answered = seat is not None and seat.partstat is not None  # they answered it, so it reached them
        if not withdrawal.told and not answered:
            continue  # nothing about it reached them: no CANCEL either
        taken_off = removed_trainees if seat is not None and seat.role == SeatRole.TRAINEE else removed
        taken_off.append(person_of(person))
    moved = previous_time is not None and tuple(previous_time) != (interview.start, interview.end)
    interview.updated_at = now  # LAST-MODIFIED of feeds and downloads
    interview.sequence += REASSIGNMENT_SEQUENCE_STEP
    event = interview_event(session, interview, settings, last_modified=now)
    assessors, trainees = panel(interview)
    told = {
        email.lower()
        for email in session.scalars(
            select(OutboxMessage.recipient_email).where(OutboxMessage.interview_id == interview.id)
        )
    }
    added = [p for p in [*assessors, *trainees] if p.email.lower() not in told]
    msgs = reassignment_messages(
        event,
        settings.organizer,
        removed,
        added,
        assessors,
        now,
        trainees=trainees,
        removed_trainees=removed_trainees,
        previous_time=previous_time if moved else None,
    )
    count = 0
    for message in msgs:
        seq = event.sequence - 1 if message.method == "CANCEL" else event.sequence
        count += _queue(
            session, [message], kind="reassign", interview=interview, sequence=seq, settings=settings, now=now
        )
    if moved:
        count += _queue_candidate(session, interview, event, kind="update", settings=settings, now=now)
    session.flush()
    return count


def announce_moved(
    session: Session,
    interview_id: int,
    removed_interviewer_ids: Sequence[int],
    *,
    settings: MailSettings,
    now: datetime,
) -> int:
    """An interview moved to a new time with a changed panel: SEQUENCE + 2, a CANCEL (at N-1) to each person
    taken off, the updated REQUEST (at N) to the new panel, and the candidate's updated copy.

    With nobody taken off this is :func:`announce_changed`.

    :raise NotFound: the interview or a removed interviewer does not exist.
    """
    if not removed_interviewer_ids:
        return announce_changed(session, interview_id, settings=settings, now=now)
    session.flush()
    interview = _get_interview(session, interview_id)
    removed = []
    for removed_id in removed_interviewer_ids:
        person = session.get(Interviewer, removed_id)
        if person is None:
            raise NotFound(f"Interviewer {removed_id} does not exist.")
        removed.append(person_of(person))
    interview.updated_at = now  # LAST-MODIFIED of feeds and downloads
    interview.sequence += REASSIGNMENT_SEQUENCE_STEP
    event = interview_event(session, interview, settings, last_modified=now)
    assessors, trainees = panel(interview)
    told = {
        email.lower()
        for email in session.scalars(
            select(OutboxMessage.recipient_email).where(OutboxMessage.interview_id == interview.id)
        )
    }
    added = [p for p in [*assessors, *trainees] if p.email.lower() not in told]
    msgs = reassignment_messages(event, settings.organizer, removed, added, assessors, now, trainees=trainees)
    count = 0
    for message in msgs:
        seq = event.sequence - 1 if message.method == "CANCEL" else event.sequence
        count += _queue(
            session, [message], kind="reassign", interview=interview, sequence=seq, settings=settings, now=now
        )
    count += _queue_candidate(session, interview, event, kind="update", settings=settings, now=now)
    session.flush()
    return count
