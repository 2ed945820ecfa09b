"""Read side of the interviewer's pages: their interviews with what to assess, and the scorecard sheet."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from planner.core.errors import NotFound
from planner.models import (
    Competency,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    Posting,
    Scorecard,
    Seat,
    SeatRole,
    SeatStatus,
)


@dataclass(frozen=True)
class MyInterview:
    """One interview as its interviewer sees it."""

    id: int
    start: datetime
    end: datetime
    round_name: str
    kind: str
    candidate_name: str
    posting_title: str
    role: str
    status: str
    competencies: tuple[dict, ...]
    focus_questions: tuple[str, ...]
    location: str
    video_url: str
    colleagues: tuple[str, ...]
    #: "write", "edit" or "submitted" once the interview has started (active seat, not cancelled), else "".
    scorecard: str = ""


def interviewer_for_user(session: Session, user_id: int) -> Interviewer | None:
    """The pool entry linked to a login, if any."""
    return session.scalar(select(Interviewer).where(Interviewer.user_id == user_id))


def _competencies(detail: dict | None) -> tuple[dict, ...]:
    out = []
    for item in (detail or {}).get("competencies") or []:
        if isinstance(item, str):
            out.append({"name": item, "focus": ""})
        elif isinstance(item, dict) and (item.get("name") or item.get("slug")):
            out.append(
                {"name": str(item.get("name") or item.get("slug")), "focus": str(item.get("focus") or "")}
            )
    return tuple(out)


def list_my_interviews(
    session: Session, interviewer_id: int, now: datetime
) -> tuple[list[MyInterview], list[MyInterview]]:
    """(upcoming, past) interviews of the interviewer's non-removed seats; past ones newest first."""
    rows = session.execute(
        select(Interview, Seat)
        .join(Seat, Seat.interview_id == Interview.id)
        .where(Seat.interviewer_id == interviewer_id, Seat.status != SeatStatus.REMOVED)
        .options(
            selectinload(Interview.loop).selectinload(Loop.candidate),
            selectinload(Interview.seats).selectinload(Seat.interviewer),
        )
        .order_by(Interview.start, Interview.id)
    ).all()
    titles = dict(session.execute(select(Posting.id, Posting.title)).all()) if rows else {}
    cards = dict(session.execute(
        select(Scorecard.interview_id, Scorecard.submitted_at).where(Scorecard.interviewer_id == interviewer_id)
    ).all()) if rows else {}
    upcoming, past = [], []
    for interview, seat in rows:
        detail = interview.round_detail or {}
        item = MyInterview(
            id=interview.id,
            start=interview.start,
            end=interview.end,
            round_name=interview.round_name,
            kind=str(detail.get("kind") or ""),
            candidate_name=interview.loop.candidate.name,
            posting_title=titles.get(interview.loop.posting_id, ""),
            role=seat.role.value,
            status=interview.status.value,
            competencies=_competencies(detail),
            focus_questions=tuple(str(q) for q in detail.get("focus_questions") or [] if str(q).strip()),
            location=interview.location or interview.loop.location or "",
            video_url=interview.video_url or interview.loop.video_url or "",
            colleagues=tuple(
                s.interviewer.name
                for s in interview.seats
                if s.status == SeatStatus.ACTIVE and s.interviewer_id != interviewer_id
            ),
            scorecard=_card_state(interview, seat, cards, now),
        )
        is_past = interview.end < now or interview.status == InterviewStatus.COMPLETED
        (past if is_past else upcoming).append(item)
    past.reverse()
    return upcoming, past


def _card_state(interview: Interview, seat: Seat, cards: dict, now: datetime) -> str:
    if seat.status != SeatStatus.ACTIVE or writable_reason(interview, now):
        return "submitted" if cards.get(interview.id) else ""
    if interview.id not in cards:
        return "write"
    return "submitted" if cards[interview.id] else "edit"


def round_slugs(interview: Interview) -> list[str]:
    """Slugs of the competencies the interview's round assesses, in plan order."""
    out = []
    for item in (interview.round_detail or {}).get("competencies") or []:
        slug = item if isinstance(item, str) else (item.get("slug") if isinstance(item, dict) else None)
        if slug and slug not in out:
            out.append(str(slug))
    return out


def writable_reason(interview: Interview, now: datetime) -> str | None:
    """Why no scorecard can be written for the interview now, or None when it can."""
    if interview.status == InterviewStatus.CANCELLED:
        return "This interview was cancelled, so there is nothing to score."
    if interview.start > now:
        return "This interview has not started yet. The scorecard opens when the interview starts."
    return None


