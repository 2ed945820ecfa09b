"""The posting page's "Also close: <runner-up> — Switch" on a suggestion, and the switch it posts."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from planner.models import AuditEntry, Posting, PostingCompetency, SelectionState
from planner.services import postings
from planner.services.library import seed_library
from planner.services.posting_text import PostingFields

TEXT = (Path(__file__).parents[1] / "core/extraction/postings/paraphrased-inference-engineer.txt").read_text("utf-8")


@pytest.fixture
def posting(db) -> Posting:
    """The paraphrased posting with its suggestions stored."""
    seed_library(db)
    db.commit()
    return postings.create_posting(db, PostingFields(title="Staff Engineer, Inference Chips", text=TEXT), actor_id=None)


@pytest.fixture
def coordinator(login):
    return login("coordinator")


def _selection(db, posting_id: int, slug: str) -> PostingCompetency:
    db.expire_all()
    return next(pc for pc in db.get(Posting, posting_id).competencies if pc.competency.slug == slug)


def _switch_url(posting_id: int, selection_id: int) -> str:
    return f"/coordinator/postings/{posting_id}/competencies/{selection_id}/switch"


def test_suggestion_card_offers_the_runner_up(coordinator, db, posting):
    """The paraphrased posting's page suggests the specific competency and offers the generic one to switch to."""
    selection = _selection(db, posting.id, "customer-ownership")
    page = coordinator.get(f"/coordinator/postings/{posting.id}").get_data(as_text=True)
    assert "Pre-silicon feedback" in page and "Mentoring" in page
    card = page[page.index(f'id="sel-{selection.id}"') :]
    card = card[: card.index("</article>")]
    assert "Also close:</span> Ownership and accountability" in card
    assert f'action="{_switch_url(posting.id, selection.id)}"' in card
    assert "Switch" in card


def test_switch_replaces_the_suggestion_keeping_evidence(coordinator, db, posting):
    """Posting the switch swaps in the runner-up with the same evidence, audits it by the user, and says so."""
    selection = _selection(db, posting.id, "customer-ownership")
    sentences = [e.sentence for e in selection.evidence]
    response = coordinator.post(_switch_url(posting.id, selection.id))
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/coordinator/postings/{posting.id}#sel-{selection.id}")
    switched = _selection(db, posting.id, "ownership")
    assert switched.id == selection.id and [e.sentence for e in switched.evidence] == sentences
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "posting.competency.switch"))
    assert entry.actor_id is not None and entry.details["to"] == "ownership"
    page = coordinator.get(response.headers["Location"]).get_data(as_text=True)
    assert "Switched to Ownership and accountability, with the same evidence" in page
    assert "Also close:</span> Customer ownership" in page


def test_switching_an_accepted_competency_is_refused_on_the_card(coordinator, db, posting):
    """A switch posted for a competency accepted meanwhile answers 400 in its card and changes nothing."""
    selection = _selection(db, posting.id, "customer-ownership")
    selection.state = SelectionState.ACCEPTED
    db.commit()
    audits = db.scalar(select(func.count(AuditEntry.id)))
    response = coordinator.post(_switch_url(posting.id, selection.id))
    assert response.status_code == 400
    assert "only a suggestion can be switched" in response.get_data(as_text=True)
    assert _selection(db, posting.id, "customer-ownership").state is SelectionState.ACCEPTED
    assert db.scalar(select(func.count(AuditEntry.id))) == audits


def test_switch_for_a_missing_posting_or_selection(coordinator, db, posting):
    """An unknown posting is a 404; an unknown selection on a real posting flashes one sentence."""
    assert coordinator.post(_switch_url(posting.id + 100, 1)).status_code == 404
    response = coordinator.post(_switch_url(posting.id, 999_999), follow_redirects=True)
    assert response.status_code == 200
    assert "not on this posting any more" in response.get_data(as_text=True)


def test_switch_is_for_coordinators_only(login, db, posting):
    """A manager cannot switch a suggestion."""
    manager = login("manager", email="manager@example.com")
    selection = _selection(db, posting.id, "customer-ownership")
    assert manager.post(_switch_url(posting.id, selection.id)).status_code in (302, 403)
    assert _selection(db, posting.id, "customer-ownership").id == selection.id


def test_switch_without_csrf_token_is_refused(app, coordinator, db, posting):
    """With CSRF on, a switch posted without its token is a 400 and the suggestion stays."""
    app.config["WTF_CSRF_ENABLED"] = True
    selection = _selection(db, posting.id, "customer-ownership")
    assert coordinator.post(_switch_url(posting.id, selection.id)).status_code == 400
    assert _selection(db, posting.id, "customer-ownership").id == selection.id
