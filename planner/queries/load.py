"""Seats, load and training counts read from the database: one place for the pool pages, the
pool services and the scheduler, so they count the same seats the same way.

The arithmetic (local days, ISO weeks, caps, readiness) is in planner.core.pool; this module only
decides which rows count.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import Text, cast, func, select
from sqlalchemy.orm import Session

from planner.core.pool import CapStatus, SeatRecord, load_against_caps, validate_timezone
from planner.models import Interview, Interviewer, InterviewStatus, Seat, SeatRole, SeatStatus, TrainingLevel

#: Interviews whose seats count toward load and caps.
BOOKED_STATUSES = (InterviewStatus.SCHEDULED, InterviewStatus.COMPLETED)


@dataclass(frozen=True)
class TrainingCounts:
    """Completed trainee interviews of one interviewer in one competency, per level."""

    shadow: int = 0
    reverse_shadow: int = 0


def seat_records_for(
    session: Session, interviewer_ids: Iterable[int], start: datetime, end: datetime
) -> dict[int, list[SeatRecord]]:
    """Booked seats (active seats of scheduled or completed interviews) starting in ``[start, end)``.

    One query; every requested id is a key (an empty list when they hold no seat).
    """
    ids = list(dict.fromkeys(interviewer_ids))
    seats: dict[int, list[SeatRecord]] = {i: [] for i in ids}
    if not ids:
        return seats
    rows = session.execute(
        select(Seat.interviewer_id, Seat.role, Interview.start)
        .join(Interview, Seat.interview_id == Interview.id)
        .where(
            Seat.interviewer_id.in_(ids),
            Seat.status == SeatStatus.ACTIVE,
            Interview.status.in_(BOOKED_STATUSES),
            Interview.start >= start,
            Interview.start < end,
        )
        .order_by(Interview.start)
    ).all()
    for interviewer_id, role, starts_at in rows:
        seats[interviewer_id].append(SeatRecord(starts_at, role.value))
    return seats


def load_window(at: datetime) -> tuple[datetime, datetime]:
    """A UTC span that holds every zone's local ISO week containing ``at`` (8 days either side)."""
    return at - timedelta(days=8), at + timedelta(days=8)


def caps_for(person: Interviewer, seats: list[SeatRecord], at: datetime) -> CapStatus:
    """One interviewer's seats on their local day and ISO week of ``at`` against their caps."""
    return load_against_caps(seats, ZoneInfo(person.timezone), person.max_per_day, person.max_per_week, at)


def load_status(session: Session, interviewer_ids: Iterable[int], at: datetime) -> dict[int, CapStatus]:
    """Each interviewer's load against caps at ``at``; two queries whatever the number of people."""
    ids = list(dict.fromkeys(interviewer_ids))
    people = session.scalars(select(Interviewer).where(Interviewer.id.in_(ids))).all()
    seats = seat_records_for(session, [p.id for p in people], *load_window(at))
    return {p.id: caps_for(p, seats[p.id], at) for p in people}


def local_week_start(at: datetime, tz: str) -> date:
    """The Monday of the interviewer's local ISO week containing ``at``."""
    day = at.astimezone(validate_timezone(tz)).date()
    return day - timedelta(days=day.weekday())


def round_competency_slugs(detail: object) -> set[str]:
    """Competency slugs listed by an interview's ``round_detail`` (plan snapshot shape, or plain slugs)."""
    if not isinstance(detail, dict):
        return set()
    slugs = set()
    for item in detail.get("competencies") or []:
        if isinstance(item, dict) and isinstance(item.get("slug"), str):
            slugs.add(item["slug"])
        elif isinstance(item, str):
            slugs.add(item)
    return slugs


def training_counts(
    session: Session, interviewer_ids: Iterable[int] | None, now: datetime
) -> dict[tuple[int, str], TrainingCounts]:
    """Completed trainee seats per (interviewer id, competency slug), split by the level held when seated.

    A seat counts when it is active, its role is trainee, its interview is not cancelled and ended
    before ``now``; it counts for each competency its interview's round lists. One query.

    :param interviewer_ids: whose seats to count; None for every active interviewer (joined in SQL
        rather than listed, for callers that want the whole pool).
    """
    ids = None if interviewer_ids is None else list(interviewer_ids)
    if ids is not None and not ids:
        return {}
    # Counted in SQL by (person, level, the round's detail as stored text): a pool's thousands of trainee
    # seats share the few hundred round details of its plan versions, so each distinct detail is parsed
    # once here, and the database does not parse every seat's JSON to pick out its competency list.
    detail = cast(Interview.round_detail, Text)
    query = (
        select(Seat.interviewer_id, Seat.training_level, detail, func.count())
        .join(Interview, Seat.interview_id == Interview.id)
        .where(
            Seat.role == SeatRole.TRAINEE,
            Seat.status == SeatStatus.ACTIVE,
            Interview.status != InterviewStatus.CANCELLED,
            Interview.end <= now,
            Seat.training_level.in_((TrainingLevel.SHADOW.value, TrainingLevel.REVERSE_SHADOW.value)),
        )
        .group_by(Seat.interviewer_id, Seat.training_level, detail)
    )
    if ids is None:
        query = query.join(Interviewer, Interviewer.id == Seat.interviewer_id).where(Interviewer.active.is_(True))
    else:
        query = query.where(Seat.interviewer_id.in_(ids))
    slugs_of: dict[str | None, set[str]] = {}
    tally: dict[tuple[int, str], list[int]] = defaultdict(lambda: [0, 0])
    for interviewer_id, level, text, count in session.execute(query):
        if text not in slugs_of:
            slugs_of[text] = _listed_slugs(text)
        for slug in slugs_of[text]:
            tally[(interviewer_id, slug)][0 if level == TrainingLevel.SHADOW.value else 1] += count
    return {key: TrainingCounts(shadow, reverse) for key, (shadow, reverse) in tally.items()}


def _listed_slugs(text: str | None) -> set[str]:
    """Slugs of the competency list in a round's detail given as JSON text (a row edited by hand may hold
    anything: a detail that is not an object, or a list that is not a list, lists nothing)."""
    try:
        detail = json.loads(text) if text else None
    except ValueError:
        return set()
    items = detail.get("competencies") if isinstance(detail, dict) else None
    return round_competency_slugs({"competencies": items if isinstance(items, list) else []})
