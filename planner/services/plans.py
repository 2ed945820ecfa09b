"""Loop plans: the rounds of a posting (add, edit, reorder, remove, suggest) and their published versions.

Every public function that changes data validates first, changes, records an audit entry and commits
once; bad input raises ValidationFailed / NotFound / Conflict with one sentence and changes nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from planner.core.coverage import RoundPlan, suggest_plan, team_slug
from planner.core.errors import Conflict, NotFound, ValidationFailed
from planner.core.prose import plural
from planner.models import Competency, Focus, Loop, LoopStatus, PlanVersion, Round, RoundCompetency, RoundKind
from planner.queries.coverage import load_pool
from planner.services import coverage as coverage_service
from planner.services.audit import record

MAX_NAME = 120
MIN_MINUTES, MAX_MINUTES = 10, 480
MAX_INTERVIEWERS = 6
MAX_QUESTIONS, MAX_QUESTION_LENGTH = 20, 500
MAX_NOTE = 500
MAX_BUDGET = 24 * 60


@dataclass
class RoundInput:
    """What the editor sends for a round; the service checks it against the posting."""

    name: str
    kind: str
    minutes: int
    interviewers: int = 1
    #: competency id -> "primary" | "secondary"
    competencies: Mapping[int, str] = field(default_factory=dict)
    focus_questions: Sequence[str] = ()
    min_outside_team: int = 0
    max_trainees: int = 1


def snapshot_rounds(session: Session, posting_id: int) -> list[dict]:
    """The posting's working plan as plain data, in round order (what a version freezes)."""
    rounds = session.scalars(
        select(Round).where(Round.posting_id == posting_id).order_by(Round.position, Round.id)
        .options(selectinload(Round.competencies))
    ).all()
    competency_ids = {rc.competency_id for r in rounds for rc in r.competencies}
    slugs = dict(session.execute(
        select(Competency.id, Competency.slug).where(Competency.id.in_(competency_ids))).all())
    return [
        {
            "key": r.key, "name": r.name, "kind": r.kind.value, "minutes": r.minutes,
            "interviewers": r.interviewers, "focus_questions": list(r.focus_questions or []),
            "min_outside_team": r.min_outside_team, "max_trainees": r.max_trainees,
            "competencies": [
                {"slug": slugs[rc.competency_id], "focus": rc.focus.value}
                for rc in sorted(r.competencies, key=lambda rc: (rc.focus.value, slugs[rc.competency_id]))
            ],
        }
        for r in rounds
    ]


def latest_version(session: Session, posting_id: int) -> PlanVersion | None:
    """The posting's most recently published version, or None."""
    return session.scalar(
        select(PlanVersion).where(PlanVersion.posting_id == posting_id)
        .order_by(PlanVersion.number.desc()).limit(1)
    )


def publish_plan(session: Session, posting_id: int, *, actor_id: int | None, note: str = "") -> PlanVersion:
    """Freeze the working plan as the next version and commit. Loops scheduled later use it.

    Draft loops of the posting move to the new version: they were never scheduled, so they have no
    version of their own to keep (scheduled loops keep theirs).

    :raise NotFound: when the posting does not exist.
    :raise ValidationFailed: when the plan has no rounds, the note is too long, or nothing changed
        since the latest version.
    """
    coverage_service.get_posting(session, posting_id)
    note = (note or "").strip()
    if len(note) > MAX_NOTE:
        raise ValidationFailed(f"Keep the version note under {MAX_NOTE} characters.")
    snapshot = snapshot_rounds(session, posting_id)
    if not snapshot:
        raise ValidationFailed("The plan has no rounds yet; add rounds before publishing a version.")
    previous = latest_version(session, posting_id)
    if previous is not None and previous.snapshot == snapshot:
        raise ValidationFailed(f"Nothing changed since version {previous.number}; edit the plan first.")
    number = (previous.number if previous is not None else 0) + 1
    version = PlanVersion(posting_id=posting_id, number=number, snapshot=snapshot, note=note,
                          published_by_id=actor_id)
    session.add(version)
    session.flush()
    drafts = session.scalars(select(Loop).where(Loop.posting_id == posting_id,
                                                Loop.status == LoopStatus.DRAFT)).all()
    for loop in drafts:
        loop.plan_version_id = version.id
    record(session, actor_id=actor_id, action="plan_published", entity="posting", entity_id=posting_id,
           reason=note, details={"version": number, "rounds": len(snapshot), "draft_loops": len(drafts)})
    session.commit()
    return version


def add_round_competency(round_: Round, competency_id: int, focus) -> None:
    round_.competencies.append(RoundCompetency(competency_id=competency_id, focus=focus))


def _get_round(session: Session, posting_id: int, round_id: int) -> Round:
    round_ = session.get(Round, round_id)
    if round_ is None or round_.posting_id != posting_id:
        raise NotFound(f"Posting #{posting_id} has no round #{round_id}.")
    return round_


