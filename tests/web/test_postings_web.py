"""Posting pages: list, create/edit by paste or upload, the competency panel, and bad input."""

from __future__ import annotations

import io
import re

import pytest
from sqlalchemy import event, func, select

from planner.models import AuditEntry, Competency, Posting, PostingCompetency, SelectionState, User
from planner.services.library import seed_library

TEXT = """Staff Engineer, Compilers

- Design and build compiler optimization passes and code generation for our accelerator.
- Mentor junior engineers and review their designs.
- Work with customers to understand their workloads and own their outcomes end to end.
"""


@pytest.fixture
def coordinator(db, login):
    seed_library(db)
    db.commit()
    return login("coordinator")


def _new(client, **data):
    form = {"title": "Staff Engineer, Compilers", "team": "Compilers", "status": "open", "text": TEXT, **data}
    return client.post("/coordinator/postings/new", data=form, content_type="multipart/form-data")


def _posting(db) -> Posting:
    return db.scalars(select(Posting).order_by(Posting.id.desc())).first()


def _selection(db, posting: Posting, slug: str) -> PostingCompetency:
    return next(pc for pc in posting.competencies if pc.competency.slug == slug)


def test_empty_list_explains_what_to_do(coordinator):
    """With no postings the list says how to start and links to the new-posting form."""
    page = coordinator.get("/coordinator/postings").get_data(as_text=True)
    assert "No postings yet" in page and "/coordinator/postings/new" in page


def test_create_by_paste_shows_suggestions(coordinator, db):
    """Saving pasted text redirects to the posting page with highlighted evidence and audit by the user."""
    response = _new(coordinator)
    assert response.status_code == 302
    posting = _posting(db)
    assert response.headers["Location"] == f"/coordinator/postings/{posting.id}"
    page = coordinator.get(response.headers["Location"]).get_data(as_text=True)
    assert "Compiler design" in page and '<mark id="ev-' in page and "<strong>" in page
    actor = db.scalar(select(AuditEntry.actor_id).where(AuditEntry.action == "posting.create"))
    assert actor == db.scalar(select(User.id).where(User.email == "coordinator@example.com"))


def test_create_by_upload(coordinator, db):
    """An uploaded UTF-8 .md file becomes the posting text (the pasted text is ignored)."""
    upload = (io.BytesIO(TEXT.encode("utf-8-sig")), "staff.md")
    assert _new(coordinator, text="", upload=upload).status_code == 302
    assert _posting(db).text.startswith("Staff Engineer, Compilers")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"text": "   "}, "The posting text is empty"),
        ({"text": "", "upload": ("Ingénieur".encode("latin-1"), "job.txt")}, "job.txt is not UTF-8 text"),
        ({"text": "", "upload": (b"%PDF", "job.pdf")}, "not a .txt or .md file"),
        ({"title": ""}, "Give the posting a title"),
    ],
)
def test_bad_input_shows_message_and_saves_nothing(coordinator, db, data, message):
    """Empty text, a non-UTF-8 or non-text upload, or no title: 400, one message, nothing stored."""
    if "upload" in data:
        content, name = data["upload"]
        data = {**data, "upload": (io.BytesIO(content), name)}
    response = _new(coordinator, **data)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert db.scalar(select(func.count(Posting.id))) == 0


def test_edit_text_reextracts_and_keeps_decisions(coordinator, db):
    """Editing the text re-runs extraction; an accepted competency stays accepted."""
    _new(coordinator)
    posting = _posting(db)
    mentoring = _selection(db, posting, "mentoring")
    coordinator.post(
        f"/coordinator/postings/{posting.id}/competencies/{mentoring.id}",
        data={"decision": "accept", "priority": "must-have", "required_coverage": "2"},
    )
    form = coordinator.get(f"/coordinator/postings/{posting.id}/edit").get_data(as_text=True)
    assert "Staff Engineer, Compilers" in form and 'selected value="open"' in form
    response = coordinator.post(
        f"/coordinator/postings/{posting.id}/edit",
        content_type="multipart/form-data",
        data={"title": "Staff Engineer", "status": "open", "text": "Write code in Go."},
    )
    assert response.status_code == 302
    db.expire_all()
    posting = db.get(Posting, posting.id)
    states = {pc.competency.slug: pc.state for pc in posting.competencies}
    assert states["mentoring"] is SelectionState.ACCEPTED and "compiler-design" not in states


def test_edit_with_empty_text_changes_nothing(coordinator, db):
    """Clearing the text on edit is refused and the stored text stays."""
    _new(coordinator)
    posting = _posting(db)
    response = coordinator.post(
        f"/coordinator/postings/{posting.id}/edit",
        content_type="multipart/form-data",
        data={"title": "Renamed", "status": "open", "text": ""},
    )
    assert response.status_code == 400 and "The posting text is empty" in response.get_data(as_text=True)
    db.expire_all()
    assert (db.get(Posting, posting.id).title, db.get(Posting, posting.id).text) == (
        posting.title,
        posting.text,
    )


