"""The manager's evidence view: per loop, competency x round, from planned to scheduled to scored.

A round *plans* a competency when the loop's plan version (or, for a loop without one, the working plan)
says it assesses it; it is *scheduled* when the round's interview is booked (assessor names); it is
*scored* when assessors submitted ratings for it. Only assessors count: trainee scorecards are listed
apart and never enter an average. Gaps are phrased for the debrief.

The page costs a fixed number of queries whatever the number of loops, rounds or scorecards: rows are
loaded per table for all loops at once and grouped in Python.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.core.errors import NotFound
from planner.models import (
    Candidate,
    Competency,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    LoopStatus,
    PlanVersion,
    Posting,
    PostingCompetency,
    Priority,
    Rating,
    Round,
    Scorecard,
    Seat,
    SeatRole,
    SeatStatus,
    SelectionState,
)
from planner.models.plans import RoundCompetency


@dataclass(frozen=True)
class Mark:
    """One assessor in one cell: "scored" (with score), "pending" (interview not over), "missing"
    (over, no submitted scorecard) or "unrated" (submitted without rating this competency)."""

    name: str
    state: str
    score: int | None = None


@dataclass(frozen=True)
class Cell:
    """state: none (round does not assess it), unscheduled, cancelled, scheduled, awaiting, scored."""

    state: str
    focus: str = ""
    people: tuple[Mark, ...] = ()
    average: float | None = None

    @property
    def band(self) -> int:
        """1-4: the average rounded to the nearest rating, for the colour."""
        return min(4, max(1, int(self.average + 0.5))) if self.average is not None else 0


@dataclass(frozen=True)
class RoundColumn:
    key: str
    name: str
    start: datetime | None
    status: str


@dataclass(frozen=True)
class CompetencyRow:
    slug: str
    name: str
    priority: str
    required: int
    cells: tuple[Cell, ...]
    planned: int
    scheduled: int
    scored: int
    average: float | None


@dataclass(frozen=True)
class Gap:
    """A sentence for the debrief; kind is "gap" (evidence missing), "note" (worth discussing) or "pending"."""

    text: str
    kind: str = "gap"


@dataclass(frozen=True)
class TrainingCard:
    name: str
    round_name: str
    ratings: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class LoopEvidence:
    loop_id: int
    candidate_name: str
    status: str
    rounds: tuple[RoundColumn, ...]
    rows: tuple[CompetencyRow, ...]
    gaps: tuple[Gap, ...]
    training: tuple[TrainingCard, ...]


@dataclass(frozen=True)
class PostingEvidence:
    id: int
    title: str
    team: str
    loops: tuple[LoopEvidence, ...]
    #: Candidates whose loop is not scheduled yet (nothing to show but the plan).
    drafts: tuple[str, ...]


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _names(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _plans(session: Session, loops: list[Loop]) -> dict[int, list[dict]]:
    """Rounds per loop as [{key, name, competencies: [{slug, focus}]}], from its version or the working plan."""
    version_ids = {lp.plan_version_id for lp in loops if lp.plan_version_id}
    versions = dict(session.execute(select(PlanVersion.id, PlanVersion.snapshot)
                                    .where(PlanVersion.id.in_(version_ids))).all()) if version_ids else {}
    working: dict[int, list[dict]] = {}
    unversioned = {lp.posting_id for lp in loops if lp.plan_version_id not in versions}
    if unversioned:
        rounds = session.scalars(select(Round).where(Round.posting_id.in_(unversioned))
                                 .order_by(Round.posting_id, Round.position, Round.id)).all()
        focus = defaultdict(list)
        for round_id, slug, value in session.execute(
                select(RoundCompetency.round_id, Competency.slug, RoundCompetency.focus)
                .join(Competency, Competency.id == RoundCompetency.competency_id)
                .where(RoundCompetency.round_id.in_([r.id for r in rounds]))):
            focus[round_id].append({"slug": slug, "focus": value.value})
        for rnd in rounds:
            working.setdefault(rnd.posting_id, []).append(
                {"key": rnd.key, "name": rnd.name, "competencies": focus[rnd.id]})
    return {lp.id: list(versions.get(lp.plan_version_id) or working.get(lp.posting_id, [])) for lp in loops}


def get_posting_evidence(session: Session, posting_id: int, now: datetime) -> PostingEvidence:
    """Every scheduled or completed loop of the posting as an evidence matrix with its gaps.

    :raise NotFound: no posting with that id.
    """
    posting = session.get(Posting, posting_id)
    if posting is None:
        raise NotFound(f"There is no posting #{posting_id}.")
    reqs = session.execute(
        select(Competency.slug, Competency.name, PostingCompetency.priority, PostingCompetency.required_coverage)
        .join(Competency, Competency.id == PostingCompetency.competency_id)
        .where(PostingCompetency.posting_id == posting_id, PostingCompetency.state == SelectionState.ACCEPTED)
        .order_by(PostingCompetency.id)
    ).all()
    reqs = sorted(reqs, key=lambda r: r.priority != Priority.MUST_HAVE)
    rows = session.execute(
        select(Loop, Candidate.name).join(Candidate, Candidate.id == Loop.candidate_id)
        .where(Loop.posting_id == posting_id, Loop.status != LoopStatus.CANCELLED)
        .order_by(Candidate.name, Loop.id)
    ).all()
    drafts = tuple(name for loop, name in rows if loop.status == LoopStatus.DRAFT)
    active = [(loop, name) for loop, name in rows if loop.status != LoopStatus.DRAFT]
    loops = [loop for loop, _ in active]
    plans = _plans(session, loops) if loops else {}
    interviews = session.scalars(select(Interview).where(Interview.loop_id.in_([lp.id for lp in loops]))
                                 .order_by(Interview.start, Interview.id)).all() if loops else []
    ids = [i.id for i in interviews]
    seats = session.execute(
        select(Seat.interview_id, Seat.interviewer_id, Seat.role, Interviewer.name)
        .join(Interviewer, Interviewer.id == Seat.interviewer_id)
        .where(Seat.interview_id.in_(ids), Seat.status == SeatStatus.ACTIVE).order_by(Interviewer.name)
    ).all() if ids else []
    cards = {(c.interview_id, c.interviewer_id): c for c in session.scalars(
        select(Scorecard).where(Scorecard.interview_id.in_(ids), Scorecard.submitted_at.is_not(None)))} if ids else {}
    ratings: dict[int, dict[str, int]] = defaultdict(dict)
    if cards:
        for card_id, slug, score in session.execute(
                select(Rating.scorecard_id, Competency.slug, Rating.score)
                .join(Competency, Competency.id == Rating.competency_id)
                .where(Rating.scorecard_id.in_([c.id for c in cards.values()]))):
            ratings[card_id][slug] = score
    known = {r.slug for r in reqs}
    extra = {c["slug"] for plan in plans.values() for rnd in plan for c in rnd.get("competencies", [])} - known
    names = {r.slug: r.name for r in reqs}
    if extra:
        names.update(session.execute(select(Competency.slug, Competency.name).where(Competency.slug.in_(extra))).all())
    world = _World(reqs, names, interviews, seats, cards, ratings, now)
    return PostingEvidence(
        id=posting.id, title=posting.title, team=posting.team,
        loops=tuple(world.loop(loop, name, plans[loop.id]) for loop, name in active), drafts=drafts)


#: Sorts after every interview's start: rounds never booked go last.
_LAST = datetime.max.replace(tzinfo=UTC)


class _World:
    """The rows loaded for one page, grouped for building each loop's matrix."""

    def __init__(self, reqs, names, interviews, seats, cards, ratings, now) -> None:
        self.reqs, self.names, self.cards, self.ratings, self.now = reqs, names, cards, ratings, now
        self.by_loop: dict[int, list[Interview]] = defaultdict(list)
        for interview in interviews:
            self.by_loop[interview.loop_id].append(interview)
        self.seats: dict[int, list] = defaultdict(list)
        for row in seats:
            self.seats[row.interview_id].append(row)

    def _over(self, interview: Interview) -> bool:
        return interview.status == InterviewStatus.COMPLETED or interview.end <= self.now

    def _pick(self, loop_id: int, plan: list[dict]) -> tuple[list[dict], dict[str, Interview]]:
        """Plan rounds (plus rounds booked outside the plan) and the interview standing for each round:
        a booked one if any, else a cancelled one."""
        rounds = list(plan)
        chosen: dict[str, Interview] = {}
        for interview in self.by_loop.get(loop_id, []):
            if interview.round_key not in {r["key"] for r in rounds}:
                detail = interview.round_detail or {}
                rounds.append({"key": interview.round_key, "name": interview.round_name,
                               "competencies": [c for c in detail.get("competencies") or [] if isinstance(c, dict)]})
            held = chosen.get(interview.round_key)
            if held is None or (held.status == InterviewStatus.CANCELLED
                                and interview.status != InterviewStatus.CANCELLED):
                chosen[interview.round_key] = interview
        return rounds, chosen

    def _cell(self, slug: str, rnd: dict, interview: Interview | None) -> Cell:
        focus = next((str(c.get("focus") or "") for c in rnd.get("competencies", []) if c.get("slug") == slug), None)
        if focus is None:
            return Cell("none")
        if interview is None:
            return Cell("unscheduled", focus)
        if interview.status == InterviewStatus.CANCELLED:
            return Cell("cancelled", focus)
        over = self._over(interview)
        marks = []
        for seat in self.seats.get(interview.id, []):
            if seat.role != SeatRole.ASSESSOR:
                continue
            card = self.cards.get((interview.id, seat.interviewer_id))
            if card is not None:
                score = self.ratings[card.id].get(slug)
                marks.append(Mark(seat.name, "scored" if score else "unrated", score))
            else:
                marks.append(Mark(seat.name, "missing" if over else "pending"))
        scores = [m.score for m in marks if m.score]
        if scores:
            return Cell("scored", focus, tuple(marks), sum(scores) / len(scores))
        return Cell("awaiting" if over else "scheduled", focus, tuple(marks))

    def loop(self, loop: Loop, candidate: str, plan: list[dict]) -> LoopEvidence:
        rounds, chosen = self._pick(loop.id, plan)
        # Columns in the order the candidate meets the rounds (the scheduler may have reordered them); rounds
        # without an interview follow in plan order.
        never = len(rounds)
        rounds = [rnd for _, rnd in sorted(
            enumerate(rounds), key=lambda pair: (chosen[pair[1]["key"]].start, pair[0]) if pair[1]["key"] in chosen
            else (_LAST, never + pair[0]))]
        columns = tuple(RoundColumn(r["key"], r["name"], chosen[r["key"]].start if r["key"] in chosen else None,
                                    chosen[r["key"]].status.value if r["key"] in chosen else "unscheduled")
                        for r in rounds)
        slugs = [(r.slug, r.priority.value, r.required_coverage) for r in self.reqs]
        planned_slugs = [c.get("slug") for r in rounds for c in r.get("competencies", [])]
        slugs += [(s, "", 0) for s in dict.fromkeys(planned_slugs) if s not in {x[0] for x in slugs}]
        rows, gaps = [], []
        for slug, priority, required in slugs:
            cells = tuple(self._cell(slug, r, chosen.get(r["key"])) for r in rounds)
            row = _row(slug, self.names.get(slug, slug), priority, required, cells)
            rows.append(row)
            gaps += _gaps(row, rounds)
        upcoming = [i for i in chosen.values() if i.status != InterviewStatus.CANCELLED and not self._over(i)]
        if upcoming:
            gaps.append(Gap(f"{_n(len(upcoming), 'interview')} still to come; their evidence is not due yet.",
                            "pending"))
        training = tuple(
            TrainingCard(seat.name, i.round_name, tuple(
                (self.names.get(s, s), score) for s, score in self.ratings[self.cards[(i.id, seat.interviewer_id)].id]
                .items()))
            for i in self.by_loop.get(loop.id, []) for seat in self.seats.get(i.id, [])
            if seat.role == SeatRole.TRAINEE and (i.id, seat.interviewer_id) in self.cards)
        return LoopEvidence(loop.id, candidate, loop.status.value, columns, tuple(rows), tuple(gaps), training)


