"""Read side of one interviewer's page: profile, qualifications with progress, caps, the week view,
busy blocks and imported calendars, and the logins that may be linked to them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from planner.core.errors import NotFound, ValidationFailed
from planner.core.pool import (
    BookedInterview,
    BusyInterval,
    CapStatus,
    LoadSummary,
    SeatRecord,
    WeekView,
    WorkingHours,
    count_load,
    parse_working_hours,
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
    Seat,
    SeatRole,
    SeatStatus,
    User,
)
from planner.queries.load import BOOKED_STATUSES, caps_for, load_window, seat_records_for
from planner.queries.qualification_views import QualificationView, qualification_views, trainee_counts

MAX_LISTED_BLOCKS = 200


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
    counts = trainee_counts(session, [person.id], now)
    qualifications = qualification_views(person.id, person.qualifications, competencies, counts)
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
