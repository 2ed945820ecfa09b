"""Read side of coverage: the manager's dashboards and the coordinator's plan editor.

Every function issues a fixed number of SQL queries whatever the number of postings, rounds or
competencies: rows are loaded in bulk per table and grouped in Python, then the pure coverage engine
runs per posting.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from planner.core.coverage import (
    BenchEntry,
    Change,
    CompetencyReq,
    Coverage,
    PoolMember,
    RoundCompetency,
    RoundPlan,
    SeatRules,
    build_pool,
    compute_coverage,
    diff_plans,
    suggest_plan,
    team_slug,
)
from planner.core.coverage.report import CRITICAL, OK, OVER, STATUS_ORDER, WARNING
from planner.core.errors import NotFound, ValidationFailed
from planner.models import (
    Competency,
    Interviewer,
    Loop,
    PlanVersion,
    Posting,
    PostingCompetency,
    PostingStatus,
    Qualification,
    Round,
    SelectionState,
    TrainingLevel,
    User,
)
from planner.models.plans import RoundCompetency as RoundCompetencyRow


@dataclass(frozen=True)
class PostingSummary:
    """One row of the manager's list: a posting and how its working plan covers its competencies."""

    id: int
    title: str
    team: str
    status: str
    hiring_manager: str
    rounds: int
    total_minutes: int
    competencies: int
    must_haves: int
    must_haves_covered: int
    coverage_status: str
    critical: int
    warnings: int
    version: int | None
    #: Rounds of the working plan no panel of the active pool can staff.
    unstaffable: int = 0

    @property
    def must_have_short(self) -> bool:
        """Some must-have is not covered (too few rounds, or nobody qualified to assess it)."""
        return self.must_haves_covered < self.must_haves

    @property
    def must_haves_all_covered(self) -> bool:
        """The posting asks for must-haves and every one of them is covered (none asked: False)."""
        return self.must_haves > 0 and not self.must_have_short

    @property
    def rank(self) -> tuple[int, int]:
        """Problems first: a must-have short, then other blocking issues, then by plan status (empty last)."""
        blocking = 0 if self.must_have_short else 1 if self.critical else 2
        return blocking, (*STATUS_ORDER, "empty").index(self.coverage_status)


@dataclass(frozen=True)
class VersionView:
    """A published version, what changed since the one before, and how many loops use it."""

    id: int
    number: int
    note: str
    published_at: datetime
    published_by: str
    rounds: int
    total_minutes: int
    coverage_status: str
    loops: int
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class PostingCoverage:
    """Everything the manager's posting page (and the CLI) shows."""

    id: int
    title: str
    team: str
    status: str
    hiring_manager: str
    level: str
    location: str
    coverage: Coverage
    bench: dict[str, BenchEntry]
    versions: tuple[VersionView, ...]
    #: Changes in the working plan since the latest version (empty when none or nothing published).
    unpublished: tuple[Change, ...]
    names: dict[str, str]

    @property
    def latest_version(self) -> VersionView | None:
        return self.versions[0] if self.versions else None

    @property
    def max_bench(self) -> int:
        """The largest bench (qualified + in training) among the posting's competencies, for bar scales."""
        return max((item.bench_qualified or 0) + (item.bench_in_training or 0)
                   for item in self.coverage.competencies) if self.coverage.competencies else 0


def snapshot_plan(snapshot: Sequence[dict]) -> list[RoundPlan]:
    """A published version's snapshot as core round plans."""
    return [
        RoundPlan(
            key=item["key"], name=item["name"], kind=item["kind"], minutes=item["minutes"],
            interviewers=item.get("interviewers", 1),
            competencies=tuple(RoundCompetency(c["slug"], c["focus"]) for c in item.get("competencies", [])),
            focus_questions=tuple(item.get("focus_questions", [])),
            seat_rules=SeatRules(min_outside_team=item.get("min_outside_team", 0),
                                 max_trainees=item.get("max_trainees", 1)),
        )
        for item in snapshot
    ]


