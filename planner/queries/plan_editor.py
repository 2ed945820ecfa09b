"""Read side of the coordinator's plan editor: the posting's coverage with editable rounds, and the
suggester's preview."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from planner.core.coverage import Coverage, RoundPlan, compute_coverage, suggest_plan, team_slug
from planner.core.errors import NotFound, ValidationFailed
from planner.models import Competency, Posting, PostingCompetency, Round, SelectionState
from planner.queries.coverage import PostingCoverage, get_posting_coverage
from planner.queries.coverage_inputs import load_pool, requirements


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
    reqs = requirements(session, [posting_id]).get(posting_id, [])
    if not reqs:
        raise ValidationFailed(
            "The posting has no accepted competencies yet; accept some before suggesting a plan.")
    bench, pool = load_pool(session)
    hiring_team = team_slug(posting.team)
    rounds = suggest_plan(reqs, budget_minutes, bench=bench, pool=pool, hiring_team=hiring_team)
    return Suggestion(budget=budget_minutes, rounds=tuple(rounds),
                      coverage=compute_coverage(reqs, rounds, bench, pool=pool, hiring_team=hiring_team),
                      names={req.slug: req.name for req in reqs})
