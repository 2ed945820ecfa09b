"""Qualifications by training level: set, remove, and promote when training is complete."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.core.errors import NotFound, ValidationFailed
from planner.core.pool import (
    DEFAULT_POLICY,
    NotReadyForPromotion,
    TrainingPolicy,
    parse_level,
    promote,
    training_progress,
)
from planner.models import Qualification, TrainingLevel
from planner.queries.load import TrainingCounts, training_counts
from planner.queries.pool import get_interviewer
from planner.services.audit import record
from planner.services.competencies import get_competency


def set_qualification(
    session: Session,
    interviewer_id: int,
    competency_id: int,
    level: str,
    *,
    actor_id: int | None,
    now: datetime,
) -> Qualification:
    """Add a qualification or change its level (audited), and commit.

    :raise UnknownTrainingLevel: ``level`` is not shadow, reverse-shadow or qualified.
    """
    person = get_interviewer(session, interviewer_id)
    competency = get_competency(session, competency_id)
    new_level = TrainingLevel(parse_level(level).value)
    qualification = session.scalar(
        select(Qualification).where(
            Qualification.interviewer_id == person.id, Qualification.competency_id == competency.id
        )
    )
    if qualification is None:
        if competency.retired_at is not None:
            raise ValidationFailed(
                f"'{competency.name}' is retired from the library; pick a current competency."
            )
        qualification = Qualification(
            interviewer_id=person.id, competency_id=competency.id, level=new_level, since=now
        )
        session.add(qualification)
        record(
            session,
            actor_id=actor_id,
            action="qualification.add",
            entity="interviewer",
            entity_id=person.id,
            interviewer_id=person.id,
            details={"competency": competency.slug, "level": new_level.value},
        )
    elif qualification.level != new_level:
        old = qualification.level
        qualification.level, qualification.since = new_level, now
        record(
            session,
            actor_id=actor_id,
            action="qualification.change",
            entity="interviewer",
            entity_id=person.id,
            interviewer_id=person.id,
            details={"competency": competency.slug, "from": old.value, "to": new_level.value},
        )
    session.commit()
    return qualification


def remove_qualification(
    session: Session, interviewer_id: int, competency_id: int, *, actor_id: int | None
) -> None:
    """Remove a qualification (audited) and commit.

    :raise NotFound: the interviewer does not hold this competency.
    """
    person = get_interviewer(session, interviewer_id)
    qualification = session.scalar(
        select(Qualification).where(
            Qualification.interviewer_id == person.id, Qualification.competency_id == competency_id
        )
    )
    if qualification is None:
        raise NotFound(f"{person.name} holds no qualification in that competency.")
    competency = get_competency(session, competency_id)
    session.delete(qualification)
    record(
        session,
        actor_id=actor_id,
        action="qualification.remove",
        entity="interviewer",
        entity_id=person.id,
        interviewer_id=person.id,
        details={"competency": competency.slug, "level": qualification.level.value},
    )
    session.commit()


def promote_qualification(
    session: Session,
    interviewer_id: int,
    competency_id: int,
    *,
    actor_id: int | None,
    now: datetime,
    reason: str = "",
    policy: TrainingPolicy = DEFAULT_POLICY,
) -> Qualification:
    """Move a trainee one level up when core says they are ready, audit it, and commit.

    With a non-empty ``reason`` the coordinator overrides "not ready yet"; the reason is audited.

    :raise NotReadyForPromotion: not ready (and no reason given), or already qualified.
    """
    person = get_interviewer(session, interviewer_id)
    competency = get_competency(session, competency_id)
    qualification = session.scalar(
        select(Qualification).where(
            Qualification.interviewer_id == person.id, Qualification.competency_id == competency.id
        )
    )
    if qualification is None:
        raise NotFound(f"{person.name} holds no qualification in {competency.name}.")
    counts = training_counts(session, [person.id], now).get((person.id, competency.slug), TrainingCounts())
    progress = training_progress(qualification.level.value, counts.shadow, counts.reverse_shadow, policy)
    reason = " ".join((reason or "").split())
    try:
        new_level = promote(qualification.level.value, counts.shadow, counts.reverse_shadow, policy)
        forced = False
    except NotReadyForPromotion:
        if progress.next_level is None or not reason:
            raise
        new_level, forced = progress.next_level, True
    old = qualification.level
    qualification.level, qualification.since = TrainingLevel(new_level.value), now
    record(
        session,
        actor_id=actor_id,
        action="qualification.promote",
        entity="interviewer",
        entity_id=person.id,
        interviewer_id=person.id,
        reason=reason,
        details={
            "competency": competency.slug,
            "from": old.value,
            "to": new_level.value,
            "done": progress.done,
            "needed": progress.needed,
            "forced": forced,
        },
    )
    session.commit()
    return qualification
