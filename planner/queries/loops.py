"""Read side of the loop pages: the list, one loop with its interviews, and a proposal made readable.

Each function issues a fixed number of SQL queries whatever the data size.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from planner.models import (
    AuditEntry,
    Candidate,
    Competency,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    LoopStatus,
    OutboxMessage,
    PlanVersion,
    Posting,
    PostingCompetency,
    Seat,
    SelectionState,
)

STATUSES = tuple(s.value for s in LoopStatus)


@dataclass(frozen=True, slots=True)
class LoopRow:
    id: int
    candidate: str
    candidate_email: str
    candidate_timezone: str
    posting_id: int
    posting_title: str
    status: str
    next_interview: datetime | None
    interviews: int


def list_loops(session: Session, *, now: datetime, posting_id: int | None = None, status: str = "",
               limit: int = 500, offset: int = 0) -> list[LoopRow]:
    """Loops newest first with candidate, posting, status and next upcoming interview (one query);
    ``limit`` of them from ``offset``."""
    upcoming = (select(Interview.loop_id, func.min(Interview.start).label("next_start"),
                       func.count(Interview.id).label("count"))
                .where(Interview.status == InterviewStatus.SCHEDULED, Interview.end > now)
                .group_by(Interview.loop_id).subquery())
    query = (select(Loop.id, Candidate.name, Candidate.email, Candidate.timezone, Posting.id, Posting.title,
                    Loop.status, upcoming.c.next_start, upcoming.c.count)
             .join(Candidate, Candidate.id == Loop.candidate_id)
             .join(Posting, Posting.id == Loop.posting_id)
             .outerjoin(upcoming, upcoming.c.loop_id == Loop.id)
             .order_by(Loop.id.desc()).limit(limit).offset(max(offset, 0)))
    if posting_id is not None:
        query = query.where(Loop.posting_id == posting_id)
    if status in STATUSES:
        query = query.where(Loop.status == LoopStatus(status))
    return [LoopRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6].value, r[7], r[8] or 0)
            for r in session.execute(query)]


def count_by_status(session: Session, *, posting_id: int | None = None) -> dict[str, int]:
    """Loops per status, every status present (one query)."""
    query = select(Loop.status, func.count(Loop.id)).group_by(Loop.status)
    if posting_id is not None:
        query = query.where(Loop.posting_id == posting_id)
    counts = {s: 0 for s in STATUSES}
    counts.update({status.value: n for status, n in session.execute(query)})
    return counts


def posting_choices(session: Session) -> list[tuple[int, str]]:
    """(id, title) of every posting, for filters and the new-loop form."""
    return [(i, t) for i, t in session.execute(select(Posting.id, Posting.title).order_by(Posting.title))]


@dataclass(frozen=True)
class Shortfall:
    """A competency a cancelled round assessed: how many live rounds of the loop still assess it."""

    name: str
    live: int
    required: int

    @property
    def short(self) -> bool:
        return self.live < self.required


@dataclass(frozen=True)
class CancelledRound:
    """A cancelled interview whose round has no live interview, and what that leaves of its competencies."""

    interview: Interview
    competencies: tuple[Shortfall, ...]

    @property
    def short(self) -> tuple[Shortfall, ...]:
        """The competencies now assessed by fewer rounds than required."""
        return tuple(c for c in self.competencies if c.short)


def _assessed(interview: Interview) -> list[tuple[str, str]]:
    """(slug, name) of the competencies an interview assessed, from its round as booked."""
    return [(str(c.get("slug")), str(c.get("name") or c.get("slug")))
            for c in (interview.round_detail or {}).get("competencies", []) if isinstance(c, dict)]


@dataclass
class LoopDetail:
    loop: Loop
    posting: Posting
    version: PlanVersion | None
    interviews: list[Interview]
    #: Interview id -> the reason it was cancelled (from the audit trail).
    cancel_reasons: dict[int, str] = field(default_factory=dict)
    #: Competency slug -> the rounds the posting requires for it.
    required: dict[str, int] = field(default_factory=dict)

    @property
    def cancelled_rounds(self) -> list[CancelledRound]:
        """Cancelled rounds not booked again, each competency with its live rounds against the required."""
        live = [i for i in self.interviews if i.status != InterviewStatus.CANCELLED]
        booked = {i.round_key for i in live}
        counts: dict[str, int] = {}
        for interview in live:
            for slug, _name in _assessed(interview):
                counts[slug] = counts.get(slug, 0) + 1
        found, seen = [], set()
        for interview in self.interviews:
            if interview.status != InterviewStatus.CANCELLED or interview.round_key in booked | seen:
                continue
            seen.add(interview.round_key)
            found.append(CancelledRound(interview, tuple(
                Shortfall(name, counts.get(slug, 0), self.required.get(slug, 1))
                for slug, name in _assessed(interview))))
        return found


def get_loop_detail(session: Session, loop_id: int) -> LoopDetail | None:
    """One loop with candidate, windows, posting, plan version, interviews and their seated people."""
    loop = session.scalar(select(Loop).where(Loop.id == loop_id).options(
        selectinload(Loop.candidate), selectinload(Loop.windows),
        selectinload(Loop.interviews).selectinload(Interview.seats).selectinload(Seat.interviewer)))
    if loop is None:
        return None
    posting = session.get(Posting, loop.posting_id)
    version = session.get(PlanVersion, loop.plan_version_id) if loop.plan_version_id else None
    cancelled = [i.id for i in loop.interviews if i.status == InterviewStatus.CANCELLED]
    reasons = {}
    if cancelled:
        rows = session.execute(select(AuditEntry.entity_id, AuditEntry.reason)
                               .where(AuditEntry.entity == "interview", AuditEntry.action == "interview_cancelled",
                                      AuditEntry.entity_id.in_(cancelled)).order_by(AuditEntry.id))
        reasons = dict(rows.all())
    required = {}
    if cancelled:
        required = dict(session.execute(
            select(Competency.slug, PostingCompetency.required_coverage)
            .join(Competency, Competency.id == PostingCompetency.competency_id)
            .where(PostingCompetency.posting_id == loop.posting_id,
                   PostingCompetency.state == SelectionState.ACCEPTED)).all())
    return LoopDetail(loop, posting, version, sorted(loop.interviews, key=lambda i: (i.start, i.id)), reasons,
                      required)


@dataclass(frozen=True, slots=True)
class MessageRow:
    id: int
    interview_id: int | None
    kind: str
    method: str
    recipient: str
    sequence: int
    state: str
    created_at: datetime


def loop_messages(session: Session, loop_id: int, *, limit: int = 12) -> list[MessageRow]:
    """The loop's latest outbox messages, newest change first; the messages one change wrote (they share its
    time) in the order they were written, so a schedule's invites follow its rounds (one query)."""
    rows = session.execute(select(OutboxMessage).where(OutboxMessage.loop_id == loop_id)
                           .order_by(OutboxMessage.created_at.desc(), OutboxMessage.id).limit(limit)).scalars()
    return [MessageRow(m.id, m.interview_id, m.kind, m.method, m.recipient_email, m.sequence,
                       m.state.value, m.created_at) for m in rows]


