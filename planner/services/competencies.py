"""The competency library as coordinators edit it: add, edit, retire and restore entries.

Retired competencies stay on the postings (and plans) that use them; they are only withheld from
new selections and from extraction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from planner.core.errors import Conflict, FieldError, NotFound
from planner.core.library import CATEGORIES, GAP_MARK, SUPPORTING_MARK
from planner.models import Competency, CompetencyCategory
from planner.services import audit

_SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_SLUG = 80
MAX_NAME = 120


class SlugTaken(Conflict):
    """Another competency already holds the slug (shown under the slug field)."""

    field = "slug"


@dataclass(frozen=True, slots=True)
class CompetencyFields:
    """What a coordinator types about a competency; `phrases` is one phrase per line."""

    name: str
    category: str
    description: str = ""
    rubric_strong: str = ""
    rubric_weak: str = ""
    phrases: str = ""


def parse_phrases(text: str) -> list[str]:
    """One phrase per line, whitespace collapsed, blank lines and repeats dropped.

    :raise ValidationFailed: a phrase has an empty side of ``...``, or every phrase is supporting (~).
    """
    phrases = list(
        dict.fromkeys(" ".join(line.split()) for line in (text or "").splitlines() if line.strip())
    )
    if not phrases:
        raise FieldError("phrases", "Add at least one phrase, so the extractor can recognise the competency.")
    for phrase in phrases:
        body = phrase.removeprefix(SUPPORTING_MARK).strip()
        if not all(re.search(r"\w", part) for part in body.split(GAP_MARK)):
            raise FieldError(
                      "phrases",
                      f"The phrase {phrase!r} has an empty part; write words on both sides of '...'.",
                  )
    if all(p.startswith(SUPPORTING_MARK) for p in phrases):
        raise FieldError(
                  "phrases",
                  "Every phrase starts with ~ (supporting); add at least one strong phrase without ~.",
              )
    return phrases


def _clean(fields: CompetencyFields) -> dict:
    name = " ".join((fields.name or "").split())
    if not name:
        raise FieldError("name", "Give the competency a name.")
    if len(name) > MAX_NAME:
        raise FieldError("name", f"The name is longer than {MAX_NAME} characters; shorten it.")
    if fields.category not in CATEGORIES:
        raise FieldError("category", f"{fields.category!r} is not a category; use {', '.join(CATEGORIES)}.")
    return {
        "name": name,
        "category": CompetencyCategory(fields.category),
        "description": (fields.description or "").strip(),
        "rubric_strong": (fields.rubric_strong or "").strip(),
        "rubric_weak": (fields.rubric_weak or "").strip(),
        "phrases": parse_phrases(fields.phrases),
    }


def check_slug(slug: str) -> str:
    """A slug as stored: lowercase words joined by hyphens.

    :raise ValidationFailed: empty, too long, or other characters.
    """
    slug = (slug or "").strip()
    if not slug:
        raise FieldError("slug", "Give the competency a slug, e.g. 'system-design'.")
    if len(slug) > MAX_SLUG or not _SLUG_RE.match(slug):
        raise FieldError(
                  "slug",
                  f"The slug {slug!r} is not valid; use lowercase letters and digits joined by hyphens.",
              )
    return slug


def _duplicate(session: Session, slug: str) -> SlugTaken | None:
    other = session.scalar(select(Competency).where(Competency.slug == slug))
    if other is None:
        return None
    state = " (retired)" if other.retired_at else ""
    return SlugTaken(f"The slug {slug!r} is already used by {other.name}{state}; choose another slug.")


def create_competency(
    session: Session, slug: str, fields: CompetencyFields, *, actor_id: int | None
) -> Competency:
    """Add a competency to the library; commit.

    :raise ValidationFailed: a field is missing or malformed.
    :raise Conflict: the slug is taken.
    """
    slug = check_slug(slug)
    values = _clean(fields)
    duplicate = _duplicate(session, slug)
    if duplicate is not None:
        raise duplicate
    competency = Competency(slug=slug, **values)
    session.add(competency)
    try:
        session.flush()
    except IntegrityError:
        # Another coordinator took the slug between our check and the insert.
        session.rollback()
        raise SlugTaken(f"The slug {slug!r} was just taken by someone else; choose another slug.") from None
    audit.record(
        session,
        actor_id=actor_id,
        action="competency.create",
        entity="competency",
        entity_id=competency.id,
        details={"slug": slug, "name": competency.name},
    )
    session.commit()
    return competency


def get_competency(session: Session, competency_id: int) -> Competency:
    """:raise NotFound: no such competency."""
    competency = session.get(Competency, competency_id)
    if competency is None:
        raise NotFound(f"There is no competency #{competency_id} in the library.")
    return competency


def update_competency(
    session: Session, competency_id: int, fields: CompetencyFields, *, actor_id: int | None
) -> Competency:
    """Save a competency's name, category, description, rubric and phrases (its slug never changes); commit.

    :raise NotFound: no such competency.
    :raise ValidationFailed: a field is missing or malformed.
    """
    values = _clean(fields)
    competency = get_competency(session, competency_id)
    changed = sorted(k for k, v in values.items() if getattr(competency, k) != v)
    for key, value in values.items():
        setattr(competency, key, value)
    audit.record(
        session,
        actor_id=actor_id,
        action="competency.update",
        entity="competency",
        entity_id=competency.id,
        details={"slug": competency.slug, "changed": changed},
    )
    session.commit()
    return competency


def retire_competency(
    session: Session, competency_id: int, *, now: datetime, actor_id: int | None
) -> Competency:
    """Withhold a competency from new selections and extraction; postings using it keep it; commit."""
    competency = get_competency(session, competency_id)
    if competency.retired_at is not None:
        raise Conflict(f"{competency.name} is already retired.")
    competency.retired_at = now
    audit.record(
        session,
        actor_id=actor_id,
        action="competency.retire",
        entity="competency",
        entity_id=competency.id,
        details={"slug": competency.slug},
    )
    session.commit()
    return competency


def restore_competency(session: Session, competency_id: int, *, actor_id: int | None) -> Competency:
    """Offer a retired competency again; commit."""
    competency = get_competency(session, competency_id)
    if competency.retired_at is None:
        raise Conflict(f"{competency.name} is not retired.")
    competency.retired_at = None
    audit.record(
        session,
        actor_id=actor_id,
        action="competency.restore",
        entity="competency",
        entity_id=competency.id,
        details={"slug": competency.slug},
    )
    session.commit()
    return competency
