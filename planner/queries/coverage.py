"""Read side of coverage: the manager's dashboards (every posting, one posting with its versions).

Every function issues a fixed number of SQL queries whatever the number of postings, rounds or
competencies (the inputs are read in bulk by ``planner.queries.coverage_inputs``), then the pure
coverage engine runs per posting. The plan editor's read side is ``planner.queries.plan_editor``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Row, func, select
from sqlalchemy.orm import Session

from planner.core.coverage import (
    BenchEntry,
    Change,
    CompetencyReq,
    Coverage,
    PoolMember,
    RoundPlan,
    compute_coverage,
    diff_plans,
    team_slug,
)
from planner.core.coverage.report import CRITICAL, OK, OVER, STATUS_ORDER, WARNING
from planner.core.errors import NotFound
from planner.models import Competency, Loop, PlanVersion, Posting, PostingStatus, User
from planner.queries.coverage_inputs import load_bench, load_pool, requirements, snapshot_plan, working_plans


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


def list_posting_coverage(session: Session, *, open_only: bool = False) -> list[PostingSummary]:
    """Every posting (or only the open ones) with the coverage status of its working plan; problems first (see
    :attr:`PostingSummary.rank`), then by title.

    Five queries whatever the data size.
    """
    # Columns, not Posting objects: the overview and the manager's list read every posting on each view.
    query = select(Posting.id, Posting.title, Posting.team, Posting.status, Posting.hiring_manager).order_by(
        Posting.title, Posting.id)
    if open_only:
        query = query.where(Posting.status == PostingStatus.OPEN)
    postings = session.execute(query).all()
    ids = [p.id for p in postings] if open_only else None
    reqs = requirements(session, ids)
    plans = working_plans(session, ids, questions=False)  # coverage does not read focus questions
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
    reqs = requirements(session, [posting_id]).get(posting_id, [])
    rounds = working_plans(session, [posting_id]).get(posting_id, [])
    published = session.execute(
        select(PlanVersion, User.name).outerjoin(User, User.id == PlanVersion.published_by_id)
        .where(PlanVersion.posting_id == posting_id).order_by(PlanVersion.number)
    ).all()
    plans = [snapshot_plan(version.snapshot) for version, _ in published]
    # Staffing only asks about the competencies these plans list, so only those qualifications are read
    # (not the whole pool's).
    slugs = {req.slug for req in reqs} | {item.slug for plan in (rounds, *plans) for rnd in plan
                                          for item in rnd.competencies}
    bench, pool = load_pool(session, slugs)
    hiring_team = team_slug(posting.team)
    coverage = compute_coverage(reqs, rounds, bench, pool=pool, hiring_team=hiring_team)
    versions, names = _versions(session, posting_id, list(zip(published, plans, strict=True)), reqs, bench, pool,
                                hiring_team)
    unpublished: tuple[Change, ...] = ()
    if versions:
        latest = session.get(PlanVersion, versions[0].id)
        unpublished = tuple(diff_plans(snapshot_plan(latest.snapshot), rounds, names=names))
    return PostingCoverage(
        id=posting.id, title=posting.title, team=posting.team, status=posting.status.value,
        hiring_manager=posting.hiring_manager, level=posting.level, location=posting.location,
        coverage=coverage, bench=bench, versions=versions, unpublished=unpublished, names=names)


def _versions(session: Session, posting_id: int, published: list[tuple[Row, list[RoundPlan]]],
              reqs: list[CompetencyReq], bench: dict[str, BenchEntry], pool: list[PoolMember],
              hiring_team: str) -> tuple[tuple[VersionView, ...], dict[str, str]]:
    """Published versions newest first (given oldest first with their plans), each with its changes from the
    previous one."""
    loops = dict(session.execute(
        select(Loop.plan_version_id, func.count(Loop.id)).where(Loop.posting_id == posting_id)
        .group_by(Loop.plan_version_id)).all())
    plans = [plan for _, plan in published]
    slugs = {item.slug for plan in plans for rnd in plan for item in rnd.competencies}
    names = {req.slug: req.name for req in reqs}
    missing = slugs - names.keys()
    if missing:
        names.update(session.execute(select(Competency.slug, Competency.name)
                                     .where(Competency.slug.in_(missing))).all())
    views = []
    previous: list[RoundPlan] = []
    for (version, author), plan in published:
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



__all__ = [
    "PostingCoverage", "PostingSummary", "VersionView", "get_posting_coverage", "list_posting_coverage",
    "load_bench", "load_pool", "snapshot_plan",
]
