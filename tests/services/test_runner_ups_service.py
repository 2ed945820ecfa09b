"""Runner-ups: a suggestion stores the extractor's next-closest competency and can switch to it, audited."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from planner.core.errors import Conflict, NotFound, ValidationFailed
from planner.db import utcnow
from planner.models import AuditEntry, Competency, Evidence, Posting, PostingCompetency, SelectionState
from planner.services import postings
from planner.services.competencies import retire_competency
from planner.services.library import seed_library
from planner.services.posting_text import PostingFields
from planner.services.runner_ups import SWITCHED_REASON, switch_to_runner_up

TEXT = (Path(__file__).parents[1] / "core/extraction/postings/paraphrased-inference-engineer.txt").read_text("utf-8")


@pytest.fixture
def posting(db) -> Posting:
    """The paraphrased posting, created through the service (suggestions stored)."""
    seed_library(db)
    db.commit()
    return postings.create_posting(db, PostingFields(title="Staff Engineer, Inference Chips", text=TEXT), actor_id=None)


def _selection(posting: Posting, slug: str) -> PostingCompetency:
    return next(pc for pc in posting.competencies if pc.competency.slug == slug)


def _counts(db) -> tuple[int, int, int]:
    return tuple(db.scalar(select(func.count()).select_from(m)) for m in (PostingCompetency, Evidence, AuditEntry))


def test_suggestions_store_their_runner_up(posting):
    """The specific suggestion is stored with the generic neighbour as its runner-up and the reason."""
    slugs = {pc.competency.slug for pc in posting.competencies}
    assert {"pre-silicon-feedback", "mentoring", "customer-ownership"} <= slugs and "ownership" not in slugs
    selection = _selection(posting, "customer-ownership")
    assert selection.runner_up.slug == "ownership"
    assert "same sentence" in selection.runner_up_reason


def test_switch_replaces_the_suggestion_and_keeps_its_evidence(db, posting):
    """Switching puts the runner-up in the suggestion's place with the same evidence, priority and coverage."""
    selection = _selection(posting, "customer-ownership")
    sentences = [e.sentence for e in selection.evidence]
    priority, coverage = selection.priority, selection.required_coverage
    switch_to_runner_up(db, posting.id, selection.id, actor_id=None)
    db.expire_all()
    switched = db.get(PostingCompetency, selection.id)
    assert switched.competency.slug == "ownership" and switched.state is SelectionState.SUGGESTED
    assert [e.sentence for e in switched.evidence] == sentences
    assert (switched.priority, switched.required_coverage) == (priority, coverage)
    assert switched.runner_up.slug == "customer-ownership" and switched.runner_up_reason == SWITCHED_REASON
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "posting.competency.switch"))
    assert (entry.entity, entry.entity_id) == ("posting", posting.id)
    assert entry.details["from"] == "customer-ownership" and entry.details["to"] == "ownership"


def test_switching_twice_comes_back(db, posting):
    """A second switch undoes the first: the runner-up of the switched suggestion is the original."""
    selection = _selection(posting, "customer-ownership")
    switch_to_runner_up(db, posting.id, selection.id, actor_id=None)
    switch_to_runner_up(db, posting.id, selection.id, actor_id=None)
    db.expire_all()
    assert db.get(PostingCompetency, selection.id).competency.slug == "customer-ownership"


def test_refreshing_suggestions_keeps_the_switch(db, posting):
    """Re-running extraction on the same text keeps the coordinator's switch instead of re-suggesting."""
    selection = _selection(posting, "customer-ownership")
    switch_to_runner_up(db, posting.id, selection.id, actor_id=None)
    postings.refresh_suggestions(db, posting.id, actor_id=None)
    db.expire_all()
    slugs = [pc.competency.slug for pc in db.get(Posting, posting.id).competencies]
    assert "ownership" in slugs and "customer-ownership" not in slugs
    assert db.get(PostingCompetency, selection.id).evidence


def test_accepted_competency_cannot_be_switched(db, posting):
    """Only a suggestion switches; an accepted one is refused with one sentence and nothing changes."""
    selection = _selection(posting, "customer-ownership")
    postings.decide_competency(
        db, posting.id, selection.id, decision="accept", priority="must-have", required_coverage=2, actor_id=None
    )
    before = _counts(db)
    with pytest.raises(ValidationFailed, match="only a suggestion can be switched"):
        switch_to_runner_up(db, posting.id, selection.id, actor_id=None)
    db.rollback()
    assert _counts(db) == before
    assert db.get(PostingCompetency, selection.id).competency.slug == "customer-ownership"


def test_runner_up_already_on_the_posting_is_a_conflict(db, posting):
    """When the coordinator already added the runner-up, the switch is refused and nothing changes."""
    ownership = db.scalar(select(Competency).where(Competency.slug == "ownership"))
    postings.add_competency(db, posting.id, ownership.id, priority="nice-to-have", required_coverage=1, actor_id=None)
    selection = _selection(posting, "customer-ownership")
    before = _counts(db)
    with pytest.raises(Conflict, match="already on this posting"):
        switch_to_runner_up(db, posting.id, selection.id, actor_id=None)
    db.rollback()
    assert _counts(db) == before


def test_retired_runner_up_is_refused(db, posting):
    """A runner-up retired from the library since is not switched to."""
    ownership = db.scalar(select(Competency).where(Competency.slug == "ownership"))
    retire_competency(db, ownership.id, now=utcnow(), actor_id=None)
    selection = _selection(posting, "customer-ownership")
    with pytest.raises(ValidationFailed, match="retired"):
        switch_to_runner_up(db, posting.id, selection.id, actor_id=None)


def test_suggestion_without_runner_up_and_unknown_selection(db, posting):
    """No runner-up, or a selection of another posting: one clear error each, nothing changes."""
    selection = _selection(posting, "mentoring")
    selection.runner_up_id = None
    db.commit()
    before = _counts(db)
    with pytest.raises(ValidationFailed, match="no runner-up"):
        switch_to_runner_up(db, posting.id, selection.id, actor_id=None)
    db.rollback()
    with pytest.raises(NotFound):
        switch_to_runner_up(db, posting.id + 1, selection.id, actor_id=None)
    assert _counts(db) == before
