"""Busy time from CalDAV: fetch the horizon's events, expand them, replace the calendar's blocks at once.

One sync of one calendar:
1. read the calendar row and decrypt its secret;
2. ask the server for the collection's sync-token (or ctag); when it equals the one stored with the
   last full fetch of the same horizon, nothing is downloaded and nothing is written but the time;
3. otherwise one time-range REPORT brings the events, expanded and filtered by the same rules as an
   .ics import (recurrences, EXDATE and cancelled RECURRENCE-ID overrides, TRANSP:TRANSPARENT,
   STATUS:CANCELLED, all-day events as the person's local day);
4. the blocks are replaced in one transaction, under a lock on the calendar row, and only when they
   differ from what is stored; an audit entry says what changed.

Any failure (no key, server down or slow, refused password, not a calendar, unreadable events) leaves
the blocks as they were and records one sentence on the calendar row for the person's page.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from planner.core.errors import NotFound, ValidationFailed
from planner.core.pool import BusyInterval, CalendarImportError, merge_intervals, parse_busy_ics
from planner.core.pool.caldav import sync_horizon
from planner.models import BusyBlock, CalendarSource, Interviewer
from planner.services.audit import record
from planner.services.calendars.caldav_client import CalendarUnavailable, fetch_events
from planner.services.calendars.secrets import SecretBox
from planner.services.calendars.settings import CalendarSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SyncReport:
    """How one calendar's sync went, in numbers and one sentence."""

    interviewer_id: int
    name: str
    ok: bool
    #: Nothing was downloaded: the server's sync-token or ctag was the one already stored.
    unchanged_on_server: bool = False
    #: The busy blocks were rewritten (False when the downloaded events gave the same blocks).
    replaced: bool = False
    blocks: int = 0
    previous_blocks: int = 0
    events: int = 0
    seconds: float = 0.0
    message: str = ""


def _lock_source(session: Session, source_id: int, now: datetime) -> CalendarSource | None:
    """Write the calendar row first, then read it: two syncs of one calendar take turns here, so the second
    sees (and replaces) the first's blocks instead of adding a second copy. On PostgreSQL the UPDATE locks
    the row; on SQLite, which has one writer, it takes the database's write lock."""
    session.execute(update(CalendarSource).where(CalendarSource.id == source_id).values(updated_at=now))
    return session.scalar(select(CalendarSource).where(CalendarSource.id == source_id)
                          .execution_options(populate_existing=True))


def _stored(session: Session, person_id: int, source: str) -> list[tuple[datetime, datetime, str]]:
    rows = session.execute(
        select(BusyBlock.start, BusyBlock.end, BusyBlock.summary)
        .where(BusyBlock.interviewer_id == person_id, BusyBlock.source == source)
        .order_by(BusyBlock.start, BusyBlock.end)
    )
    return [(start, end, summary) for start, end, summary in rows]


def _failed(session: Session, source_id: int, person: Interviewer, now: datetime, message: str,
            started: float) -> SyncReport:
    """Record the failure on the calendar row (nothing else changes) and commit."""
    session.rollback()
    source = session.get(CalendarSource, source_id)
    previous = 0
    if source is not None:
        source.last_failure_at, source.last_error = now, message
        previous = source.last_block_count
        session.commit()
    return SyncReport(person.id, person.name, ok=False, blocks=previous, previous_blocks=previous,
                      seconds=time.perf_counter() - started, message=message)


def _busy(objects: tuple[str, ...], timezone: str, start: datetime, end: datetime) -> list[BusyInterval]:
    intervals: list[BusyInterval] = []
    for text in objects:
        if "BEGIN:VEVENT" not in text.upper():
            # The server matched it with a VEVENT filter; an object without one is not what it claims.
            raise CalendarImportError("the server sent a calendar object that holds no event (VEVENT).")
        intervals.extend(parse_busy_ics(text.encode("utf-8"), default_tz=timezone,
                                        horizon_start=start, horizon_end=end))
    return merge_intervals(intervals)


