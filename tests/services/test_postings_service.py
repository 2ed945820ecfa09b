"""Posting services: create/edit with extraction, decisions on suggestions, bad input changes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from planner.core.errors import Conflict, NotFound, ValidationFailed
from planner.db import utcnow
from planner.models import AuditEntry, Competency, Evidence, Posting, PostingCompetency, Priority, SelectionState
from planner.services import postings
from planner.services.competencies import CompetencyFields, create_competency
from planner.services.library import seed_library
from planner.services.posting_text import PostingFields

TEXT = """Staff Engineer, Compilers

- Design and build compiler optimization passes and code generation for our accelerator.
- Mentor junior engineers and review their designs.
- Give the hardware team feedback on the next chip before it is built (pre-silicon design).
"""


@pytest.fixture
def library(db):
    seed_library(db)
    db.commit()
    return {c.slug: c for c in db.scalars(select(Competency))}


def _create(db, text=TEXT, **kwargs) -> Posting:
    fields = PostingFields(title=kwargs.pop("title", "Staff Engineer, Compilers"), text=text, **kwargs)
    return postings.create_posting(db, fields, actor_id=None)


def _selection(posting: Posting, slug: str) -> PostingCompetency:
    return next(pc for pc in posting.competencies if pc.competency.slug == slug)


def _count(db, model) -> int:
    return db.scalar(select(func.count()).select_from(model))


def test_create_stores_suggestions_with_evidence(db, library):
    """Creating a posting stores suggested competencies with their sentences and phrase spans, audited."""
    posting = _create(db, team="Compilers", status="open")
    slugs = {pc.competency.slug for pc in posting.competencies}
    assert {"compiler-design", "mentoring"} <= slugs
    compiler = _selection(posting, "compiler-design")
    assert compiler.state is SelectionState.SUGGESTED and compiler.score > 0
    evidence = compiler.evidence[0]
    assert posting.text[evidence.start : evidence.end] == evidence.sentence
    start, end = evidence.spans[0]
    assert evidence.sentence[start:end].strip()
    assert db.scalar(select(AuditEntry.action).where(AuditEntry.entity_id == posting.id)) == "posting.create"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"text": "   \n  "}, "The posting text is empty"),
        ({"title": "  "}, "Give the posting a title"),
        ({"status": "published"}, "not a posting status"),
    ],
)
def test_bad_posting_input_changes_nothing(db, library, kwargs, message):
    """Empty text, no title or an unknown status raise one clear message and store nothing."""
    with pytest.raises(ValidationFailed, match=message):
        _create(db, **kwargs)
    assert _count(db, Posting) == 0 and _count(db, PostingCompetency) == 0


def test_upload_must_be_utf8_text(db):
    """A non-UTF-8, binary, empty or wrongly named upload is refused with a sentence naming the file."""
    assert postings.text_from_upload("job.md", "\ufeffRôle: engineer".encode()) == "Rôle: engineer"
    with pytest.raises(ValidationFailed, match="job.txt is not UTF-8 text"):
        postings.text_from_upload("job.txt", "Ingénieur".encode("latin-1"))
    with pytest.raises(ValidationFailed, match="binary"):
        postings.text_from_upload("job.txt", b"abc\x00def")
    with pytest.raises(ValidationFailed, match="empty"):
        postings.text_from_upload("job.txt", b"  \n")
    with pytest.raises(ValidationFailed, match="not a .txt or .md file"):
        postings.text_from_upload("job.pdf", b"%PDF-1.4")


def test_editing_text_keeps_decisions(db, library):
    """Re-extraction after a text edit keeps accepted/rejected choices and drops unsupported suggestions."""
    posting = _create(db)
    compiler, mentoring = _selection(posting, "compiler-design"), _selection(posting, "mentoring")
    postings.decide_competency(
        db,
        posting.id,
        compiler.id,
        decision="accept",
        priority="must-have",
        required_coverage=3,
        actor_id=None,
    )
    postings.decide_competency(
        db,
        posting.id,
        mentoring.id,
        decision="reject",
        priority="nice-to-have",
        required_coverage=1,
        actor_id=None,
    )
    new_text = "Staff Engineer\n\n- Design and build compiler optimization passes for our accelerator.\n"
    postings.update_posting(
        db, posting.id, PostingFields(title="Staff Engineer", text=new_text), actor_id=None
    )
    db.expire_all()
    posting = db.get(Posting, posting.id)
    states = {pc.competency.slug: pc.state for pc in posting.competencies}
    assert states["compiler-design"] is SelectionState.ACCEPTED
    assert states["mentoring"] is SelectionState.REJECTED
    assert "pre-silicon-feedback" not in states
    assert _selection(posting, "compiler-design").required_coverage == 3
    assert _selection(posting, "mentoring").evidence == []


REQUIRED_TEXT = """Staff Engineer, Compilers

