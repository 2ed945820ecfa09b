"""What coverage is computed from, read in bulk: postings' accepted competencies, working plans, the pool.

Rows are loaded per table in one query each and grouped in Python, so callers issue a fixed number of
queries whatever the number of postings, rounds or interviewers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence

from sqlalchemy import func, null, select
from sqlalchemy.orm import Session

from planner.core.coverage import (
    BenchEntry,
    CompetencyReq,
    PoolMember,
    RoundCompetency,
    RoundPlan,
    SeatRules,
    build_pool,
)
from planner.core.coverage.types import QUALIFIED
from planner.models import (
    Competency,
    Interviewer,
    PostingCompetency,
    Qualification,
    Round,
    SelectionState,
    TrainingLevel,
)
from planner.models.plans import RoundCompetency as RoundCompetencyRow


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


def requirements(session: Session, posting_ids: Sequence[int] | None) -> dict[int, list[CompetencyReq]]:
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
    # Postings share the library's competencies: each distinct requirement is built (and checked) once,
    # which is safe because requirements are frozen.
    built: dict[tuple, CompetencyReq] = {}
    for posting_id, priority, required, slug, name, category in session.execute(query):
        key = (slug, name, category, priority, required)
        req = built.get(key)
        if req is None:
            req = built[key] = CompetencyReq(slug=slug, name=name, category=category.value,
                                             priority=priority.value, required=required)
        found[posting_id].append(req)
    # Must-haves first, posting order within each priority (sorted() is stable).
    return {key: sorted(reqs, key=lambda req: not req.is_must_have) for key, reqs in found.items()}


def working_plans(session: Session, posting_ids: Sequence[int] | None, *,
                  questions: bool = True) -> dict[int, list[RoundPlan]]:
    """Each posting's working plan in loop order.

    :param questions: False leaves the rounds' focus questions out (they stay empty): coverage does not read
        them, and the lists of every posting's coverage need not decode them.
    """
    # Columns, not Round objects: the overview reads every open posting's plan on each view.
    asked = Round.focus_questions if questions else null().label("focus_questions")
    rounds_query = select(
        Round.id, Round.posting_id, Round.key, Round.name, Round.kind, Round.minutes, Round.interviewers,
        asked, Round.min_outside_team, Round.max_trainees,
    ).order_by(Round.posting_id, Round.position, Round.id)
    focus_query = (
        select(RoundCompetencyRow.round_id, Competency.slug, RoundCompetencyRow.focus)
        .join(Competency, Competency.id == RoundCompetencyRow.competency_id)
        .join(Round, Round.id == RoundCompetencyRow.round_id)
        .order_by(RoundCompetencyRow.focus, Competency.slug)
    )
    if posting_ids is not None:
        rounds_query = rounds_query.where(Round.posting_id.in_(posting_ids))
        focus_query = focus_query.where(Round.posting_id.in_(posting_ids))
    # Rounds repeat the same (competency, focus) pairs and seat rules: each distinct one is built once
    # (they are frozen, so sharing them is safe).
    items: dict[tuple[str, str], RoundCompetency] = {}
    focus: dict[int, list[RoundCompetency]] = defaultdict(list)
    for round_id, slug, level in session.execute(focus_query):
        item = items.get((slug, level))
        if item is None:
            item = items[(slug, level)] = RoundCompetency(slug, level.value)
        focus[round_id].append(item)
    rules: dict[tuple[int, int], SeatRules] = {}
    plans: dict[int, list[RoundPlan]] = defaultdict(list)
    for row in session.execute(rounds_query):
        seat_rules = rules.get((row.min_outside_team, row.max_trainees))
        if seat_rules is None:
            seat_rules = rules[(row.min_outside_team, row.max_trainees)] = SeatRules(
                min_outside_team=row.min_outside_team, max_trainees=row.max_trainees)
        plans[row.posting_id].append(RoundPlan(
            key=row.key, name=row.name, kind=row.kind.value, minutes=row.minutes,
            interviewers=row.interviewers, competencies=tuple(focus[row.id]),
            focus_questions=tuple(row.focus_questions or ()), seat_rules=seat_rules,
        ))
    return plans


def load_bench(session: Session) -> dict[str, BenchEntry]:
    """Bench depth per competency slug over active interviewers, counted in SQL (one query)."""
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for slug, level, count in session.execute(
        select(Competency.slug, Qualification.level, func.count())
        .join(Qualification, Qualification.competency_id == Competency.id)
        .join(Interviewer, Interviewer.id == Qualification.interviewer_id)
        .where(Interviewer.active.is_(True))
        .group_by(Competency.slug, Qualification.level)
    ):
        found[slug][0 if level == TrainingLevel.QUALIFIED else 1] += count
    return {slug: BenchEntry(slug, qualified, training) for slug, (qualified, training) in found.items()}


def load_pool(session: Session, slugs: Collection[str] | None = None
              ) -> tuple[dict[str, BenchEntry], list[PoolMember]]:
    """Bench depth per competency slug, and the active interviewers who can assess with what they are
    qualified in (two queries; trainee levels only count on the bench, so their rows are not read).

    :param slugs: when given, the pool only knows qualifications in these competencies (people holding
        none of them are left out), which answers every staffing question about rounds that list only
        these exactly as the whole pool does; the bench is counted for every competency either way.
    """
    query = (
        select(Interviewer.id, Interviewer.team, Competency.slug)
        .join(Qualification, Qualification.interviewer_id == Interviewer.id)
        .join(Competency, Competency.id == Qualification.competency_id)
        .where(Interviewer.active.is_(True), Qualification.level == TrainingLevel.QUALIFIED)
    )
    if slugs is not None:
        query = query.where(Competency.slug.in_(sorted(slugs)))
    rows = session.execute(query).all()
    return load_bench(session), build_pool((key, team, slug, QUALIFIED) for key, team, slug in rows)
