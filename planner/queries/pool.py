"""Read side of the interviewer pool: the pool list, one interviewer's page, who is ready to move up.

Load, caps, training progress and the week view are computed by ``planner.core.pool`` from rows
read here with a fixed number of queries (no per-interviewer queries). The seat and training rows
are selected with the same filters as ``planner.services.pool`` (which the scheduler uses);
tests/services/test_pool_agreement.py checks both give the same answers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, selectinload

from planner.core.errors import NotFound, ValidationFailed
from planner.core.pool import (
    DEFAULT_POLICY,
    BookedInterview,
    BusyInterval,
    CapStatus,
    LoadSummary,
    Progress,
    SeatRecord,
    WeekView,
    WorkingHours,
    count_load,
    parse_working_hours,
    training_progress,
    week_view,
)
from planner.models import (
    BusyBlock,
    Candidate,
    Competency,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    Qualification,
    Seat,
    SeatRole,
    SeatStatus,
    TrainingLevel,
    User,
)
from planner.queries.load import (
    BOOKED_STATUSES,
    caps_for,
    load_window,
    seat_records_for,
    training_counts,
)

LEVELS = tuple(level.value for level in TrainingLevel)
TRAINEE_LEVELS = (TrainingLevel.SHADOW, TrainingLevel.REVERSE_SHADOW)
MAX_LISTED_BLOCKS = 200


@dataclass(frozen=True)
class QualificationView:
    competency_id: int
    slug: str
    name: str
    level: str
    since: datetime
    progress: Progress


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


@dataclass(frozen=True)
class ImportSummary:
    source: str
    name: str
    blocks: int
    first_start: datetime
    last_end: datetime


@dataclass(frozen=True)
class InterviewerDetail:
    interviewer: Interviewer
    login_email: str | None
    local_now: datetime
    hours: WorkingHours | None
    qualifications: tuple[QualificationView, ...]
    addable_competencies: tuple[tuple[int, str], ...]
    caps: CapStatus
    week: WeekView
    week_load: LoadSummary
    week_start: date
    this_week_start: date
    manual_blocks: tuple[BusyBlock, ...]
    more_manual_blocks: bool
    imports: tuple[ImportSummary, ...]
    upcoming_interviews: int

    @property
    def prev_week(self) -> date:
        return self.week_start - timedelta(days=7)

    @property
    def next_week(self) -> date:
        return self.week_start + timedelta(days=7)

    @property
    def is_this_week(self) -> bool:
        return self.week_start == self.this_week_start


# ---------------------------------------------------------------------------------- shared rows


def _counts(session: Session, ids: list[int], now: datetime) -> dict[tuple[int, str], tuple[int, int]]:
    return {key: (c.shadow, c.reverse_shadow) for key, c in training_counts(session, ids, now).items()}


def _qualification_views(
    person_id: int,
    qualifications: Iterable[Qualification],
    competencies: dict[int, Competency],
    counts: dict[tuple[int, str], tuple[int, int]],
) -> tuple[QualificationView, ...]:
    order = {level: index for index, level in enumerate(reversed(LEVELS))}
    views = []
    for q in qualifications:
        competency = competencies[q.competency_id]
        shadow, reverse = counts.get((person_id, competency.slug), (0, 0))
        progress = training_progress(q.level.value, shadow, reverse, DEFAULT_POLICY)
        views.append(
            QualificationView(
                competency.id, competency.slug, competency.name, q.level.value, q.since, progress
            )
        )
    return tuple(sorted(views, key=lambda v: (order[v.level], v.name.lower())))


# ---------------------------------------------------------------------------------- pool list


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
    counts = _counts(session, ids, now)
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
            qualifications=_qualification_views(p.id, p.qualifications, competencies, counts),
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
    counts = _counts(session, sorted({row.interviewer_id for row in rows}), now)
    ready = []
    for person_id, level, name, team, competency_id, slug, competency_name in rows:
        shadow, reverse = counts.get((person_id, slug), (0, 0))
        progress = training_progress(level.value, shadow, reverse, DEFAULT_POLICY)
        if progress.ready:
            ready.append(ReadyItem(person_id, name, team, competency_id, competency_name, progress))
    return tuple(ready)


# ------------------------------------------------------------------------------------- one interviewer


def local_monday(at: datetime, tz: str) -> date:
    """Monday of the local ISO week holding the instant ``at`` in zone ``tz``."""
    day = at.astimezone(ZoneInfo(tz)).date()
    return day - timedelta(days=day.weekday())


def get_interviewer(session: Session, interviewer_id: int) -> Interviewer:
    """The interviewer row, or NotFound."""
    person = session.get(Interviewer, interviewer_id)
    if person is None:
        raise NotFound(f"There is no interviewer #{interviewer_id}.")
    return person


def list_imports(session: Session, interviewer_id: int) -> tuple[ImportSummary, ...]:
    """The calendars imported for an interviewer: name, block count and the span they cover (one query)."""
    return tuple(
        ImportSummary(source, source.removeprefix("import:"), count, first, last)
        for source, count, first, last in session.execute(
            select(
                BusyBlock.source, func.count(BusyBlock.id), func.min(BusyBlock.start), func.max(BusyBlock.end)
            )
            .where(BusyBlock.interviewer_id == interviewer_id, BusyBlock.source.like("import:%"))
            .group_by(BusyBlock.source)
            .order_by(BusyBlock.source)
        )
    )


def get_interviewer_detail(
    session: Session, interviewer_id: int, *, now: datetime, week_start: date | None = None
) -> InterviewerDetail:
    """Everything the interviewer page shows: profile, qualifications with progress, caps this week,
    the week view of ``week_start`` (the local Monday; default this week), busy blocks and imports."""
    person = session.scalar(
        select(Interviewer)
        .where(Interviewer.id == interviewer_id)
        .options(selectinload(Interviewer.qualifications))
    )
    if person is None:
        raise NotFound(f"There is no interviewer #{interviewer_id}.")
    zone = ZoneInfo(person.timezone)
    this_monday = local_monday(now, person.timezone)
    monday = week_start - timedelta(days=week_start.weekday()) if week_start else this_monday
    week_from = datetime.combine(monday, time(0), tzinfo=zone).astimezone(UTC)
    week_to = datetime.combine(monday + timedelta(days=7), time(0), tzinfo=zone).astimezone(UTC)

    competencies = {c.id: c for c in session.scalars(select(Competency))}
    counts = _counts(session, [person.id], now)
    qualifications = _qualification_views(person.id, person.qualifications, competencies, counts)
    held = {q.competency_id for q in person.qualifications}
    addable = tuple(
        sorted(
            ((c.id, c.name) for c in competencies.values() if c.retired_at is None and c.id not in held),
            key=lambda item: item[1].lower(),
        )
    )

    caps = caps_for(person, seat_records_for(session, [person.id], *load_window(now))[person.id], now)
    booked = session.execute(
        select(
            Seat.role,
            Seat.training_level,
            Interview.start,
            Interview.end,
            Interview.round_name,
            Candidate.name,
        )
        .join(Interview, Seat.interview_id == Interview.id)
        .join(Loop, Interview.loop_id == Loop.id)
        .join(Candidate, Loop.candidate_id == Candidate.id)
        .where(
            Seat.interviewer_id == person.id,
            Seat.status == SeatStatus.ACTIVE,
            Interview.status.in_(BOOKED_STATUSES),
            Interview.start < week_to,
            Interview.end > week_from,
        )
        .order_by(Interview.start)
    ).all()
    interviews = [
        BookedInterview(
            start,
            end,
            f"{round_name} · {candidate}"
            + (f" ({training_level or 'trainee'})" if role is SeatRole.TRAINEE else ""),
        )
        for role, training_level, start, end, round_name, candidate in booked
    ]
    week_load = count_load([SeatRecord(start, role.value) for role, _, start, *_ in booked], zone)
    blocks = session.scalars(
        select(BusyBlock)
        .where(BusyBlock.interviewer_id == person.id, BusyBlock.start < week_to, BusyBlock.end > week_from)
        .order_by(BusyBlock.start)
    ).all()
    busy = [
        BusyInterval(b.start, b.end, b.summary or ("Busy" if b.source == "manual" else "Busy (imported)"))
        for b in blocks
    ]
    try:
        hours = parse_working_hours(person.work_start, person.work_end, person.work_days.split())
    except ValidationFailed:  # a row edited outside the app: show the week without a working band
        hours = None
    week = week_view(zone, monday, hours, busy, interviews)

    manual = session.scalars(
        select(BusyBlock)
        .where(BusyBlock.interviewer_id == person.id, BusyBlock.source == "manual", BusyBlock.end > now)
        .order_by(BusyBlock.start)
        .limit(MAX_LISTED_BLOCKS + 1)
    ).all()
    imports = list_imports(session, person.id)
    upcoming = (
        session.scalar(
            select(func.count(Seat.id))
            .join(Interview, Seat.interview_id == Interview.id)
            .where(
                Seat.interviewer_id == person.id,
                Seat.status == SeatStatus.ACTIVE,
                Interview.status == InterviewStatus.SCHEDULED,
                Interview.start >= now,
            )
        )
        or 0
    )
    login_email = (
        session.scalar(select(User.email).where(User.id == person.user_id)) if person.user_id else None
    )
    return InterviewerDetail(
        interviewer=person,
        login_email=login_email,
        local_now=now.astimezone(zone),
        hours=hours,
        qualifications=qualifications,
        addable_competencies=addable,
        caps=caps,
        week=week,
        week_load=week_load,
        week_start=monday,
        this_week_start=this_monday,
        manual_blocks=tuple(manual[:MAX_LISTED_BLOCKS]),
        more_manual_blocks=len(manual) > MAX_LISTED_BLOCKS,
        imports=imports,
        upcoming_interviews=upcoming,
    )


def list_login_choices(session: Session, interviewer_id: int | None = None) -> tuple[tuple[int, str], ...]:
    """Logins with the interviewer role not linked to another interviewer, as (id, "Name <email>")."""
    taken = select(Interviewer.user_id).where(Interviewer.user_id.is_not(None))
    if interviewer_id is not None:
        taken = taken.where(Interviewer.id != interviewer_id)
    users = session.execute(
        select(User.id, User.name, User.email, User.roles)
        .where(User.active.is_(True), User.id.not_in(taken))
        .order_by(func.lower(User.name))
    ).all()
    return tuple((u.id, f"{u.name} <{u.email}>") for u in users if "interviewer" in u.roles.split())