def count_loop_messages(session: Session, loop_id: int) -> int:
    """How many outbox messages the loop has (one query)."""
    return session.scalar(select(func.count(OutboxMessage.id)).where(OutboxMessage.loop_id == loop_id)) or 0


@dataclass
class PersonView:
    id: int
    key: str
    name: str
    team: str
    timezone: str
    role: str


@dataclass
class RoundView:
    key: str
    name: str
    start: datetime
    end: datetime
    people: list[PersonView] = field(default_factory=list)


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def proposal_rounds(session: Session, interviews: Sequence[Mapping], round_names: Mapping[str, str]
                    ) -> list[RoundView]:
    """The proposal's rounds in time order with each person's name, team, zone and local times (one query)."""
    keys = {p for i in interviews for p in [*i.get("interviewers", []), *i.get("trainees", [])]}
    ids = [int(k[1:]) for k in keys if k.startswith("p") and k[1:].isdigit()]
    people = {p.id: p for p in session.scalars(select(Interviewer).where(Interviewer.id.in_(ids)))}
    rounds = []
    for item in sorted(interviews, key=lambda i: i["start"]):
        start, end = _utc(item["start"]), _utc(item["end"])
        view = RoundView(item["round"], round_names.get(item["round"], item["round"]), start, end)
        for role, key in [("assessor", k) for k in item.get("interviewers", [])] + \
                         [("trainee", k) for k in item.get("trainees", [])]:
            person = people.get(int(key[1:])) if key[1:].isdigit() else None
            if person is None:
                continue
            view.people.append(PersonView(person.id, key, person.name, person.team, person.timezone, role))
        rounds.append(view)
    return rounds
