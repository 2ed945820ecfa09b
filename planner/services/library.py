"""The competency library in the database: seeded from the packaged file, edited by coordinators."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from planner.core.library import CompetencyDef, default_library
from planner.models import Competency, CompetencyCategory
from planner.services.audit import record


def _apply(row: Competency, definition: CompetencyDef) -> None:
    row.name = definition.name
    row.category = CompetencyCategory(definition.category)
    row.description = definition.description
    row.rubric_strong = definition.rubric_strong
    row.rubric_weak = definition.rubric_weak
    row.phrases = list(definition.phrases)


def seed_library(session: Session, definitions: list[CompetencyDef] | None = None) -> int:
    """Add the library entries whose slugs are missing (existing rows keep coordinators' edits).

    :return: how many entries were added. Does not commit.
    """
    definitions = definitions if definitions is not None else default_library()
    existing = set(session.scalars(select(Competency.slug)))
    added = 0
    for definition in definitions:
        if definition.slug in existing:
            continue
        row = Competency(slug=definition.slug)
        _apply(row, definition)
        session.add(row)
        added += 1
    if added:
        record(session, actor_id=None, action="library.seed", entity="competency", entity_id=None,
               details={"added": added})
    session.flush()
    return added


def load_library_if_empty(session: Session) -> int:
    """Seed the library on a database that has no competency yet, and commit."""
    if session.scalar(select(func.count(Competency.id))):
        return 0
    added = seed_library(session)
    session.commit()
    return added


def active_definitions(session: Session) -> list[CompetencyDef]:
    """The library as the extractor needs it: every competency that is not retired."""
    rows = session.scalars(select(Competency).where(Competency.retired_at.is_(None)).order_by(Competency.slug))
    return [
        CompetencyDef(
            slug=row.slug, name=row.name, category=row.category.value, description=row.description,
            rubric_strong=row.rubric_strong, rubric_weak=row.rubric_weak, phrases=tuple(row.phrases or ()),
        )
        for row in rows
    ]