def active_seat(session: Session, interviewer_id: int, interview_id: int) -> tuple[Interview, Seat]:
    """The interview and the interviewer's active seat on it.

    :raise NotFound: no such interview, or the interviewer holds no active seat on it.
    """
    row = session.execute(
        select(Interview, Seat)
        .join(Seat, Seat.interview_id == Interview.id)
        .where(Interview.id == interview_id, Seat.interviewer_id == interviewer_id,
               Seat.status == SeatStatus.ACTIVE)
    ).first()
    if row is None:
        raise NotFound("No such interview among yours.")
    return row[0], row[1]


@dataclass(frozen=True)
class SheetCompetency:
    slug: str
    name: str
    focus: str
    description: str
    rubric_strong: str
    rubric_weak: str


@dataclass(frozen=True)
class CardView:
    """A scorecard as shown: whose, ratings by slug, notes, when submitted."""

    name: str
    role: str
    ratings: dict[str, int]
    notes: str
    submitted_at: datetime | None


@dataclass(frozen=True)
class ScorecardSheet:
    """What the scorecard page shows to one interviewer for one interview."""

    interview_id: int
    round_name: str
    candidate_name: str
    posting_title: str
    start: datetime
    end: datetime
    role: str
    #: Why the scorecard cannot be written now (too early, cancelled), or None.
    blocked: str | None
    competencies: tuple[SheetCompetency, ...]
    mine: CardView | None
    #: Other panel members' submitted scorecards; empty until the viewer submitted their own.
    panel: tuple[CardView, ...]
    #: (name, role, submitted?) of every other panel member, shown without content.
    panel_status: tuple[tuple[str, str, bool], ...]

    @property
    def submitted(self) -> bool:
        return bool(self.mine and self.mine.submitted_at)


def get_scorecard_sheet(session: Session, interviewer_id: int, interview_id: int, now: datetime) -> ScorecardSheet:
    """The scorecard page of one of the interviewer's interviews (five queries).

    :raise NotFound: the interviewer holds no active seat on the interview.
    """
    interview, seat = active_seat(session, interviewer_id, interview_id)
    loop = session.scalars(select(Loop).where(Loop.id == interview.loop_id)
                           .options(selectinload(Loop.candidate))).one()
    title = session.scalar(select(Posting.title).where(Posting.id == loop.posting_id)) or ""
    slugs = round_slugs(interview)
    found = {c.slug: c for c in session.scalars(select(Competency).where(Competency.slug.in_(slugs)))} if slugs else {}
    focus = {str(i.get("slug")): str(i.get("focus") or "") for i in (interview.round_detail or {}).get(
        "competencies") or [] if isinstance(i, dict)}
    competencies = tuple(
        SheetCompetency(slug, c.name, focus.get(slug, ""), c.description, c.rubric_strong, c.rubric_weak)
        for slug, c in ((s, found.get(s)) for s in slugs) if c is not None)
    slug_of = {c.id: c.slug for c in found.values()}
    seats = session.execute(
        select(Seat, Interviewer.name).join(Interviewer, Interviewer.id == Seat.interviewer_id)
        .where(Seat.interview_id == interview_id, Seat.status == SeatStatus.ACTIVE)
        .order_by(Seat.role, Interviewer.name)
    ).all()
    cards = {c.interviewer_id: c for c in session.scalars(
        select(Scorecard).where(Scorecard.interview_id == interview_id).options(selectinload(Scorecard.ratings)))}

    def view(card: Scorecard, name: str, role: SeatRole) -> CardView:
        ratings = {slug_of[r.competency_id]: r.score for r in card.ratings if r.competency_id in slug_of}
        return CardView(name, role.value, ratings, card.notes, card.submitted_at)

    names = {s.interviewer_id: (name, s.role) for s, name in seats}
    mine = cards.get(interviewer_id)
    mine_view = view(mine, *names[interviewer_id]) if mine else None
    others = [(s, name) for s, name in seats if s.interviewer_id != interviewer_id]
    visible = mine_view is not None and mine_view.submitted_at is not None
    panel = tuple(view(cards[s.interviewer_id], name, s.role) for s, name in others
                  if visible and s.interviewer_id in cards and cards[s.interviewer_id].submitted_at)
    status = tuple((name, s.role.value, bool(s.interviewer_id in cards and cards[s.interviewer_id].submitted_at))
                   for s, name in others)
    return ScorecardSheet(
        interview_id=interview.id, round_name=interview.round_name, candidate_name=loop.candidate.name,
        posting_title=title, start=interview.start, end=interview.end, role=seat.role.value,
        blocked=writable_reason(interview, now) if not (mine and mine.submitted_at) else None,
        competencies=competencies, mine=mine_view, panel=panel, panel_status=status)
