"""Read side of the interviewer pool list: the pool a page at a time, and who is ready to move up.

Load, caps and training progress are computed by ``planner.core.pool`` from rows read here with a
fixed number of queries (no per-interviewer queries). The seat and training rows are selected with the
same filters as ``planner.services.pool`` (which the scheduler uses); tests/services/test_pool_agreement.py
checks both give the same answers. One interviewer's page is ``planner.queries.interviewer_detail``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, selectinload

from planner.core.pool import DEFAULT_POLICY, CapStatus, Progress, training_progress
from planner.models import Competency, Interviewer, Qualification, TrainingLevel, User
from planner.queries.interviewer_detail import (  # noqa: F401  (the pool pages' one import)
    MAX_LISTED_BLOCKS,
    ImportSummary,
    InterviewerDetail,
    get_interviewer,
    get_interviewer_detail,
    list_imports,
    list_login_choices,
    local_monday,
)
from planner.queries.load import caps_for, load_window, seat_records_for
from planner.queries.qualification_views import (  # noqa: F401
    LEVELS,
    QualificationView,
    qualification_views,
    trainee_counts,
)

TRAINEE_LEVELS = (TrainingLevel.SHADOW, TrainingLevel.REVERSE_SHADOW)


@dataclass(frozen=True)
class PoolRow:
    id: int
    name: str
    email: str
    team: str
    timezone: str
    local_now: datetime
    active: bool
    work_start: str
    work_end: str
    work_days: str
    qualifications: tuple[QualificationView, ...]
    caps: CapStatus
    login_email: str | None


@dataclass(frozen=True)
class ReadyItem:
    interviewer_id: int
    interviewer_name: str
    team: str
    competency_id: int
    competency_name: str
    progress: Progress


@dataclass(frozen=True)
class PoolPage:
    rows: tuple[PoolRow, ...]
    total: int
    teams: tuple[str, ...]
    competencies: tuple[tuple[int, str], ...]
    ready: tuple[ReadyItem, ...]


def list_teams(session: Session) -> tuple[str, ...]:
    """Every team named on an interviewer, sorted."""
    return tuple(
        session.scalars(
            select(Interviewer.team).where(Interviewer.team != "").distinct().order_by(Interviewer.team)
        )
    )


def list_competency_choices(session: Session) -> tuple[tuple[int, str], ...]:
    """Current (not retired) competencies as (id, name), by name."""
    rows = session.execute(
        select(Competency.id, Competency.name)
        .where(Competency.retired_at.is_(None))
        .order_by(Competency.name)
    )
    return tuple((cid, name) for cid, name in rows)


def list_pool(
    session: Session,
    *,
    now: datetime,
    competency_id: int | None = None,
    level: str | None = None,
    team: str | None = None,
    search: str | None = None,
    include_inactive: bool = False,
    limit: int | None = None,
    offset: int = 0,
) -> PoolPage:
    """Interviewers matching the filters with qualifications, this week's load against caps, and the
    trainees ready to move up (across the whole active pool). Seven queries whatever the pool size.

    With ``limit``, one page of them from ``offset`` (one more query counts every match for ``total``).
    """
    query = (
        select(Interviewer)
        .options(selectinload(Interviewer.qualifications))
        .order_by(Interviewer.active.desc(), func.lower(Interviewer.name))
    )
    if not include_inactive:
        query = query.where(Interviewer.active.is_(True))
    if team:
        query = query.where(Interviewer.team == team)
    if search and search.strip():
        needle = f"%{search.strip().lower()}%"
        query = query.where(
            or_(
                func.lower(Interviewer.name).like(needle),
                func.lower(Interviewer.email).like(needle),
                func.lower(Interviewer.team).like(needle),
            )
        )
    if competency_id or level:
        qualified = select(Qualification.interviewer_id)
        if competency_id:
            qualified = qualified.where(Qualification.competency_id == competency_id)
        if level in LEVELS:
            qualified = qualified.where(Qualification.level == TrainingLevel(level))
        query = query.where(Interviewer.id.in_(qualified))
    total = None
    if limit is not None:
        total = session.scalar(select(func.count()).select_from(query.order_by(None).subquery()))
        query = query.limit(limit).offset(max(offset, 0))
    people = session.scalars(query).all()
    ids = [p.id for p in people]
    competencies = {c.id: c for c in session.scalars(select(Competency))}
    user_ids = [p.user_id for p in people if p.user_id]
    logins: dict[int, str] = {}
    if user_ids:
        logins = {
            uid: email
            for uid, email in session.execute(select(User.id, User.email).where(User.id.in_(user_ids)))
        }
    seats = seat_records_for(session, ids, *load_window(now))
    counts = trainee_counts(session, ids, now)
    rows = tuple(
        PoolRow(
            id=p.id,
            name=p.name,
            email=p.email,
            team=p.team,
            timezone=p.timezone,
            local_now=now.astimezone(ZoneInfo(p.timezone)),
            active=p.active,
            work_start=p.work_start,
            work_end=p.work_end,
            work_days=p.work_days,
            qualifications=qualification_views(p.id, p.qualifications, competencies, counts),
            caps=caps_for(p, seats[p.id], now),
            login_email=logins.get(p.user_id) if p.user_id else None,
        )
        for p in people
    )
    choices = tuple(
        sorted(
            ((c.id, c.name) for c in competencies.values() if c.retired_at is None),
            key=lambda item: item[1].lower(),
        )
    )
    total = len(rows) if total is None else total
    return PoolPage(rows, total, list_teams(session), choices, list_ready(session, now=now))


def list_ready(session: Session, *, now: datetime) -> tuple[ReadyItem, ...]:
    """Active trainees whose completed interviews make them ready for the next level (two queries)."""
    rows = session.execute(
        select(Qualification.interviewer_id, Qualification.level, Interviewer.name, Interviewer.team,
               Competency.id, Competency.slug, Competency.name)
        .join(Interviewer, Qualification.interviewer_id == Interviewer.id)
        .join(Competency, Qualification.competency_id == Competency.id)
        .where(Interviewer.active.is_(True), Qualification.level.in_(TRAINEE_LEVELS))
        .order_by(func.lower(Interviewer.name), Competency.name)
    ).all()
    # Every active interviewer's counts, filtered by a join rather than a list of thousands of ids; people
    # who are not in ``rows`` are simply never looked up.
    counts = trainee_counts(session, None, now) if rows else {}
    # Progress depends only on (level, shadow, reverse) and trainees share a few such triples.
    progress_of: dict[tuple[str, int, int], Progress] = {}
    ready = []
    for person_id, level, name, team, competency_id, slug, competency_name in rows:
        key = (level.value, *counts.get((person_id, slug), (0, 0)))
        progress = progress_of.get(key)
        if progress is None:
            progress = progress_of[key] = training_progress(*key, DEFAULT_POLICY)
        if progress.ready:
            ready.append(ReadyItem(person_id, name, team, competency_id, competency_name, progress))
    return tuple(ready)