def sync_calendar(
    session: Session,
    interviewer_id: int,
    *,
    now: datetime,
    settings: CalendarSettings,
    actor_id: int | None = None,
) -> SyncReport:
    """Bring the interviewer's CalDAV busy time up to date; commit. A failure is reported, not raised.

    :raise NotFound: no such interviewer, or they have no CalDAV calendar.
    """
    started = time.perf_counter()
    person = session.get(Interviewer, interviewer_id)
    if person is None:
        raise NotFound(f"There is no interviewer #{interviewer_id}.")
    source = session.scalar(select(CalendarSource).where(CalendarSource.interviewer_id == person.id))
    if source is None:
        raise NotFound(f"{person.name} has no CalDAV calendar; set one first.")
    source_id, url, username = source.id, source.url, source.username
    try:
        password = SecretBox(settings.secret_keys).decrypt(source.secret) if source.secret else ""
        start, end = sync_horizon(now, person.timezone, settings.horizon_days)
        known = source.state_token if source.state_horizon_end == end else None
        fetched = fetch_events(url, username, password, start=start, end=end, timeout=settings.timeout,
                               known_state=known)
        busy = None if fetched.objects is None else _busy(fetched.objects, person.timezone, start, end)
    except CalendarImportError as exc:
        return _failed(session, source_id, person, now, f"An event in the calendar cannot be read: {exc}", started)
    except (CalendarUnavailable, ValidationFailed) as exc:
        return _failed(session, source_id, person, now, str(exc), started)
    except Exception as exc:  # noqa: BLE001 - remote data must cost a message, never a broken page
        log.exception("CalDAV events could not be turned into busy time")
        return _failed(session, source_id, person, now,
                       f"The calendar's events could not be read as busy time ({type(exc).__name__}).", started)

    source = _lock_source(session, source_id, now)
    if source is None or (source.url, source.username) != (url, username):
        # Removed or pointed elsewhere while the server was being read: this download is not its data.
        return _failed(session, source_id, person, now,
                       "The calendar's settings changed while it was being read; sync again.", started)
    previous = source.last_block_count
    source.last_success_at, source.last_error = now, ""
    if busy is None:
        session.commit()
        return SyncReport(person.id, person.name, ok=True, unchanged_on_server=True, blocks=previous,
                          previous_blocks=previous, seconds=time.perf_counter() - started,
                          message="Nothing changed on the calendar server since the last sync.")
    wanted = [(i.start_utc, i.end_utc, i.summary[:200]) for i in busy]
    stored = _stored(session, person.id, source.busy_source)
    replaced = wanted != stored
    if replaced:
        session.execute(delete(BusyBlock).where(BusyBlock.interviewer_id == person.id,
                                                BusyBlock.source == source.busy_source))
        session.add_all(BusyBlock(interviewer_id=person.id, start=s, end=e, summary=summary,
                                  source=source.busy_source) for s, e, summary in wanted)
        record(session, actor_id=actor_id, action="calendar.sync", entity="calendar_source", entity_id=source.id,
               interviewer_id=person.id,
               details={"blocks": len(wanted), "previous": len(stored), "events": len(fetched.objects or ()),
                        "added": len(set(wanted) - set(stored)), "removed": len(set(stored) - set(wanted)),
                        "from": start.isoformat(), "to": end.isoformat()})
    source.state_token, source.state_horizon_end = fetched.state, end
    source.last_block_count = len(wanted)
    session.commit()
    if replaced:
        session.expire(person, ["busy_blocks"])
    message = (f"{len(wanted)} busy block{'s' if len(wanted) != 1 else ''} from {len(fetched.objects or ())} "
               f"event{'s' if len(fetched.objects or ()) != 1 else ''}"
               + ("." if replaced else "; the same as before, so nothing was rewritten."))
    return SyncReport(person.id, person.name, ok=True, replaced=replaced, blocks=len(wanted),
                      previous_blocks=len(stored), events=len(fetched.objects or ()),
                      seconds=time.perf_counter() - started, message=message)


def sync_all(
    session: Session,
    *,
    now: datetime,
    settings: CalendarSettings,
    interviewer_id: int | None = None,
    actor_id: int | None = None,
) -> list[SyncReport]:
    """Sync every active interviewer's CalDAV calendar (or one person's), each in its own transaction.

    :raise NotFound: ``interviewer_id`` names nobody, or a person without a CalDAV calendar.
    """
    if interviewer_id is not None:
        return [sync_calendar(session, interviewer_id, now=now, settings=settings, actor_id=actor_id)]
    people = list(session.scalars(
        select(CalendarSource.interviewer_id).join(Interviewer, Interviewer.id == CalendarSource.interviewer_id)
        .where(Interviewer.active.is_(True)).order_by(Interviewer.name, Interviewer.id)))
    session.rollback()  # end the read: each calendar's sync is its own transaction
    return [sync_calendar(session, person_id, now=now, settings=settings, actor_id=actor_id)
            for person_id in people]