def test_accept_with_priority_and_bad_coverage(coordinator, db):
    """Accept stores priority and coverage; a coverage of 0 is refused with a message and changes nothing."""
    _new(coordinator)
    posting = _posting(db)
    compiler = _selection(db, posting, "compiler-design")
    url = f"/coordinator/postings/{posting.id}/competencies/{compiler.id}"
    response = coordinator.post(
        url,
        data={"decision": "accept", "priority": "must-have", "required_coverage": "0"},
        follow_redirects=True,
    )
    assert "Required coverage must be at least 1 round." in response.get_data(as_text=True)
    db.expire_all()
    assert db.get(PostingCompetency, compiler.id).state is SelectionState.SUGGESTED
    response = coordinator.post(
        url, data={"decision": "accept", "priority": "must-have", "required_coverage": "3"}
    )
    assert response.status_code == 302 and response.headers["Location"].endswith(f"#sel-{compiler.id}")
    db.expire_all()
    row = db.get(PostingCompetency, compiler.id)
    assert (row.state, row.priority.value, row.required_coverage) == (SelectionState.ACCEPTED, "must-have", 3)


def test_reject_restore_accept_all_and_add(coordinator, db):
    """Reject then restore a suggestion, accept all, then add one more from the library."""
    _new(coordinator)
    posting = _posting(db)
    mentoring = _selection(db, posting, "mentoring")
    base = f"/coordinator/postings/{posting.id}"
    for decision in ("reject", "restore"):
        coordinator.post(
            f"{base}/competencies/{mentoring.id}",
            data={"decision": decision, "priority": "nice-to-have", "required_coverage": "1"},
        )
    db.expire_all()
    assert db.get(PostingCompetency, mentoring.id).state is SelectionState.SUGGESTED
    page = coordinator.post(f"{base}/accept-all", follow_redirects=True).get_data(as_text=True)
    assert "Accepted" in page and "suggested competenc" in page
    assert (
        db.scalar(
            select(func.count(PostingCompetency.id)).where(
                PostingCompetency.posting_id == posting.id,
                PostingCompetency.state == SelectionState.SUGGESTED,
            )
        )
        == 0
    )
    target = db.scalar(select(Competency).where(Competency.slug == "negotiation"))
    assert f'<option value="{target.id}"' in coordinator.get(base).get_data(as_text=True)
    response = coordinator.post(
        f"{base}/competencies",
        data={"competency_id": str(target.id), "priority": "nice-to-have", "required_coverage": ""},
        follow_redirects=True,
    )
    assert f"{target.name} added as nice-to-have" in response.get_data(as_text=True)
    again = coordinator.post(
        f"{base}/competencies",
        data={"competency_id": str(target.id), "priority": "must-have", "required_coverage": "2"},
        follow_redirects=True,
    )
    assert f"{target.name} is already accepted." in again.get_data(as_text=True)


def test_posting_text_is_escaped(coordinator, db):
    """Markup in the posting text or title is shown as text, never rendered."""
    _new(
        coordinator,
        title="<b>Bold</b> role",
        text=TEXT + "\n- <script>alert(1)</script> mentor junior engineers.\n",
    )
    page = coordinator.get(f"/coordinator/postings/{_posting(db).id}").get_data(as_text=True)
    assert "<script>alert(1)" not in page and "&lt;script&gt;" in page and "&lt;b&gt;Bold" in page


def test_list_filters_by_status_and_search(coordinator):
    """The status pills and search narrow the table."""
    _new(coordinator, title="Compiler engineer", status="open")
    _new(coordinator, title="Designer", status="draft", team="Design")
    open_page = coordinator.get("/coordinator/postings?status=open").get_data(as_text=True)
    assert "Compiler engineer" in open_page and "Designer" not in open_page
    search = coordinator.get("/coordinator/postings?q=design").get_data(as_text=True)
    assert "Designer" in search and "Compiler engineer" not in search
    nothing = coordinator.get("/coordinator/postings?q=zzz").get_data(as_text=True)
    assert "No posting matches" in nothing


def test_posting_page_query_count_is_bounded(coordinator, db, app):
    """The posting page issues the same small number of queries however many competencies it shows."""
    _new(coordinator)
    posting = _posting(db)
    statements = []
    engine = db.get_bind().engine

    def _count(*_args):
        statements.append(1)

    event.listen(engine, "before_cursor_execute", _count)
    try:
        coordinator.get(f"/coordinator/postings/{posting.id}")
        small = len(statements)
        statements.clear()
        coordinator.post(
            f"/coordinator/postings/{posting.id}/edit",
            content_type="multipart/form-data",
            data={"title": "Big", "status": "open", "text": TEXT * 3 + "\nNegotiate and lead hiring."},
        )
        statements.clear()
        coordinator.get(f"/coordinator/postings/{posting.id}")
        assert len(statements) == small <= 12
    finally:
        event.remove(engine, "before_cursor_execute", _count)