def _row(slug: str, name: str, priority: str, required: int, cells: tuple[Cell, ...]) -> CompetencyRow:
    scores = [m.score for c in cells for m in c.people if m.score]
    return CompetencyRow(
        slug=slug, name=name, priority=priority, required=required, cells=cells,
        planned=sum(c.state != "none" for c in cells),
        scheduled=sum(c.state in ("scheduled", "awaiting", "scored") for c in cells),
        scored=sum(c.state == "scored" for c in cells),
        average=sum(scores) / len(scores) if scores else None)


def _gaps(row: CompetencyRow, rounds: list[dict]) -> list[Gap]:
    """The debrief sentences about one competency of one loop."""
    name, out = row.name, []
    if row.planned == 0:
        if row.required:
            out.append(Gap(f"{name}: not assessed by any round of this loop, no evidence."))
        return out
    if row.required and row.planned < row.required:
        out.append(Gap(f"{name}: planned in {_n(row.planned, 'round')}, {row.required} required."))
    planned = [(cell, rnd) for cell, rnd in zip(row.cells, rounds, strict=True) if cell.state != "none"]
    unscheduled = [rnd["name"] for cell, rnd in planned if cell.state == "unscheduled"]
    cancelled = [rnd["name"] for cell, rnd in planned if cell.state == "cancelled"]
    lost = len(unscheduled) + len(cancelled)
    if lost and lost == row.planned:
        what = "interview cancelled" if cancelled and not unscheduled and len(cancelled) == 1 else (
            f"{_n(len(cancelled), 'interview')} cancelled" if cancelled and not unscheduled else
            f"{_names(unscheduled)} not scheduled" + (f", {_names(cancelled)} cancelled" if cancelled else ""))
        out.append(Gap(f"{name}: {what}, no evidence."))
    else:
        for rnd in unscheduled:
            out.append(Gap(f"{name}: the {rnd} round is not scheduled."))
        live = row.planned - lost
        for rnd in cancelled:
            if row.required and live < row.required:
                # Below the required coverage now: a gap for the debrief, not a remark.
                out.append(Gap(f"{name}: the {rnd} interview was cancelled; now {live} of {row.required} "
                               f"required rounds."))
            else:
                out.append(Gap(f"{name}: the {rnd} interview was cancelled; evidence comes from the other rounds "
                               "only.", "note"))
    missing = list(dict.fromkeys(m.name for cell, _ in planned for m in cell.people if m.state == "missing"))
    if missing:
        count = sum(m.state == "missing" for cell, _ in planned for m in cell.people)
        out.append(Gap(f"{name}: planned in {_n(row.planned, 'round')}, {_n(count, 'scorecard')} missing from "
                       f"{_names(missing)}."))
    unrated = list(dict.fromkeys(m.name for cell, _ in planned for m in cell.people if m.state == "unrated"))
    if unrated:
        out.append(Gap(f"{name}: {_names(unrated)} submitted without rating it."))
    scores = [m.score for cell, _ in planned for m in cell.people if m.score]
    if scores and max(scores) - min(scores) >= 2:
        out.append(Gap(f"{name}: ratings split from {min(scores)} to {max(scores)}; discuss at the debrief.", "note"))
    return out
