"""Interviewers in the pool: adding, editing, deactivating, and what they hold ahead."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from planner.core.errors import FieldError, FieldErrors, ValidationFailed
from planner.core.pool import parse_working_hours, validate_caps, validate_timezone
from planner.core.pool.hours import parse_hhmm
from planner.models import Interview, Interviewer, InterviewStatus, Seat, SeatStatus, User
from planner.queries.pool import get_interviewer
from planner.services.audit import record

EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


@dataclass(frozen=True)
class InterviewerInput:
    """What a coordinator enters for an interviewer (plain values, already shape-checked by a form)."""

    name: str
    email: str
    team: str = ""
    timezone: str = "UTC"
    work_start: str = "09:00"
    work_end: str = "17:00"
    work_days: Sequence[str] = ("mon", "tue", "wed", "thu", "fri")
    max_per_day: int = 2
    max_per_week: int = 5
    user_id: int | None = None




def _clean(data: InterviewerInput, session: Session, interviewer_id: int | None) -> dict:
    """Check every field through core and the database; return column values or raise FieldErrors naming
    every field that breaks a rule (so a form shows them all at once, not one per submit)."""
    errors: list[FieldError] = []

    def problem(field: str, message: str) -> None:
        errors.append(FieldError(field, message))

    name = " ".join((data.name or "").split())
    if not name:
        problem("name", "A name is required.")
    email = (data.email or "").strip().lower()
    if not EMAIL_RE.match(email):
        problem("email", f"'{data.email}' is not an email address.")
    elif session.scalar(select(Interviewer.id).where(func.lower(Interviewer.email) == email,
                                                     Interviewer.id != (interviewer_id or -1))) is not None:
        problem("email", f"Another interviewer already uses {email}.")
    try:
        validate_timezone((data.timezone or "").strip())
    except ValidationFailed as exc:
        problem("timezone", str(exc))
    clocks_ok = True
    for field_name, text, allow_24 in (("work_start", data.work_start, False), ("work_end", data.work_end, True)):
        try:
            parse_hhmm(text or "", allow_24=allow_24)
        except ValidationFailed as exc:
            problem(field_name, str(exc))
            clocks_ok = False
    hours = None
    if not list(data.work_days):
        problem("work_days", "Pick at least one working day.")
    elif clocks_ok:
        try:
            hours = parse_working_hours(data.work_start, data.work_end, list(data.work_days))
        except ValidationFailed as exc:
            problem("work_end" if str(exc).startswith("Working hours") else "work_days", str(exc))
    caps = None
    try:
        caps = validate_caps(data.max_per_day, data.max_per_week)
    except ValidationFailed as exc:
        problem("max_per_week" if "weekly" in str(exc) and "daily" not in str(exc) else "max_per_day", str(exc))
    user_id = data.user_id or None
    if user_id is not None:
        # An id beyond what the column holds names nobody (and would be a database error if asked for).
        user = session.get(User, user_id) if isinstance(user_id, int) and 0 < user_id < 2**31 else None
        if user is None or not user.has_role("interviewer"):
            problem("user_id", "The linked login must be an existing user with the interviewer role.")
        else:
            other = session.scalar(select(Interviewer.name).where(Interviewer.user_id == user_id,
                                                                  Interviewer.id != (interviewer_id or -1)))
            if other is not None:
                problem("user_id", f"The login {user.email} is already linked to {other}.")
    if errors:
        raise FieldErrors(errors)
    assert hours is not None and caps is not None  # every path that leaves them unset added an error
    return {
        "name": name[:120],
        "email": email,
        "team": " ".join((data.team or "").split())[:120],
        "timezone": data.timezone.strip(),
        "work_start": hours.start,
        "work_end": hours.end,
        "work_days": " ".join(hours.day_names),
        "max_per_day": caps[0],
        "max_per_week": caps[1],
        "user_id": user_id,
    }


def check_interviewer(session: Session, data: InterviewerInput, interviewer_id: int | None = None
                      ) -> list[FieldError]:
    """Every field of ``data`` that breaks a rule, as FieldErrors (empty when all is well); reads only."""
    try:
        _clean(data, session, interviewer_id)
    except FieldErrors as exc:
        return exc.errors
    return []


def create_interviewer(session: Session, data: InterviewerInput, *, actor_id: int | None) -> Interviewer:
    """Add an interviewer to the pool and commit.

    :raise FieldError: a field breaks a rule (unknown zone, bad hours, caps below zero, email taken ...).
    """
    values = _clean(data, session, None)
    person = Interviewer(**values, feed_token=secrets.token_urlsafe(24), active=True)
    session.add(person)
    session.flush()
    record(
        session,
        actor_id=actor_id,
        action="interviewer.create",
        entity="interviewer",
        entity_id=person.id,
        interviewer_id=person.id,
        details={"email": person.email},
    )
    session.commit()
    return person


def update_interviewer(
    session: Session, interviewer_id: int, data: InterviewerInput, *, actor_id: int | None
) -> Interviewer:
    """Change an interviewer's profile, hours and caps, and commit.

    :raise NotFound: no such interviewer. :raise FieldError: as for ``create_interviewer``.
    """
    person = get_interviewer(session, interviewer_id)
    values = _clean(data, session, interviewer_id)
    changed = {k: v for k, v in values.items() if getattr(person, k) != v}
    for key, value in changed.items():
        setattr(person, key, value)
    if changed:
        record(
            session,
            actor_id=actor_id,
            action="interviewer.update",
            entity="interviewer",
            entity_id=person.id,
            details={"fields": sorted(changed)},
            interviewer_id=person.id,
        )
    session.commit()
    return person


def set_active(session: Session, interviewer_id: int, active: bool, *, actor_id: int | None) -> Interviewer:
    """Deactivate (leave the pool; history kept) or reactivate an interviewer, and commit."""
    person = get_interviewer(session, interviewer_id)
    if person.active != active:
        person.active = active
        record(
            session,
            actor_id=actor_id,
            action="interviewer.reactivate" if active else "interviewer.deactivate",
            entity="interviewer",
            entity_id=person.id,
            interviewer_id=person.id,
        )
    session.commit()
    return person


def upcoming_seat_count(session: Session, interviewer_id: int, now: datetime) -> int:
    """Active seats of booked interviews starting after ``now`` (what a deactivation leaves to reassign)."""
    return (
        session.scalar(
            select(func.count(Seat.id))
            .join(Interview, Seat.interview_id == Interview.id)
            .where(
                Seat.interviewer_id == interviewer_id,
                Seat.status == SeatStatus.ACTIVE,
                Interview.status == InterviewStatus.SCHEDULED,
                Interview.start >= now,
            )
        )
        or 0
    )
