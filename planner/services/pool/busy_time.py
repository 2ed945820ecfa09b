"""Busy time: blocks entered by hand and calendars imported from .ics, each source replaceable."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from sqlalchemy import delete
from sqlalchemy.orm import Session

from planner.core.errors import FieldError, NotFound, ValidationFailed
from planner.core.pool import BusyInterval, EndNotAfterStart, parse_busy_ics, validate_timezone
from planner.models import BusyBlock
from planner.queries.pool import get_interviewer
from planner.services.audit import record

DEFAULT_HORIZON_DAYS = 90
MAX_HORIZON_DAYS = 365
MANUAL_SOURCE = "manual"
IMPORT_PREFIX = "import:"


@dataclass(frozen=True)
class ImportResult:
    """What an .ics import did."""

    source: str
    imported: int
    replaced: int
    horizon_start: datetime
    horizon_end: datetime




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
    person = get_interviewer(session, interviewer_id)
    start_utc, end_utc = local_to_utc(start, person.timezone), local_to_utc(end, person.timezone)
    if end_utc <= start_utc:
        # Said in the zone the coordinator typed the times in, not in UTC.
        zone = validate_timezone(person.timezone)
        first, last = (moment.astimezone(zone) for moment in (start_utc, end_utc))
        raise EndNotAfterStart(
            f"The busy block ends ({last:%a %d %b %Y, %H:%M}) before or when it starts "
            f"({first:%a %d %b %Y, %H:%M}), both in {person.timezone} time; give an end after the start."
        )
    summary = " ".join((summary or "").split())[:200]
    interval = BusyInterval(start_utc, end_utc, summary)
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
        interviewer_id=person.id,
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
        interviewer_id=interviewer_id,
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
    person = get_interviewer(session, interviewer_id)
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
        interviewer_id=person.id,
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
    person = get_interviewer(session, interviewer_id)
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
        interviewer_id=person.id,
        details={"source": source, "removed": removed},
    )
    session.commit()
    session.expire(person, ["busy_blocks"])
    return removed
