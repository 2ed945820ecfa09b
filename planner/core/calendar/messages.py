"""Who gets which email for each change of an interview: one ready iMIP message per recipient.

This is what the outbox stores (recipient, method, .ics bytes, the email). The calendar object is
the same for every member of a panel; the email body differs, because each one shows the time in
its recipient's zone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import Literal

from planner.core.calendar.events import CalendarInputError, InterviewEvent, Organizer, Person
from planner.core.calendar.imip import build_imip_message
from planner.core.calendar.invites import build_cancel, build_reassignment, build_request, removed_version
from planner.core.calendar.itinerary import build_candidate_cancel, build_candidate_request
from planner.core.calendar.text import (
    MessageKind,
    candidate_html,
    candidate_text,
    interviewer_html,
    interviewer_text,
    subject_line,
)


@dataclass(frozen=True)
class OutgoingMessage:
    """One email to one person, with the calendar object it carries."""

    recipient: Person
    method: str
    ics: bytes
    email: EmailMessage


def _panel_emails(
    ics: bytes,
    method: str,
    kind: MessageKind,
    event: InterviewEvent,
    organizer: Organizer,
    assessors: Sequence[Person],
    trainees: Sequence[Person],
) -> list[OutgoingMessage]:
    subject = subject_line(kind, event)
    out = []
    for person, as_trainee in [(p, False) for p in assessors] + [(p, True) for p in trainees]:
        email = build_imip_message(
            ics,
            method,
            organizer,
            person,
            subject,
            interviewer_text(event, person, kind, organizer, as_trainee=as_trainee),
            interviewer_html(event, person, kind, organizer, as_trainee=as_trainee),
        )
        out.append(OutgoingMessage(person, method, ics, email))
    return out


def panel_request_messages(
    event: InterviewEvent,
    organizer: Organizer,
    assessors: Sequence[Person],
    now: datetime,
    *,
    kind: Literal["invite", "update"] = "invite",
    trainees: Sequence[Person] = (),
) -> tuple[OutgoingMessage, ...]:
    """The invite (or update: same UID, bumped SEQUENCE) for every assessor and trainee."""
    ics = build_request(event, organizer, assessors, now, trainees=trainees)
    return tuple(_panel_emails(ics, "REQUEST", kind, event, organizer, assessors, trainees))


def panel_cancel_messages(
    event: InterviewEvent,
    organizer: Organizer,
    assessors: Sequence[Person],
    now: datetime,
    *,
    trainees: Sequence[Person] = (),
) -> tuple[OutgoingMessage, ...]:
    """The cancellation for every assessor and trainee (``event.sequence`` already bumped)."""
    ics = build_cancel(event, organizer, assessors, now, trainees=trainees)
    return tuple(_panel_emails(ics, "CANCEL", "cancel", event, organizer, assessors, trainees))


def reassignment_messages(
    event: InterviewEvent,
    organizer: Organizer,
    removed: Sequence[Person],
    added: Sequence[Person],
    assessors: Sequence[Person],
    now: datetime,
    *,
    trainees: Sequence[Person] = (),
    removed_trainees: Sequence[Person] = (),
    previous_time: tuple[datetime, datetime] | None = None,
) -> tuple[OutgoingMessage, ...]:
    """A CANCEL to each person taken off, then the updated REQUEST to the whole new panel.

    ``event.sequence`` was raised by ``REASSIGNMENT_SEQUENCE_STEP`` (see :mod:`.invites`).
    ``added`` are the new panel members who were not on it before: they get an "invite" wording,
    the others an "update" wording, over the same calendar object. When the change also moves the
    interview, ``previous_time`` is its (start, end) before: the people taken off are told that
    time, the one they had, in their CANCEL and email.

    With nobody to tell about being taken off (their invite never left the outbox, so it was withdrawn),
    there is no CANCEL: only the panel's REQUEST.

    :raise CalendarInputError: somebody in ``added`` is not on the new panel.
    """
    if removed or removed_trainees:
        pair = build_reassignment(
            event,
            organizer,
            removed,
            assessors,
            now,
            trainees=trainees,
            removed_trainees=removed_trainees,
            previous_time=previous_time,
        )
        cancel, request = pair.cancel_for_removed, pair.request_for_panel
    else:
        cancel, request = None, build_request(event, organizer, assessors, now, trainees=trainees)
    panel = [(p, False) for p in assessors] + [(p, True) for p in trainees]
    added_emails = {p.email.lower() for p in added}
    if not added_emails <= {p.email.lower() for p, _ in panel}:
        raise CalendarInputError("Everyone added must be on the new panel.")
    out = [] if cancel is None else _panel_emails(
        cancel,
        "CANCEL",
        "removed",
        removed_version(event, previous_time),
        organizer,
        removed,
        removed_trainees,
    )
    for person, as_trainee in panel:
        kind: MessageKind = "invite" if person.email.lower() in added_emails else "update"
        email = build_imip_message(
            request,
            "REQUEST",
            organizer,
            person,
            subject_line(kind, event),
            interviewer_text(event, person, kind, organizer, as_trainee=as_trainee),
            interviewer_html(event, person, kind, organizer, as_trainee=as_trainee),
        )
        out.append(OutgoingMessage(person, "REQUEST", request, email))
    return tuple(out)


def candidate_message(
    event: InterviewEvent,
    organizer: Organizer,
    candidate: Person,
    now: datetime,
    *,
    kind: Literal["invite", "update", "cancel"],
) -> OutgoingMessage:
    """The candidate's copy of one round: REQUEST for invite/update, CANCEL for cancel."""
    if kind == "cancel":
        ics, method = build_candidate_cancel(event, organizer, candidate, now), "CANCEL"
    else:
        ics, method = build_candidate_request(event, organizer, candidate, now), "REQUEST"
    subject = subject_line(kind, event, for_candidate=True)
    email = build_imip_message(
        ics,
        method,
        organizer,
        candidate,
        subject,
        candidate_text(event, candidate, kind, organizer),
        candidate_html(event, candidate, kind, organizer),
    )
    return OutgoingMessage(candidate, method, ics, email)
