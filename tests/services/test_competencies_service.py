"""Competency library services: add, edit, retire, restore; duplicate slugs and bad phrases change nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from planner.core.errors import Conflict, ValidationFailed
from planner.db import utcnow
from planner.models import AuditEntry, Competency
from planner.queries.competencies import list_library
from planner.services import competencies
from planner.services.competencies import CompetencyFields
from planner.services.library import active_definitions

FIELDS = CompetencyFields(
    name="Kernel tuning",
    category="technical",
    description="Making kernels fast.",
    rubric_strong="Profiles first.",
    rubric_weak="Guesses.",
    phrases="kernel tuning\n~profiling\nkernel ... performance\n\nkernel tuning\n",
)


def _count(db) -> int:
    return db.scalar(select(func.count(Competency.id)))


def test_create_parses_phrases_and_audits(db):
    """A new competency keeps one phrase per line (blank lines and repeats dropped) and is audited."""
    competency = competencies.create_competency(db, "kernel-tuning", FIELDS, actor_id=None)
    assert competency.phrases == ["kernel tuning", "~profiling", "kernel ... performance"]
    assert (
        db.scalar(select(AuditEntry.action).where(AuditEntry.entity == "competency")) == "competency.create"
    )
    assert "kernel-tuning" in {d.slug for d in active_definitions(db)}


def test_duplicate_slug_is_refused(db):
    """A second competency with the same slug gets a clear message naming the existing one."""
    competencies.create_competency(db, "kernel-tuning", FIELDS, actor_id=None)
    with pytest.raises(Conflict, match="'kernel-tuning' is already used by Kernel tuning"):
        competencies.create_competency(db, "kernel-tuning", FIELDS, actor_id=None)
    assert _count(db) == 1


@pytest.mark.parametrize(
    ("slug", "fields", "message"),
    [
        ("Kernel Tuning", FIELDS, "not valid"),
        ("", FIELDS, "Give the competency a slug"),
        (
            "ok-slug",
            CompetencyFields(name=" ", category="technical", phrases="x"),
            "Give the competency a name",
        ),
        ("ok-slug", CompetencyFields(name="X", category="magic", phrases="x"), "not a category"),
        ("ok-slug", CompetencyFields(name="X", category="technical", phrases=" \n "), "at least one phrase"),
        (
            "ok-slug",
            CompetencyFields(name="X", category="technical", phrases="~design\n~build"),
            "strong phrase",
        ),
        ("ok-slug", CompetencyFields(name="X", category="technical", phrases="feedback ..."), "empty part"),
    ],
)
def test_bad_input_changes_nothing(db, slug, fields, message):
    """Malformed slugs, names, categories or phrases raise one clear message and add nothing."""
    with pytest.raises(ValidationFailed, match=message):
        competencies.create_competency(db, slug, fields, actor_id=None)
    assert _count(db) == 0


def test_update_keeps_slug_and_validates_first(db):
    """Editing changes name and phrases; a bad edit leaves the stored entry untouched."""
    competency = competencies.create_competency(db, "kernel-tuning", FIELDS, actor_id=None)
    edited = CompetencyFields(name="Kernel performance tuning", category="technical", phrases="kernel tuning")
    competencies.update_competency(db, competency.id, edited, actor_id=None)
    with pytest.raises(ValidationFailed):
        competencies.update_competency(
            db, competency.id, CompetencyFields(name="", category="technical", phrases="x"), actor_id=None
        )
    db.expire_all()
    row = db.get(Competency, competency.id)
    assert (row.slug, row.name, row.phrases) == (
        "kernel-tuning",
        "Kernel performance tuning",
        ["kernel tuning"],
    )


def test_retire_and_restore(db):
    """Retiring hides a competency from extraction and lists it apart; restoring brings it back."""
    competency = competencies.create_competency(db, "kernel-tuning", FIELDS, actor_id=None)
    competencies.retire_competency(db, competency.id, now=utcnow(), actor_id=None)
    assert "kernel-tuning" not in {d.slug for d in active_definitions(db)}
    page = list_library(db)
    assert [e.competency.slug for e in page.retired] == ["kernel-tuning"] and not page.groups
    with pytest.raises(Conflict, match="already retired"):
        competencies.retire_competency(db, competency.id, now=utcnow(), actor_id=None)
    competencies.restore_competency(db, competency.id, actor_id=None)
    assert "kernel-tuning" in {d.slug for d in active_definitions(db)}
    actions = db.scalars(select(AuditEntry.action).order_by(AuditEntry.id)).all()
    assert actions == ["competency.create", "competency.retire", "competency.restore"]


def test_library_search_matches_phrases(db):
    """Searching the library matches names, slugs, descriptions and phrases."""
    competencies.create_competency(db, "kernel-tuning", FIELDS, actor_id=None)
    assert list_library(db, search="profiling").shown == 1
    assert list_library(db, search="nothing-like-this").shown == 0