def test_missing_posting_is_404_and_other_roles_403(coordinator, client, login):
    """Unknown postings answer 404; interviewers cannot open posting pages."""
    assert coordinator.get("/coordinator/postings/9999").status_code == 404
    assert coordinator.get("/coordinator/postings/9999/edit").status_code == 404
    assert coordinator.post("/coordinator/postings/9999/accept-all").status_code == 404
    client.post("/logout")
    interviewer = login("interviewer")
    assert interviewer.get("/coordinator/postings").status_code == 403


def test_non_numeric_coverage_gets_clear_message(coordinator, db):
    """Coverage that is not a whole number is refused with one sentence and changes nothing."""
    _new(coordinator)
    posting = _posting(db)
    compiler = _selection(db, posting, "compiler-design")
    response = coordinator.post(
        f"/coordinator/postings/{posting.id}/competencies/{compiler.id}",
        data={"decision": "accept", "priority": "must-have", "required_coverage": "two"},
        follow_redirects=True,
    )
    assert "Required coverage must be a whole number of rounds, 1 or more." in response.get_data(as_text=True)
    db.expire_all()
    assert db.get(PostingCompetency, compiler.id).state is SelectionState.SUGGESTED


def test_text_without_matches_explains_next_step(coordinator, db):
    """A text the library does not match says so and points at the library and the edit form."""
    response = _new(coordinator, title="Lorem", text="Lorem ipsum dolor sit amet.")
    page = coordinator.get(response.headers["Location"]).get_data(as_text=True)
    assert "did not match any competency in the library" in page and "Add from the library" in page


def test_refused_card_decision_is_answered_in_the_card_itself(coordinator, db):
    """A refused coverage is said inside that competency's card, which takes focus, not at the page top."""
    _new(coordinator)
    posting = _posting(db)
    compiler = _selection(db, posting, "compiler-design")
    response = coordinator.post(
        f"/coordinator/postings/{posting.id}/competencies/{compiler.id}",
        data={"decision": "accept", "priority": "must-have", "required_coverage": "0"},
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    card = page[page.index(f'id="sel-{compiler.id}"'):]
    card = card[:card.index("</article>")]
    sentence = "Required coverage must be at least 1 round."
    assert f'<p class="error sel-error" id="err-{compiler.id}" role="alert">{sentence}</p>' in card
    assert "autofocus" in card and page.count(sentence) == 1
    db.expire_all()
    assert db.get(PostingCompetency, compiler.id).state is SelectionState.SUGGESTED


REQUIREMENTS_TEXT = """Staff Engineer, Compilers

Key job responsibilities
- Design and build compiler optimization passes and code generation for our accelerator.

Requirements
- Experience mentoring engineers and reviewing their designs.

Nice to have
- Experience with incident response and on-call.
"""


def _card(page: str, selection_id: int) -> str:
    start = page.index(f'id="sel-{selection_id}"')
    return page[start : page.index("</article>", start)]


def _words(html: str) -> str:
    """The text of some HTML, tags dropped and spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace(" :", ":").split())


def test_card_shows_suggested_priority_and_its_reason(coordinator, db):
    """Each suggestion card says which priority is suggested and why, beside the priority it has."""
    assert _new(coordinator, text=REQUIREMENTS_TEXT).status_code == 302
    posting = _posting(db)
    mentoring = _selection(db, posting, "mentoring")
    page = coordinator.get(f"/coordinator/postings/{posting.id}").get_data(as_text=True)
    card = _card(page, mentoring.id)
    assert "Suggested must-have: listed under Requirements" in _words(card)
    assert '<option value="must-have" selected>' in card and 'value="2"' in card
    # The reason links to the sentence it comes from, highlighted in the posting text.
    anchor = f"ev-{mentoring.evidence[0].start}"
    assert f'href="#{anchor}" class="ev-link"' in card.split('class="sel-why small"')[1] and f'id="{anchor}"' in page
    incident = _card(page, _selection(db, posting, "incident-management").id)
    assert "Suggested nice-to-have: listed under Nice to have" in _words(incident)
    compiler = _card(page, _selection(db, posting, "compiler-design").id)
    assert "Suggested nice-to-have: listed under Key job responsibilities" in _words(compiler)
    # The coordinator's own choice stays, and the card still says what was suggested and why.
    coordinator.post(
        f"/coordinator/postings/{posting.id}/competencies/{mentoring.id}",
        data={"decision": "accept", "priority": "nice-to-have", "required_coverage": "1"},
    )
    card = _card(coordinator.get(f"/coordinator/postings/{posting.id}").get_data(as_text=True), mentoring.id)
    assert "nice-to-have · 1 round" in card and "Suggested must-have: listed under Requirements" in _words(card)