def _requirements(session: Session, posting_ids: Sequence[int] | None) -> dict[int, list[CompetencyReq]]:
    query = (
        select(PostingCompetency.posting_id, PostingCompetency.priority, PostingCompetency.required_coverage,
               Competency.slug, Competency.name, Competency.category)
        .join(Competency, Competency.id == PostingCompetency.competency_id)
        .where(PostingCompetency.state == SelectionState.ACCEPTED)
        .order_by(PostingCompetency.posting_id, PostingCompetency.id)
    )
    if posting_ids is not None:
        query = query.where(PostingCompetency.posting_id.in_(posting_ids))
    found: dict[int, list[CompetencyReq]] = defaultdict(list)
    for posting_id, priority, required, slug, name, category in session.execute(query):
        found[posting_id].append(CompetencyReq(slug=slug, name=name, category=category.value,
                                               priority=priority.value, required=required))
    # Must-haves first, posting order within each priority (sorted() is stable).
    return {key: sorted(reqs, key=lambda req: not req.is_must_have) for key, reqs in found.items()}


def _plans(session: Session, posting_ids: Sequence[int] | None) -> dict[int, list[RoundPlan]]:
    rounds_query = select(Round).order_by(Round.posting_id, Round.position, Round.id)
    focus_query = (
        select(RoundCompetencyRow.round_id, Competency.slug, RoundCompetencyRow.focus)
        .join(Competency, Competency.id == RoundCompetencyRow.competency_id)
        .join(Round, Round.id == RoundCompetencyRow.round_id)
        .order_by(RoundCompetencyRow.focus, Competency.slug)
    )
    if posting_ids is not None:
        rounds_query = rounds_query.where(Round.posting_id.in_(posting_ids))
        focus_query = focus_query.where(Round.posting_id.in_(posting_ids))
    focus: dict[int, list[RoundCompetency]] = defaultdict(list)
    for round_id, slug, level in session.execute(focus_query):
        focus[round_id].append(RoundCompetency(slug, level.value))
    plans: dict[int, list[RoundPlan]] = defaultdict(list)
    for row in session.scalars(rounds_query):
        plans[row.posting_id].append(RoundPlan(
            key=row.key, name=row.name, kind=row.kind.value, minutes=row.minutes,
            interviewers=row.interviewers, competencies=tuple(focus[row.id]),
            focus_questions=tuple(row.focus_questions or ()),
            seat_rules=SeatRules(min_outside_team=row.min_outside_team, max_trainees=row.max_trainees),
        ))
    return plans


def load_pool(session: Session) -> tuple[dict[str, BenchEntry], list[PoolMember]]:
    """Bench depth per competency slug and each active interviewer's qualifications (one query)."""
    rows = session.execute(
        select(Interviewer.id, Interviewer.team, Competency.slug, Qualification.level)
        .join(Qualification, Qualification.interviewer_id == Interviewer.id)
        .join(Competency, Competency.id == Qualification.competency_id)
        .where(Interviewer.active.is_(True))
        .order_by(Interviewer.id, Competency.slug)
    ).all()
    qualified: dict[str, int] = defaultdict(int)
    training: dict[str, int] = defaultdict(int)
    for _id, _team, slug, level in rows:
        (qualified if level == TrainingLevel.QUALIFIED else training)[slug] += 1
    bench = {slug: BenchEntry(slug, qualified.get(slug, 0), training.get(slug, 0))
             for slug in qualified.keys() | training.keys()}
    return bench, build_pool((key, team, slug, level.value) for key, team, slug, level in rows)


def load_bench(session: Session) -> dict[str, BenchEntry]:
    """Bench depth per competency slug over active interviewers (one query)."""
    return load_pool(session)[0]


def list_posting_coverage(session: Session, *, open_only: bool = False) -> list[PostingSummary]:
    """Every posting (or only the open ones) with the coverage status of its working plan; problems first (see
    :attr:`PostingSummary.rank`), then by title.

    Five queries whatever the data size.
    """
    query = select(Posting).order_by(Posting.title, Posting.id)
    if open_only:
        query = query.where(Posting.status == PostingStatus.OPEN)
    postings = session.scalars(query).all()
    ids = [p.id for p in postings] if open_only else None
    reqs = _requirements(session, ids)
    plans = _plans(session, ids)
    bench, pool = load_pool(session)
    versions = dict(session.execute(
        select(PlanVersion.posting_id, func.max(PlanVersion.number)).group_by(PlanVersion.posting_id)).all())
    rows = []
    for posting in postings:
        posting_reqs = reqs.get(posting.id, [])
        rounds = plans.get(posting.id, [])
        coverage = compute_coverage(posting_reqs, rounds, bench, pool=pool, hiring_team=team_slug(posting.team))
        must = [item for item in coverage.competencies if item.priority == "must-have"]
        rows.append(PostingSummary(
            id=posting.id, title=posting.title, team=posting.team, status=posting.status.value,
            hiring_manager=posting.hiring_manager, rounds=len(rounds), total_minutes=coverage.total_minutes,
            competencies=len(posting_reqs), must_haves=len(must),
            must_haves_covered=sum(1 for item in must if item.status in (OK, OVER)),
            coverage_status=_overall_status(coverage),
            critical=sum(1 for issue in coverage.issues if issue.severity == CRITICAL),
            warnings=sum(1 for issue in coverage.issues if issue.severity == WARNING),
            version=versions.get(posting.id),
            unstaffable=len(coverage.unstaffable_rounds),
        ))
    return sorted(rows, key=lambda row: row.rank)