Key job responsibilities
- Design and build compiler optimization passes and code generation for our accelerator.

Requirements
- Experience mentoring engineers and reviewing their designs.
- You must have given the hardware team feedback on a chip before it was built (pre-silicon design).
- Experience with incident response and on-call.

Nice to have
- Familiarity with SQL databases.
"""


def test_new_suggestions_take_the_suggested_priority_and_its_coverage(db, library):
    """Requirements and 'must' items are suggested must-have with 2 rounds; others nice-to-have with 1."""
    posting = _create(db, text=REQUIRED_TEXT)
    chosen = {pc.competency.slug: (pc.priority, pc.required_coverage) for pc in posting.competencies}
    assert chosen["mentoring"] == (Priority.MUST_HAVE, 2)
    assert chosen["pre-silicon-feedback"] == (Priority.MUST_HAVE, 2)
    assert chosen["compiler-design"] == (Priority.NICE_TO_HAVE, 1)
    assert chosen["incident-management"] == (Priority.MUST_HAVE, 2)
    assert chosen["data-analysis"] == (Priority.NICE_TO_HAVE, 1)


def test_re_extraction_keeps_priorities_already_chosen(db, library):
    """Accepted, rejected and re-weighed suggestions keep their priority and coverage when the text is re-read."""
    posting = _create(db)  # no headings or cues: everything is suggested nice-to-have
    compiler, mentoring = _selection(posting, "compiler-design"), _selection(posting, "mentoring")
    silicon = _selection(posting, "pre-silicon-feedback")
    assert {pc.priority for pc in posting.competencies} == {Priority.NICE_TO_HAVE}
    postings.decide_competency(
        db, posting.id, compiler.id, decision="accept", priority="nice-to-have", required_coverage=1, actor_id=None
    )
    postings.decide_competency(
        db, posting.id, mentoring.id, decision="reject", priority="nice-to-have", required_coverage=1, actor_id=None
    )
    postings.decide_competency(
        db, posting.id, silicon.id, decision="save", priority="nice-to-have", required_coverage=3, actor_id=None
    )
    text = REQUIRED_TEXT.replace("Key job responsibilities", "Basic qualifications")
    postings.update_posting(db, posting.id, PostingFields(title="Staff Engineer", text=text), actor_id=None)
    db.expire_all()
    posting = db.get(Posting, posting.id)
    chosen = {pc.competency.slug: (pc.state, pc.priority, pc.required_coverage) for pc in posting.competencies}
    assert chosen["compiler-design"] == (SelectionState.ACCEPTED, Priority.NICE_TO_HAVE, 1)
    assert chosen["mentoring"] == (SelectionState.REJECTED, Priority.NICE_TO_HAVE, 1)
    assert chosen["pre-silicon-feedback"] == (SelectionState.SUGGESTED, Priority.NICE_TO_HAVE, 3)
    # A competency the new text brings in is new, so it takes its suggestion.
    assert chosen["incident-management"] == (SelectionState.SUGGESTED, Priority.MUST_HAVE, 2)
    assert _selection(posting, "compiler-design").evidence[0].sentence.startswith("Design and build")


def test_coverage_below_one_is_refused(db, library):
    """A required coverage of 0 raises a clear message and leaves the selection as it was."""
    posting = _create(db)
    compiler = _selection(posting, "compiler-design")
    with pytest.raises(ValidationFailed, match="at least 1 round"):
        postings.decide_competency(
            db,
            posting.id,
            compiler.id,
            decision="accept",
            priority="must-have",
            required_coverage=0,
            actor_id=None,
        )
    db.expire_all()
    row = db.get(PostingCompetency, compiler.id)
    assert row.state is SelectionState.SUGGESTED and row.required_coverage == 1


def test_decision_on_another_postings_competency_is_not_found(db, library):
    """A selection id from another posting is refused rather than changed."""
    first, second = _create(db), _create(db, title="Other")
    foreign = second.competencies[0]
    with pytest.raises(NotFound):
        postings.decide_competency(
            db,
            first.id,
            foreign.id,
            decision="accept",
            priority="must-have",
            required_coverage=2,
            actor_id=None,
        )


def test_accept_all_accepts_only_open_suggestions(db, library):
    """Accept-all accepts every suggestion and leaves rejected ones rejected."""
    posting = _create(db)
    mentoring = _selection(posting, "mentoring")
    postings.decide_competency(
        db,
        posting.id,
        mentoring.id,
        decision="reject",
        priority="nice-to-have",
        required_coverage=1,
        actor_id=None,
    )
    count = postings.accept_all_suggestions(db, posting.id, actor_id=None)
    assert count == len(posting.competencies) - 1
    db.expire_all()
    states = {pc.competency.slug: pc.state for pc in db.get(Posting, posting.id).competencies}
    assert states.pop("mentoring") is SelectionState.REJECTED
    assert set(states.values()) == {SelectionState.ACCEPTED}


def test_add_from_library_with_evidence_and_conflicts(db, library):
    """Adding a library competency accepts it; adding it twice or a retired one is refused."""
    posting = _create(db)
    coding = library["coding"]
    selection = postings.add_competency(
        db, posting.id, coding.id, priority="nice-to-have", required_coverage=None, actor_id=None
    )
    assert (
        selection.state is SelectionState.ACCEPTED
        and selection.required_coverage == 1
        and selection.score is None
    )
    with pytest.raises(Conflict, match="already accepted"):
        postings.add_competency(
            db, posting.id, coding.id, priority="must-have", required_coverage=2, actor_id=None
        )
    with pytest.raises(Conflict, match="already suggested"):
        postings.add_competency(
            db, posting.id, library["mentoring"].id, priority="must-have", required_coverage=2, actor_id=None
        )
    retired = library["negotiation"]
    retired.retired_at = utcnow()
    db.commit()
    with pytest.raises(ValidationFailed, match="is retired"):
        postings.add_competency(
            db, posting.id, retired.id, priority="must-have", required_coverage=2, actor_id=None
        )


def test_added_competency_finds_its_sentences(db, library):
    """A competency added to the library after the posting was read picks up the sentences that mention it."""
    posting = _create(db)
    fields = CompetencyFields(name="Accelerator know-how", category="technical", phrases="accelerator")
    competency = create_competency(db, "accelerator-know-how", fields, actor_id=None)
    selection = postings.add_competency(
        db, posting.id, competency.id, priority="must-have", required_coverage=None, actor_id=None
    )
    assert selection.required_coverage == 2
    assert selection.evidence and "accelerator" in selection.evidence[0].sentence


def test_retired_competency_is_not_suggested_but_stays(db, library):
    """Extraction ignores retired competencies; one already on a posting stays after re-extraction."""
    posting = _create(db)
    mentoring = _selection(posting, "mentoring")
    postings.decide_competency(
        db,
        posting.id,
        mentoring.id,
        decision="accept",
        priority="must-have",
        required_coverage=2,
        actor_id=None,
    )
    library["mentoring"].retired_at = utcnow()
    db.commit()
    fresh = _create(db, title="Second")
    assert "mentoring" not in {pc.competency.slug for pc in fresh.competencies}
    postings.refresh_suggestions(db, posting.id, actor_id=None)
    db.expire_all()
    assert _selection(db.get(Posting, posting.id), "mentoring").state is SelectionState.ACCEPTED
    assert _count(db, Evidence) > 0
