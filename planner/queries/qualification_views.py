"""An interviewer's qualifications as the pool pages show them: level, since when, training progress."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from planner.core.pool import DEFAULT_POLICY, Progress, training_progress
from planner.models import Competency, Qualification, TrainingLevel
from planner.queries.load import training_counts

LEVELS = tuple(level.value for level in TrainingLevel)


@dataclass(frozen=True)
class QualificationView:
    competency_id: int
    slug: str
    name: str
    level: str
    since: datetime
    progress: Progress


def trainee_counts(session: Session, ids: list[int] | None, now: datetime) -> dict[tuple[int, str], tuple[int, int]]:
    """Completed (shadow, reverse-shadow) interviews per (interviewer id, competency slug); one query
    (``ids`` None: every active interviewer's)."""
    return {key: (c.shadow, c.reverse_shadow) for key, c in training_counts(session, ids, now).items()}


def qualification_views(
    person_id: int,
    qualifications: Iterable[Qualification],
    competencies: dict[int, Competency],
    counts: dict[tuple[int, str], tuple[int, int]],
) -> tuple[QualificationView, ...]:
    """One person's qualifications with their training progress, highest level first, then by name."""
    order = {level: index for index, level in enumerate(reversed(LEVELS))}
    views = []
    for q in qualifications:
        competency = competencies[q.competency_id]
        shadow, reverse = counts.get((person_id, competency.slug), (0, 0))
        progress = training_progress(q.level.value, shadow, reverse, DEFAULT_POLICY)
        views.append(
            QualificationView(
                competency.id, competency.slug, competency.name, q.level.value, q.since, progress
            )
        )
    return tuple(sorted(views, key=lambda v: (order[v.level], v.name.lower())))