def _overall_status(coverage: Coverage) -> str:
    """The plan's status, or "empty" when there is nothing to judge (no competencies accepted)."""
    if not coverage.competencies:
        return "empty"
    return coverage.status


def get_posting_coverage(session: Session, posting_id: int) -> PostingCoverage:
    """The posting's coverage (matrix, bars, gaps and risks) and its version history with diffs.

    Nine queries whatever the data size.

    :raise NotFound: when there is no such posting.
    """
    posting = session.get(Posting, posting_id)
    if posting is None:
        raise NotFound(f"There is no posting #{posting_id}.")
    reqs = _requirements(session, [posting_id]).get(posting_id, [])
    rounds = _plans(session, [posting_id]).get(posting_id, [])
    bench, pool = load_pool(session)
    hiring_team = team_slug(posting.team)
    coverage = compute_coverage(reqs, rounds, bench, pool=pool, hiring_team=hiring_team)
    versions, names = _versions(session, posting_id, reqs, bench, pool, hiring_team)
    unpublished: tuple[Change, ...] = ()
    if versions:
        latest = session.get(PlanVersion, versions[0].id)
        unpublished = tuple(diff_plans(snapshot_plan(latest.snapshot), rounds, names=names))
    return PostingCoverage(
        id=posting.id, title=posting.title, team=posting.team, status=posting.status.value,
        hiring_manager=posting.hiring_manager, level=posting.level, location=posting.location,
        coverage=coverage, bench=bench, versions=versions, unpublished=unpublished, names=names)


def _versions(session: Session, posting_id: int, reqs: list[CompetencyReq], bench: dict[str, BenchEntry],
              pool: list[PoolMember], hiring_team: str) -> tuple[tuple[VersionView, ...], dict[str, str]]:
    """Published versions newest first, each with its changes from the previous one."""
    rows = session.execute(
        select(PlanVersion, User.name).outerjoin(User, User.id == PlanVersion.published_by_id)
        .where(PlanVersion.posting_id == posting_id).order_by(PlanVersion.number)
    ).all()
    loops = dict(session.execute(
        select(Loop.plan_version_id, func.count(Loop.id)).where(Loop.posting_id == posting_id)
        .group_by(Loop.plan_version_id)).all())
    plans = [snapshot_plan(version.snapshot) for version, _ in rows]
    slugs = {item.slug for plan in plans for rnd in plan for item in rnd.competencies}
    names = {req.slug: req.name for req in reqs}
    missing = slugs - names.keys()
    if missing:
        names.update(session.execute(select(Competency.slug, Competency.name)
                                     .where(Competency.slug.in_(missing))).all())
    views = []
    previous: list[RoundPlan] = []
    for (version, author), plan in zip(rows, plans, strict=True):
        coverage = compute_coverage(reqs, plan, bench, pool=pool, hiring_team=hiring_team)
        views.append(VersionView(
            id=version.id, number=version.number, note=version.note, published_at=version.published_at,
            published_by=author or "",
            rounds=len(plan), total_minutes=coverage.total_minutes,
            coverage_status=_overall_status(coverage), loops=loops.get(version.id, 0),
            changes=tuple(diff_plans(previous, plan, names=names)) if version.number > 1 else (),
        ))
        previous = plan
    return tuple(reversed(views)), names


