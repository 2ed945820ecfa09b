"""Use cases for the interviewer pool: people, qualifications, promotions, busy time and load.

Every rule (time zones, working hours, caps, training progress, calendar import, load against caps)
is decided by ``planner.core.pool``; this module reads and writes rows around it and commits once.
``seat_records_for`` and ``load_status`` are the read helpers the scheduler reuses so the pool
pages and the scheduler count load the same way.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from planner.core.errors import FieldError, NotFound, ValidationFailed
from planner.core.pool import (
    DEFAULT_POLICY,
    BusyInterval,
    NotReadyForPromotion,
    TrainingPolicy,
    parse_busy_ics,
    parse_level,
    parse_working_hours,
    promote,
    training_progress,
    validate_caps,
    validate_timezone,
)
from planner.core.pool.hours import parse_hhmm
from planner.models import (
    BusyBlock,
    Competency,
    Interview,
    Interviewer,
    InterviewStatus,
    Qualification,
    Seat,
    SeatStatus,
    TrainingLevel,
    User,
)
from planner.queries.load import (  # noqa: F401  (re-exported: the pool's load API lives there)
    BOOKED_STATUSES,
    TrainingCounts,
    load_status,
    load_window,
    local_week_start,
    seat_records_for,
    training_counts,
)
from planner.services.audit import record

EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
DEFAULT_HORIZON_DAYS = 90
MAX_HORIZON_DAYS = 365
MANUAL_SOURCE = "manual"
IMPORT_PREFIX = "import:"
#: Interview statuses whose seats count as booked (load, caps, the week view).


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


@dataclass(frozen=True)
class ImportResult:
    """What an .ics import did."""

    source: str
    imported: int
    replaced: int
    horizon_start: datetime
    horizon_end: datetime


# ---------------------------------------------------------------------------------- helpers


def _get_interviewer(session: Session, interviewer_id: int) -> Interviewer:
    person = session.get(Interviewer, interviewer_id)
    if person is None:
        raise NotFound(f"There is no interviewer #{interviewer_id}.")
    return person


def _clean(data: InterviewerInput, session: Session, interviewer_id: int | None) -> dict:
    """Check every field through core and the database; return column values or raise FieldError."""
    name = " ".join((data.name or "").split())
    if not name:
        raise FieldError("name", "A name is required.")
    email = (data.email or "").strip().lower()
    if not EMAIL_RE.match(email):
        raise FieldError("email", f"'{data.email}' is not an email address.")
    taken = session.scalar(
        select(Interviewer.id).where(
            func.lower(Interviewer.email) == email, Interviewer.id != (interviewer_id or -1)
        )
    )
    if taken is not None:
        raise FieldError("email", f"Another interviewer already uses {email}.")
    try:
        validate_timezone((data.timezone or "").strip())
    except ValidationFailed as exc:
        raise FieldError("timezone", str(exc)) from None
    for field_name, text, allow_24 in (
        ("work_start", data.work_start, False),
        ("work_end", data.work_end, True),
    ):
        try:
            parse_hhmm(text or "", allow_24=allow_24)
        except ValidationFailed as exc:
            raise FieldError(field_name, str(exc)) from None
    if not list(data.work_days):
        raise FieldError("work_days", "Pick at least one working day.")
    try:
        hours = parse_working_hours(data.work_start, data.work_end, list(data.work_days))
    except ValidationFailed as exc:
        raise FieldError(
            "work_end" if str(exc).startswith("Working hours") else "work_days", str(exc)
        ) from None
    try:
        per_day, per_week = validate_caps(data.max_per_day, data.max_per_week)
    except ValidationFailed as exc:
        which = "max_per_week" if "weekly" in str(exc) and "daily" not in str(exc) else "max_per_day"
        raise FieldError(which, str(exc)) from None
    user_id = data.user_id or None
    if user_id is not None:
        user = session.get(User, user_id)
        if user is None or not user.has_role("interviewer"):
            raise FieldError(
                "user_id", "The linked login must be an existing user with the interviewer role."
            )
        other = session.scalar(
            select(Interviewer.name).where(
                Interviewer.user_id == user_id, Interviewer.id != (interviewer_id or -1)
            )
        )
        if other is not None:
            raise FieldError("user_id", f"The login {user.email} is already linked to {other}.")
    return {
        "name": name[:120],
        "email": email,
        "team": " ".join((data.team or "").split())[:120],
        "timezone": data.timezone.strip(),
        "work_start": hours.start,
        "work_end": hours.end,
        "work_days": " ".join(hours.day_names),
        "max_per_day": per_day,
        "max_per_week": per_week,
        "user_id": user_id,
    }


# ---------------------------------------------------------------------------------- people


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
    person = _get_interviewer(session, interviewer_id)
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
        )
    session.commit()
    return person


def set_active(session: Session, interviewer_id: int, active: bool, *, actor_id: int | None) -> Interviewer:
    """Deactivate (leave the pool; history kept) or reactivate an interviewer, and commit."""
    person = _get_interviewer(session, interviewer_id)
    if person.active != active:
        person.active = active
        record(
            session,
            actor_id=actor_id,
            action="interviewer.reactivate" if active else "interviewer.deactivate",
            entity="interviewer",
            entity_id=person.id,
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


# ---------------------------------------------------------------------------------- qualifications


def _get_competency(session: Session, competency_id: int) -> Competency:
    competency = session.get(Competency, competency_id)
    if competency is None:
        raise NotFound(f"There is no competency #{competency_id}.")
    return competency


def set_qualification(
    session: Session,
    interviewer_id: int,
    competency_id: int,
    level: str,
    *,
    actor_id: int | None,
    now: datetime,
) -> Qualification:
    """Add a qualification or change its level (audited), and commit.

    :raise UnknownTrainingLevel: ``level`` is not shadow, reverse-shadow or qualified.
    """
    person = _get_interviewer(session, interviewer_id)
    competency = _get_competency(session, competency_id)
    new_level = TrainingLevel(parse_level(level).value)
    qualification = session.scalar(
        select(Qualification).where(
            Qualification.interviewer_id == person.id, Qualification.competency_id == competency.id
        )
    )
    if qualification is None:
        if competency.retired_at is not None:
            raise ValidationFailed(
                f"'{competency.name}' is retired from the library; pick a current competency."
            )
        qualification = Qualification(
            interviewer_id=person.id, competency_id=competency.id, level=new_level, since=now
        )
        session.add(qualification)
        record(
            session,
            actor_id=actor_id,
            action="qualification.add",
            entity="interviewer",
            entity_id=person.id,
            details={"competency": competency.slug, "level": new_level.value},
        )
    elif qualification.level != new_level:
        old = qualification.level
        qualification.level, qualification.since = new_level, now
        record(
            session,
            actor_id=actor_id,
            action="qualification.change",
            entity="interviewer",
            entity_id=person.id,
            details={"competency": competency.slug, "from": old.value, "to": new_level.value},
        )
    session.commit()
    return qualification


def remove_qualification(
    session: Session, interviewer_id: int, competency_id: int, *, actor_id: int | None
) -> None:
    """Remove a qualification (audited) and commit.

    :raise NotFound: the interviewer does not hold this competency.
    """
    person = _get_interviewer(session, interviewer_id)
    qualification = session.scalar(
        select(Qualification).where(
            Qualification.interviewer_id == person.id, Qualification.competency_id == competency_id
        )
    )
    if qualification is None:
        raise NotFound(f"{person.name} holds no qualification in that competency.")
    competency = _get_competency(session, competency_id)
    session.delete(qualification)
    record(
        session,
        actor_id=actor_id,
        action="qualification.remove",
        entity="interviewer",
        entity_id=person.id,
        details={"competency": competency.slug, "level": qualification.level.value},
    )
    session.commit()


def promote_qualification(
    session: Session,
    interviewer_id: int,
    competency_id: int,
    *,
    actor_id: int | None,
    now: datetime,
    reason: str = "",
    policy: TrainingPolicy = DEFAULT_POLICY,
) -> Qualification:
    """Move a trainee one level up when core says they are ready, audit it, and commit.

    With a non-empty ``reason`` the coordinator overrides "not ready yet"; the reason is audited.

    :raise NotReadyForPromotion: not ready (and no reason given), or already qualified.
    """
    person = _get_interviewer(session, interviewer_id)
    competency = _get_competency(session, competency_id)
    qualification = session.scalar(
        select(Qualification).where(
            Qualification.interviewer_id == person.id, Qualification.competency_id == competency.id
        )
    )
    if qualification is None:
        raise NotFound(f"{person.name} holds no qualification in {competency.name}.")
    counts = training_counts(session, [person.id], now).get((person.id, competency.slug), TrainingCounts())
    progress = training_progress(qualification.level.value, counts.shadow, counts.reverse_shadow, policy)
    reason = " ".join((reason or "").split())
    try:
        new_level = promote(qualification.level.value, counts.shadow, counts.reverse_shadow, policy)
        forced = False
    except NotReadyForPromotion:
        if progress.next_level is None or not reason:
            raise
        new_level, forced = progress.next_level, True
    old = qualification.level
    qualification.level, qualification.since = TrainingLevel(new_level.value), now
    record(
        session,
        actor_id=actor_id,
        action="qualification.promote",
        entity="interviewer",
        entity_id=person.id,
        reason=reason,
        details={
            "competency": competency.slug,
            "from": old.value,
            "to": new_level.value,
            "done": progress.done,
            "needed": progress.needed,
            "forced": forced,
        },
    )
    session.commit()
    return qualification


# ---------------------------------------------------------------------------------- busy time


def local_to_utc(local: datetime, tz: str) -> datetime:
    """A wall-clock time in zone ``tz`` as an aware UTC instant.

    :raise ValidationFailed: the time does not exist there (the hour skipped when clocks go forward).
    """
    zone = validate_timezone(tz)
    if local.tzinfo is not None:
        return local.astimezone(UTC)
    aware = local.replace(tzinfo=zone)
    instant = aware.astimezone(UTC)
    if instant.astimezone(zone).replace(tzinfo=None) != local:
        raise ValidationFailed(
            f"{local:%H:%M} on {local:%a %d %b %Y} does not exist in {tz}: the clocks skip that hour; "
            "pick a time outside it."
        )
    return instant


def add_busy_block(
    session: Session,
    interviewer_id: int,
    start: datetime,
    end: datetime,
    summary: str = "",
    *,
    actor_id: int | None,
) -> BusyBlock:
    """Add a manual busy block and commit.

    Naive ``start``/``end`` are wall-clock times in the interviewer's zone.

    :raise ValidationFailed: the end is not after the start, or a time does not exist in the zone.
    """
    person = _get_interviewer(session, interviewer_id)
    start_utc, end_utc = local_to_utc(start, person.timezone), local_to_utc(end, person.timezone)
    summary = " ".join((summary or "").split())[:200]
    interval = BusyInterval(start_utc, end_utc, summary)  # raises EndNotAfterStart with one sentence
    block = BusyBlock(
        interviewer_id=person.id,
        start=interval.start_utc,
        end=interval.end_utc,
        summary=summary,
        source=MANUAL_SOURCE,
    )
    session.add(block)
    session.flush()
    record(
        session,
        actor_id=actor_id,
        action="busy.add",
        entity="interviewer",
        entity_id=person.id,
        details={"block": block.id, "start": start_utc.isoformat(), "end": end_utc.isoformat()},
    )
    session.commit()
    return block


def delete_busy_block(session: Session, interviewer_id: int, block_id: int, *, actor_id: int | None) -> None:
    """Delete one busy block of this interviewer and commit.

    :raise NotFound: no such block for this interviewer.
    """
    block = session.get(BusyBlock, block_id)
    if block is None or block.interviewer_id != interviewer_id:
        raise NotFound("That busy block does not exist (it may have been deleted or replaced by an import).")
    session.delete(block)
    record(
        session,
        actor_id=actor_id,
        action="busy.delete",
        entity="interviewer",
        entity_id=interviewer_id,
        details={"block": block_id, "source": block.source},
    )
    session.commit()


def import_source(name: str) -> str:
    """The ``source`` value of blocks imported under calendar ``name`` ("import:<name>")."""
    cleaned = " ".join((name or "").split())
    if cleaned.lower().endswith(".ics"):
        cleaned = cleaned[:-4].rstrip()
    if not cleaned:
        raise FieldError("source_name", "Give the calendar a name, such as 'Work calendar'.")
    return IMPORT_PREFIX + cleaned[: 200 - len(IMPORT_PREFIX)]


def import_busy_ics(
    session: Session,
    interviewer_id: int,
    data: bytes,
    source_name: str,
    *,
    now: datetime,
    horizon_days: int = DEFAULT_HORIZON_DAYS,
    actor_id: int | None = None,
) -> ImportResult:
    """Replace the blocks of the previous import from ``source_name`` with the busy time in ``data``; commit.

    The horizon runs from the start of the interviewer's local today for ``horizon_days`` days;
    recurring events are expanded inside it. Nothing changes when the file cannot be read.

    :raise CalendarImportError: malformed or non-calendar data (one sentence).
    """
    person = _get_interviewer(session, interviewer_id)
    source = import_source(source_name)
    if not isinstance(horizon_days, int) or not 1 <= horizon_days <= MAX_HORIZON_DAYS:
        raise FieldError("horizon_days", f"The import period must be 1 to {MAX_HORIZON_DAYS} days.")
    zone = validate_timezone(person.timezone)
    today = now.astimezone(zone).date()
    start = datetime.combine(today, time(0), tzinfo=zone).astimezone(UTC)
    end = datetime.combine(today + timedelta(days=horizon_days), time(0), tzinfo=zone).astimezone(UTC)
    intervals = parse_busy_ics(data, default_tz=person.timezone, horizon_start=start, horizon_end=end)
    replaced = (
        session.execute(
            delete(BusyBlock).where(BusyBlock.interviewer_id == person.id, BusyBlock.source == source)
        ).rowcount
        or 0
    )
    session.add_all(
        BusyBlock(
            interviewer_id=person.id, start=i.start_utc, end=i.end_utc, summary=i.summary[:200], source=source
        )
        for i in intervals
    )
    record(
        session,
        actor_id=actor_id,
        action="busy.import",
        entity="interviewer",
        entity_id=person.id,
        details={
            "source": source,
            "imported": len(intervals),
            "replaced": replaced,
            "from": start.isoformat(),
            "to": end.isoformat(),
        },
    )
    session.commit()
    session.expire(person, ["busy_blocks"])
    return ImportResult(source, len(intervals), replaced, start, end)


def remove_import(session: Session, interviewer_id: int, source: str, *, actor_id: int | None) -> int:
    """Delete every block of one imported calendar and commit; returns how many were deleted."""
    person = _get_interviewer(session, interviewer_id)
    if not source.startswith(IMPORT_PREFIX):
        raise ValidationFailed("Only imported calendars can be removed as a whole.")
    removed = (
        session.execute(
            delete(BusyBlock).where(BusyBlock.interviewer_id == person.id, BusyBlock.source == source)
        ).rowcount
        or 0
    )
    if not removed:
        raise NotFound(f"There are no blocks from '{source.removeprefix(IMPORT_PREFIX)}' to remove.")
    record(
        session,
        actor_id=actor_id,
        action="busy.remove_import",
        entity="interviewer",
        entity_id=person.id,
        details={"source": source, "removed": removed},
    )
    session.commit()
    session.expire(person, ["busy_blocks"])
    return removed