def _new_key(session: Session, posting_id: int) -> str:
    taken = set(session.scalars(select(Round.key).where(Round.posting_id == posting_id)))
    while True:
        key = secrets.token_hex(4)
        if key not in taken:
            return key


def _clean(session: Session, posting_id: int, data: RoundInput, *, round_id: int | None) -> dict:
    """Check a round's fields against the rules and the posting; return column values."""
    name = " ".join((data.name or "").split())
    if not name:
        raise ValidationFailed("Give the round a name.")
    if len(name) > MAX_NAME:
        raise ValidationFailed(f"Keep the round name under {MAX_NAME} characters.")
    clash = session.scalar(select(Round.id).where(
        Round.posting_id == posting_id, func.lower(Round.name) == name.lower(),
        Round.id != (round_id or 0)))
    if clash is not None:
        raise ValidationFailed(f"The plan already has a round named '{name}'; choose another name.")
    try:
        kind = RoundKind(data.kind)
    except ValueError:
        kinds = ", ".join(k.value for k in RoundKind)
        raise ValidationFailed(f"'{data.kind}' is not a round kind; use one of {kinds}.") from None
    if not MIN_MINUTES <= data.minutes <= MAX_MINUTES:
        raise ValidationFailed(f"A round lasts between {MIN_MINUTES} and {MAX_MINUTES} minutes.")
    if not 1 <= data.interviewers <= MAX_INTERVIEWERS:
        raise ValidationFailed(f"A round has between 1 and {MAX_INTERVIEWERS} interviewers.")
    if not 0 <= data.min_outside_team <= data.interviewers:
        raise ValidationFailed(
            "Interviewers from outside the hiring team cannot exceed the round's number of interviewers.")
    if data.max_trainees not in (0, 1):
        raise ValidationFailed("A round allows at most one trainee seat.")
    questions = [" ".join(q.split()) for q in data.focus_questions if q and q.strip()]
    if len(questions) > MAX_QUESTIONS:
        raise ValidationFailed(f"Keep the interview kit to {MAX_QUESTIONS} focus questions.")
    if any(len(q) > MAX_QUESTION_LENGTH for q in questions):
        raise ValidationFailed(f"Keep each focus question under {MAX_QUESTION_LENGTH} characters.")
    accepted = {c.id: c for _, c in coverage_service.accepted_competencies(session, posting_id)}
    competencies: dict[int, Focus] = {}
    for competency_id, focus in data.competencies.items():
        if competency_id not in accepted:
            raise ValidationFailed("A round can only assess competencies the posting has accepted; "
                                   "reload the page and try again.")
        try:
            competencies[competency_id] = Focus(focus)
        except ValueError:
            raise ValidationFailed(f"Focus '{focus}' is not primary or secondary.") from None
    return {"name": name, "kind": kind, "minutes": data.minutes, "interviewers": data.interviewers,
            "focus_questions": questions, "min_outside_team": data.min_outside_team,
            "max_trainees": data.max_trainees, "competencies": competencies}


def add_round(session: Session, posting_id: int, data: RoundInput, *, actor_id: int | None) -> Round:
    """Append a round to the posting's working plan and commit.

    :raise NotFound: when the posting does not exist.
    :raise ValidationFailed: when a field breaks a rule (the sentence says which).
    """
    coverage_service.get_posting(session, posting_id)
    values = _clean(session, posting_id, data, round_id=None)
    competencies = values.pop("competencies")
    position = session.scalar(select(func.max(Round.position)).where(Round.posting_id == posting_id))
    round_ = Round(posting_id=posting_id, key=_new_key(session, posting_id),
                   position=0 if position is None else position + 1, **values)
    for competency_id, focus in competencies.items():
        add_round_competency(round_, competency_id, focus)
    session.add(round_)
    session.flush()
    record(session, actor_id=actor_id, action="round_added", entity="round", entity_id=round_.id,
           details={"posting_id": posting_id, "name": round_.name})
    session.commit()
    return round_


def update_round(session: Session, posting_id: int, round_id: int, data: RoundInput, *,
                 actor_id: int | None) -> Round:
    """Replace a round's fields and competencies (its key and position stay) and commit.

    :raise NotFound: when the round is not part of the posting's plan.
    :raise ValidationFailed: when a field breaks a rule.
    """
    round_ = _get_round(session, posting_id, round_id)
    values = _clean(session, posting_id, data, round_id=round_id)
    competencies = values.pop("competencies")
    for column, value in values.items():
        setattr(round_, column, value)
    current = {rc.competency_id: rc for rc in round_.competencies}
    for competency_id, rc in current.items():
        if competency_id not in competencies:
            round_.competencies.remove(rc)
    for competency_id, focus in competencies.items():
        if competency_id in current:
            current[competency_id].focus = focus
        else:
            add_round_competency(round_, competency_id, focus)
    record(session, actor_id=actor_id, action="round_updated", entity="round", entity_id=round_.id,
           details={"posting_id": posting_id, "name": round_.name})
    session.commit()
    return round_