@dataclass(frozen=True)
class EditorRound:
    """A round of the working plan as the editor shows it."""

    id: int
    key: str
    name: str
    kind: str
    minutes: int
    interviewers: int
    min_outside_team: int
    max_trainees: int
    focus_questions: tuple[str, ...]
    #: (competency id, name, focus) in focus then name order
    competencies: tuple[tuple[int, str, str], ...]
    warnings: tuple[str, ...]
    #: Whether some panel of the active pool can hold the round's competencies, and how many people
    #: could sit in one (None for a round with no competency).
    staffable: bool | None = None
    panelists: int | None = None


@dataclass(frozen=True)
class EditorCompetency:
    id: int
    slug: str
    name: str
    priority: str
    required: int


@dataclass(frozen=True)
class PlanEditor:
    """The coordinator's plan editor: rounds with ids, the posting's competencies, live coverage."""

    posting: PostingCoverage
    rounds: tuple[EditorRound, ...]
    competencies: tuple[EditorCompetency, ...]


def get_plan_editor(session: Session, posting_id: int) -> PlanEditor:
    """The plan editor's data: the dashboard view of the posting plus editable rounds (bounded queries).

    :raise NotFound: when there is no such posting.
    """
    view = get_posting_coverage(session, posting_id)
    selections = session.execute(
        select(PostingCompetency, Competency)
        .join(Competency, Competency.id == PostingCompetency.competency_id)
        .where(PostingCompetency.posting_id == posting_id, PostingCompetency.state == SelectionState.ACCEPTED)
        .order_by(PostingCompetency.id)).all()
    competencies = sorted(
        (EditorCompetency(c.id, c.slug, c.name, pc.priority.value, pc.required_coverage)
         for pc, c in selections),
        key=lambda item: item.priority != "must-have")
    names = {c.id: c.name for c in competencies}
    rows = session.scalars(
        select(Round).where(Round.posting_id == posting_id).order_by(Round.position, Round.id)
        .options(selectinload(Round.competencies))).all()
    checks = {item.key: item for item in view.coverage.rounds}
    rounds = tuple(
        EditorRound(
            id=row.id, key=row.key, name=row.name, kind=row.kind.value, minutes=row.minutes,
            interviewers=row.interviewers, min_outside_team=row.min_outside_team,
            max_trainees=row.max_trainees, focus_questions=tuple(row.focus_questions or ()),
            competencies=tuple(sorted(
                ((rc.competency_id, names.get(rc.competency_id, "(not accepted)"), rc.focus.value)
                 for rc in row.competencies), key=lambda item: (item[2], item[1]))),
            warnings=checks[row.key].warnings if row.key in checks else (),
            staffable=checks[row.key].staffable if row.key in checks else None,
            panelists=checks[row.key].panelists if row.key in checks else None,
        )
        for row in rows
    )
    return PlanEditor(posting=view, rounds=rounds, competencies=tuple(competencies))


@dataclass(frozen=True)
class Suggestion:
    """A proposed plan (not saved) and how it would cover the posting."""

    budget: int
    rounds: tuple[RoundPlan, ...]
    coverage: Coverage
    names: dict[str, str]


def get_suggestion(session: Session, posting_id: int, budget_minutes: int) -> Suggestion:
    """Preview the plan the suggester proposes for the posting within the budget; nothing is saved.

    :raise NotFound: when there is no such posting.
    :raise ValidationFailed: when there is nothing to plan or the budget cannot hold the must-haves.
    """
    posting = session.get(Posting, posting_id)
    if posting is None:
        raise NotFound(f"There is no posting #{posting_id}.")
    reqs = _requirements(session, [posting_id]).get(posting_id, [])
    if not reqs:
        raise ValidationFailed(
            "The posting has no accepted competencies yet; accept some before suggesting a plan.")
    bench, pool = load_pool(session)
    hiring_team = team_slug(posting.team)
    rounds = suggest_plan(reqs, budget_minutes, bench=bench, pool=pool, hiring_team=hiring_team)
    return Suggestion(budget=budget_minutes, rounds=tuple(rounds),
                      coverage=compute_coverage(reqs, rounds, bench, pool=pool, hiring_team=hiring_team),
                      names={req.slug: req.name for req in reqs})


__all__ = [
    "EditorCompetency", "EditorRound", "PlanEditor", "PostingCoverage", "PostingSummary", "Suggestion",
    "VersionView", "get_plan_editor", "get_posting_coverage", "get_suggestion", "list_posting_coverage",
    "load_bench", "snapshot_plan",
]
