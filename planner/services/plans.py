"""Loop plans: rounds of a posting and their published versions."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from planner.models import Competency, PlanVersion, Round, RoundCompetency


def snapshot_rounds(session: Session, posting_id: int) -> list[dict]:
    """The posting's working plan as plain data, in round order (what a version freezes)."""
    rounds = session.scalars(
        select(Round).where(Round.posting_id == posting_id).order_by(Round.position, Round.id)
        .options(selectinload(Round.competencies))
    ).all()
    competency_ids = {rc.competency_id for r in rounds for rc in r.competencies}
    slugs = dict(session.execute(select(Competency.id, Competency.slug).where(Competency.id.in_(competency_ids))).all())
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
    return session.scalar(
        select(PlanVersion).where(PlanVersion.posting_id == posting_id).order_by(PlanVersion.number.desc()).limit(1)
    )


def publish_plan(session: Session, posting_id: int, *, actor_id: int | None, note: str = "") -> PlanVersion:
    """Freeze the working plan as the next version and commit. Loops scheduled later use it."""
    number = (session.scalar(select(func.max(PlanVersion.number)).where(PlanVersion.posting_id == posting_id)) or 0) + 1
    version = PlanVersion(posting_id=posting_id, number=number, snapshot=snapshot_rounds(session, posting_id),
                          note=note, published_by_id=actor_id)
    session.add(version)
    session.commit()
    return version


def add_round_competency(round_: Round, competency_id: int, focus) -> None:
    round_.competencies.append(RoundCompetency(competency_id=competency_id, focus=focus))