def remove_round(session: Session, posting_id: int, round_id: int, *, actor_id: int | None) -> str:
    """Delete a round from the working plan (published versions keep it) and commit; returns its name.

    :raise NotFound: when the round is not part of the posting's plan.
    """
    round_ = _get_round(session, posting_id, round_id)
    name = round_.name
    session.delete(round_)
    session.flush()
    _renumber(session, posting_id)
    record(session, actor_id=actor_id, action="round_removed", entity="round", entity_id=round_id,
           details={"posting_id": posting_id, "name": name})
    session.commit()
    return name


def _renumber(session: Session, posting_id: int) -> list[Round]:
    rounds = list(session.scalars(
        select(Round).where(Round.posting_id == posting_id).order_by(Round.position, Round.id)))
    for index, item in enumerate(rounds):
        item.position = index
    return rounds


def move_round(session: Session, posting_id: int, round_id: int, direction: str, *,
               actor_id: int | None) -> Round:
    """Move a round one place earlier ("up") or later ("down") in the loop and commit.

    :raise NotFound: when the round is not part of the posting's plan.
    :raise ValidationFailed: for another direction, or a move past either end of the loop.
    """
    if direction not in ("up", "down"):
        raise ValidationFailed("A round moves up or down.")
    round_ = _get_round(session, posting_id, round_id)
    rounds = _renumber(session, posting_id)
    index = rounds.index(round_)
    target = index - 1 if direction == "up" else index + 1
    if not 0 <= target < len(rounds):
        end = "first" if direction == "up" else "last"
        raise ValidationFailed(f"'{round_.name}' is already the {end} round.")
    other = rounds[target]
    round_.position, other.position = other.position, round_.position
    record(session, actor_id=actor_id, action="round_moved", entity="round", entity_id=round_.id,
           details={"posting_id": posting_id, "name": round_.name, "direction": direction})
    session.commit()
    return round_


def suggested_rounds(session: Session, posting_id: int, budget_minutes: int) -> list[RoundPlan]:
    """The core's suggestion for the posting's accepted competencies within the budget (no change).

    :raise ValidationFailed: when the posting has no accepted competencies or the budget is too small.
    """
    posting = coverage_service.get_posting(session, posting_id)
    if not isinstance(budget_minutes, int) or not 0 < budget_minutes <= MAX_BUDGET:
        raise ValidationFailed(f"The time budget is a number of minutes between 1 and {MAX_BUDGET}.")
    reqs = coverage_service.competency_reqs(session, posting_id)
    if not reqs:
        raise ValidationFailed(
            "The posting has no accepted competencies yet; accept some before suggesting a plan.")
    bench, pool = load_pool(session)
    # Per-person qualifications, not only counts: rounds are grouped so that someone can staff them.
    return suggest_plan(reqs, budget_minutes, bench=bench, pool=pool, hiring_team=team_slug(posting.team))


def apply_suggestion(session: Session, posting_id: int, budget_minutes: int, *, replace: bool,
                     actor_id: int | None) -> list[Round]:
    """Fill the working plan with suggested rounds covering every must-have within the budget; commit.

    :param replace: must be True when the plan already has rounds (they are removed); published
        versions are untouched.
    :raise ValidationFailed: as :func:`suggested_rounds`.
    :raise Conflict: when the plan has rounds and ``replace`` is False.
    """
    plans = suggested_rounds(session, posting_id, budget_minutes)
    existing = coverage_service.working_rounds(session, posting_id)
    if existing and not replace:
        raise Conflict(f"The plan already has {plural(len(existing), 'round')}; confirm to replace them.")
    for item in existing:
        session.delete(item)
    session.flush()
    ids = {c.slug: c.id for _, c in coverage_service.accepted_competencies(session, posting_id)}
    taken: set[str] = set()
    rounds = []
    for position, plan in enumerate(plans):
        key = secrets.token_hex(4)
        while key in taken:
            key = secrets.token_hex(4)
        taken.add(key)
        round_ = Round(posting_id=posting_id, key=key, position=position, name=plan.name[:MAX_NAME],
                       kind=RoundKind(plan.kind), minutes=plan.minutes, interviewers=plan.interviewers,
                       focus_questions=list(plan.focus_questions),
                       min_outside_team=plan.seat_rules.min_outside_team,
                       max_trainees=plan.seat_rules.max_trainees)
        for item in plan.competencies:
            add_round_competency(round_, ids[item.slug], Focus(item.focus))
        session.add(round_)
        rounds.append(round_)
    session.flush()
    record(session, actor_id=actor_id, action="plan_suggested", entity="posting", entity_id=posting_id,
           details={"budget_minutes": budget_minutes, "rounds": len(rounds), "replaced": len(existing)})
    session.commit()
    return rounds
