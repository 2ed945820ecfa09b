"""Coverage of one posting's plan, built from the database, and the scheduling constraint.

Builds the inputs of :mod:`planner.core.coverage` (the posting's accepted competencies, the rounds of
the working plan or of a published version, the bench of active interviewers) and lets the core decide.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from planner.core.coverage import (
    BenchEntry,
    CompetencyReq,
    Coverage,
    RoundCompetency,
    RoundPlan,
    SeatRules,
    check_schedulable,
    compute_coverage,
    team_slug,
)
from planner.core.errors import NotFound, ValidationFailed
from planner.models import (
    Competency,
    Loop,
    PlanVersion,
    Posting,
    PostingCompetency,
    Round,
    SelectionState,
)
from planner.queries.coverage import load_bench, load_pool, snapshot_plan
from planner.services.audit import record

#: Audit action written when a coordinator schedules despite an uncovered must-have.
OVERRIDE_ACTION = "coverage_override"


def get_posting(session: Session, posting_id: int) -> Posting:
    """The posting, or NotFound with a sentence naming the id."""
    posting = session.get(Posting, posting_id)
    if posting is None:
        raise NotFound(f"There is no posting #{posting_id}.")
    return posting


def accepted_competencies(session: Session, posting_id: int) -> list[tuple[PostingCompetency, Competency]]:
    """The posting's accepted selections with their library entries: must-haves first, then posting order."""
    rows = session.execute(
        select(PostingCompetency, Competency)
        .join(Competency, Competency.id == PostingCompetency.competency_id)
        .where(PostingCompetency.posting_id == posting_id, PostingCompetency.state == SelectionState.ACCEPTED)
        .order_by(PostingCompetency.id)
    ).all()
    return sorted(((pc, c) for pc, c in rows), key=lambda pair: pair[0].priority.value != "must-have")


def competency_reqs(session: Session, posting_id: int) -> list[CompetencyReq]:
    """The posting's accepted competencies as core requirements (rows of the matrix, in order)."""
    return [
        CompetencyReq(slug=c.slug, name=c.name, category=c.category.value, priority=pc.priority.value,
                      required=pc.required_coverage)
        for pc, c in accepted_competencies(session, posting_id)
    ]


def working_rounds(session: Session, posting_id: int) -> list[Round]:
    """The rounds of the posting's working plan, in loop order, with their competencies loaded."""
    return list(session.scalars(
        select(Round).where(Round.posting_id == posting_id).order_by(Round.position, Round.id)
        .options(selectinload(Round.competencies))
    ))


def working_plan(session: Session, posting_id: int) -> list[RoundPlan]:
    """The working plan as core round plans."""
    rounds = working_rounds(session, posting_id)
    ids = {rc.competency_id for r in rounds for rc in r.competencies}
    slugs = dict(session.execute(select(Competency.id, Competency.slug).where(Competency.id.in_(ids))).all())
    return [
        RoundPlan(
            key=r.key, name=r.name, kind=r.kind.value, minutes=r.minutes, interviewers=r.interviewers,
            competencies=tuple(RoundCompetency(slugs[rc.competency_id], rc.focus.value)
                               for rc in sorted(r.competencies, key=lambda rc: rc.focus.value)),
            focus_questions=tuple(r.focus_questions or ()),
            seat_rules=SeatRules(min_outside_team=r.min_outside_team, max_trainees=r.max_trainees),
        )
        for r in rounds
    ]


def bench(session: Session, slugs: Sequence[str] | None = None) -> dict[str, BenchEntry]:
    """Bench depth per competency slug: active interviewers qualified, and in training (one query)."""
    found = load_bench(session)
    if slugs is None:
        return found
    wanted = set(slugs)
    return {slug: entry for slug, entry in found.items() if slug in wanted}


def posting_coverage(session: Session, posting_id: int, *, version_id: int | None = None) -> Coverage:
    """Coverage of the posting's working plan (or of one of its published versions), with bench depth
    and, per round, whether the active pool can staff it (the posting's team is the hiring team).

    :raise NotFound: when the posting or the version does not exist.
    """
    posting = get_posting(session, posting_id)
    reqs = competency_reqs(session, posting_id)
    if version_id is None:
        rounds = working_plan(session, posting_id)
    else:
        version = session.get(PlanVersion, version_id)
        if version is None or version.posting_id != posting_id:
            raise NotFound(f"Posting #{posting_id} has no plan version #{version_id}.")
        rounds = snapshot_plan(version.snapshot)
    found, pool = load_pool(session)
    wanted = {req.slug for req in reqs}
    return compute_coverage(reqs, rounds, {slug: entry for slug, entry in found.items() if slug in wanted},
                            pool=pool, hiring_team=team_slug(posting.team))


def _latest_version_id(session: Session, posting_id: int) -> int | None:
    return session.scalar(select(PlanVersion.id).where(PlanVersion.posting_id == posting_id)
                          .order_by(PlanVersion.number.desc()).limit(1))


def require_coverage_or_override(
    session: Session,
    loop_or_posting: Loop | Posting,
    *,
    reason: str | None = None,
    actor_id: int | None = None,
    plan_version_id: int | None = None,
) -> list[str]:
    """Allow scheduling only on a plan covering every must-have, or with a written, audited reason.

    The plan checked is ``plan_version_id`` if given, else the loop's own plan version, else the
    posting's latest published version, else its working plan. When the check is waived, an audit
    entry (action ``coverage_override``) records the reason and the waived competencies, and a loop
    keeps the reason in ``Loop.coverage_override``. Does not commit: the caller's scheduling service
    commits once, so the audit entry lands together with the scheduling it allowed.

    :return: slugs of the must-haves the override waives (empty when the plan covers them all).
    :raise UncoveredMustHave: when a must-have is uncovered and ``reason`` is blank or missing.
    :raise NotFound: when the posting or version does not exist.
    """
    loop = loop_or_posting if isinstance(loop_or_posting, Loop) else None
    posting_id = loop.posting_id if loop is not None else loop_or_posting.id
    version_id = plan_version_id or (loop.plan_version_id if loop is not None else None)
    version_id = version_id or _latest_version_id(session, posting_id)
    coverage = posting_coverage(session, posting_id, version_id=version_id)
    waived = check_schedulable(coverage, reason)
    if waived:
        text = (reason or "").strip()
        if len(text) > 2000:
            raise ValidationFailed("Keep the override reason under 2,000 characters.")
        if loop is not None:
            loop.coverage_override = text
        record(session, actor_id=actor_id, action=OVERRIDE_ACTION,
               entity="loop" if loop is not None else "posting",
               entity_id=loop.id if loop is not None else posting_id, reason=text,
               details={"posting_id": posting_id, "plan_version_id": version_id, "uncovered": waived},
               loop_id=loop.id if loop is not None else None)
    return waived
