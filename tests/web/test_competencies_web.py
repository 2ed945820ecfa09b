"""Competency library pages: grouped list, add with duplicate-slug check, edit, retire and restore."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from planner.models import AuditEntry, Competency, User
from planner.services.library import seed_library

NEW = {
    "name": "Kernel tuning",
    "slug": "kernel-tuning",
    "category": "technical",
    "description": "Making kernels fast.",
    "rubric_strong": "Profiles first.",
    "rubric_weak": "Guesses.",
    "phrases": "kernel tuning\n~profiling",
}


@pytest.fixture
def coordinator(db, login):
    seed_library(db)
    db.commit()
    return login("coordinator")


def _by_slug(db, slug: str) -> Competency:
    return db.scalar(select(Competency).where(Competency.slug == slug))


def test_list_groups_by_category_with_usage(coordinator):
    """The library lists every category with its entries, a search box and the add button."""
    page = coordinator.get("/coordinator/competencies").get_data(as_text=True)
    for heading in ("Technical", "Behavioural", "Leadership"):
        assert f"<h2>{heading} " in page
    assert "Compiler design" in page and "0 postings" in page and "/coordinator/competencies/new" in page


def test_search_narrows_and_explains_no_match(coordinator):
    """Searching shows only matching entries, and says so when nothing matches."""
    page = coordinator.get("/coordinator/competencies?q=pre-silicon").get_data(as_text=True)
    assert "Pre-silicon feedback" in page and "Negotiation" not in page
    assert "No competency matches" in coordinator.get("/coordinator/competencies?q=zzzz").get_data(
        as_text=True
    )


def test_create_then_duplicate_slug_is_refused(coordinator, db):
    """Adding works once; the same slug again gets a clear message under the slug field and adds nothing."""
    response = coordinator.post("/coordinator/competencies/new", data=NEW)
    assert response.status_code == 302
    created = _by_slug(db, "kernel-tuning")
    assert created.phrases == ["kernel tuning", "~profiling"]
    actor = db.scalar(select(AuditEntry.actor_id).where(AuditEntry.action == "competency.create"))
    assert actor == db.scalar(select(User.id).where(User.email == "coordinator@example.com"))
    before = db.scalar(select(func.count(Competency.id)))
    again = coordinator.post("/coordinator/competencies/new", data={**NEW, "name": "Another"})
    assert again.status_code == 400
    assert (
        '<p class="error" role="alert">The slug &#39;kernel-tuning&#39; is already used by Kernel tuning'
        in again.get_data(as_text=True)
    )
    assert db.scalar(select(func.count(Competency.id))) == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"slug": "Kernel Tuning"}, "is not valid; use lowercase"),
        ({"phrases": ""}, "Add at least one phrase"),
        ({"phrases": "~tuning"}, "add at least one strong phrase"),
        ({"name": ""}, "Give the competency a name."),
    ],
)
def test_bad_input_changes_nothing(coordinator, db, data, message):
    """A malformed slug, no phrases, only supporting phrases or no name: 400 and one message."""
    before = db.scalar(select(func.count(Competency.id)))
    response = coordinator.post("/coordinator/competencies/new", data={**NEW, **data})
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert db.scalar(select(func.count(Competency.id))) == before


def test_edit_shows_phrases_and_saves(coordinator, db):
    """The edit form shows phrases one per line with the syntax explained, and saves changes."""
    competency = _by_slug(db, "mentoring")
    form = coordinator.get(f"/coordinator/competencies/{competency.id}/edit").get_data(as_text=True)
    assert "feedback ... hardware" in form and "supporting word" in form and "disabled" in form
    response = coordinator.post(
        f"/coordinator/competencies/{competency.id}/edit",
        data={**NEW, "name": "Mentoring and coaching", "slug": "ignored"},
    )
    assert response.status_code == 302
    db.expire_all()
    row = db.get(Competency, competency.id)
    assert (row.slug, row.name, row.phrases) == (
        "mentoring",
        "Mentoring and coaching",
        ["kernel tuning", "~profiling"],
    )


def test_retire_and_restore(coordinator, db):
    """Retiring moves an entry to the Retired section and out of posting options; restoring brings it back."""
    competency = _by_slug(db, "negotiation")
    response = coordinator.post(f"/coordinator/competencies/{competency.id}/retire", follow_redirects=True)
    page = response.get_data(as_text=True)
    assert "retired: postings that use it keep it" in page
    retired_section = page.split('id="retired"', 1)[1]
    assert competency.name in retired_section
    again = coordinator.post(f"/coordinator/competencies/{competency.id}/retire", follow_redirects=True)
    assert "already retired" in again.get_data(as_text=True)
    coordinator.post(f"/coordinator/competencies/{competency.id}/restore")
    db.expire_all()
    assert db.get(Competency, competency.id).retired_at is None


def test_missing_and_forbidden(coordinator, client, login):
    """Unknown competencies answer 404; managers cannot reach the library."""
    assert coordinator.get("/coordinator/competencies/99999/edit").status_code == 404
    assert coordinator.post("/coordinator/competencies/99999/retire").status_code == 404
    client.post("/logout")
    assert login("manager").get("/coordinator/competencies").status_code == 403
