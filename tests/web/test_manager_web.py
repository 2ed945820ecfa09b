"""The manager's dashboards: read-only pages, CSV export, and a bounded number of SQL queries."""

from __future__ import annotations

import csv
import io
import secrets
from contextlib import contextmanager

import pytest
from coverage_builders import add_round, interviewer, posting, unstaffable_round
from sqlalchemy import event, select

from planner.db import utcnow
from planner.models import (
    Competency,
    Focus,
    Posting,
    PostingCompetency,
    Priority,
    Round,
    RoundCompetency,
    RoundKind,
    SelectionState,
)
from planner.services import plans
from planner.services.demo import load_demo

MUST = ("must-have", 2)
NICE = ("nice-to-have", 1)


@contextmanager
def count_queries(engine):
    """Count SQL statements sent to the database while the block runs."""
    statements: list[str] = []

    def _before(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", _before)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", _before)


def _bulk_postings(db, count: int, competencies: int, rounds: int) -> None:
    """`count` postings, each accepting `competencies` library entries and planning `rounds` rounds."""
    library = [Competency(slug=f"bulk-{i}-{secrets.token_hex(3)}", name=f"Skill {i}",
                          category="technical") for i in range(competencies)]
    db.add_all(library)
    db.flush()
    for index in range(count):
        row = Posting(title=f"Posting {index:03d}", team="bulk")
        row.competencies = [
            PostingCompetency(competency_id=c.id, state=SelectionState.ACCEPTED,
                              priority=Priority.MUST_HAVE if i % 2 == 0 else Priority.NICE_TO_HAVE,
                              required_coverage=2 if i % 2 == 0 else 1)
            for i, c in enumerate(library)]
        db.add(row)
        db.flush()
        for position in range(rounds):
            item = Round(posting_id=row.id, key=f"k{position}", position=position, name=f"Round {position}",
                         kind=RoundKind.TECHNICAL, minutes=45)
            item.competencies = [RoundCompetency(competency_id=library[(position + j) % competencies].id,
                                                 focus=Focus.PRIMARY if j == 0 else Focus.SECONDARY)
                                 for j in range(min(2, competencies))]
            db.add(item)
        db.flush()
        if index % 10 == 0:
            plans.publish_plan(db, row.id, actor_id=None)


def test_home_lists_postings_worst_first_with_status_and_counts(login, db):
    """The list shows each posting with its status badge and must-have count, the short one first."""
    client = login("manager")
    good, comps = posting(db, {"t-a": MUST}, title="Aardvark engineer")
    add_round(db, good, comps, "One", {"t-a": "primary"})
    add_round(db, good, comps, "Two", {"t-a": "primary"}, position=1)
    interviewer(db, "qualified@example.com", {comps["t-a"]: "qualified"})
    posting(db, {"t-a": MUST}, title="Zebra engineer")
    html = client.get("/manager/").get_data(as_text=True)
    assert html.index("Zebra engineer") < html.index("Aardvark engineer")
    assert "with a must-have short" in html
    assert 'class="badge badge-gap"' in html and 'class="badge badge-ok"' in html


def test_home_without_postings_explains_what_will_appear(login):
    """An empty database shows a helpful empty state, not an empty table."""
    html = login("manager").get("/manager/").get_data(as_text=True)
    assert "No postings yet." in html


def test_posting_page_draws_heat_map_bars_and_plain_gaps(login, db):
    """The posting page has the matrix cells by focus, bench bars and the gaps in plain words."""
    client = login("manager")
    row, comps = posting(db, {"t-mentoring": MUST, "t-coding": NICE})
    add_round(db, row, comps, "Bar raiser", {"t-mentoring": "primary", "t-coding": "secondary"})
    interviewer(db, "m@example.com", {comps["t-mentoring"]: "qualified"})
    html = client.get(f"/manager/postings/{row.id}").get_data(as_text=True)
    assert 'class="hm-cell hm-primary"' in html and 'class="hm-cell hm-secondary"' in html
    assert "T mentoring is assessed by one round (&#39;Bar raiser&#39;); two are required." in html
    assert 'class="bench"' in html
    assert "No version published yet" in html


def test_user_text_is_escaped(login, db):
    """Posting titles and round names are rendered escaped, never as markup."""
    client = login("manager")
    row, comps = posting(db, {"t-a": MUST}, title="<script>alert(1)</script>")
    add_round(db, row, comps, "<b>bold</b>", {"t-a": "primary"})
    html = client.get(f"/manager/postings/{row.id}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html
    assert "<b>bold</b>" not in html


def test_csv_export_has_one_row_per_competency_and_a_column_per_round(login, db):
    """The CSV download carries the matrix: fixed columns, then each round's focus."""
    client = login("manager")
    row, comps = posting(db, {"t-a": MUST, "t-b": NICE}, title="Compiler engineer")
    add_round(db, row, comps, "Deep dive", {"t-a": "primary", "t-b": "secondary"})
    response = client.get(f"/manager/postings/{row.id}/coverage.csv")
    assert response.mimetype == "text/csv"
    assert f'filename="coverage-{row.id}-compiler-engineer.csv"' in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0][-1] == "Deep dive"
    assert [r[1] for r in rows[1:]] == ["t-a", "t-b"]
    assert [r[-1] for r in rows[1:]] == ["primary", "secondary"]
    assert rows[1][5] == "thin"


@pytest.mark.parametrize("path", ["/manager/postings/999999", "/manager/postings/999999/coverage.csv"])
def test_unknown_posting_is_404(login, path):
    """A missing posting answers 404 with the error page."""
    assert login("manager").get(path).status_code == 404


def test_manager_pages_are_read_only(login, db):
    """Managers cannot POST to the dashboards."""
    row, _ = posting(db, {"t-a": MUST})
    client = login("manager")
    assert client.post(f"/manager/postings/{row.id}").status_code == 405
    assert client.post("/manager/").status_code == 405


@pytest.mark.parametrize("role", ["coordinator", "interviewer"])
def test_other_roles_cannot_read_the_dashboards(login, db, role):
    """Coordinators and interviewers get 403 on the manager's pages."""
    row, _ = posting(db, {"t-a": MUST})
    client = login(role)
    assert client.get("/manager/").status_code == 403
    assert client.get(f"/manager/postings/{row.id}/coverage.csv").status_code == 403


def test_demo_dashboard_shows_the_four_must_haves_covered(login, db):
    """With the demo loaded the dashboard counts 4/4 must-haves, each covered in the heat map."""
    load_demo(db, now=utcnow())
    client = login("manager", email="boss@example.com")
    posting_id = db.scalar(select(Posting.id))
    assert "4/4" in client.get("/manager/").get_data(as_text=True)
    html = client.get(f"/manager/postings/{posting_id}").get_data(as_text=True)
    assert "Initial loop plan" in html
    for name in ("Compiler design", "Customer ownership", "Mentoring"):
        row = html[html.index(f'<th scope="row" class="hm-name">{name}'):]
        assert "Covered" in row[:row.index("</tr>")]


def test_home_query_count_does_not_grow_with_postings(login, db, engine):
    """The list issues the same number of SQL queries for 2 postings as for 200 (with rounds and versions)."""
    client = login("manager")
    _bulk_postings(db, 2, competencies=2, rounds=1)
    with count_queries(engine) as small:
        assert client.get("/manager/").status_code == 200
    _bulk_postings(db, 198, competencies=6, rounds=5)
    with count_queries(engine) as large:
        html = client.get("/manager/").get_data(as_text=True)
    assert html.count("<a href=\"/manager/postings/") == 50  # a page of them; the tiles count all 200
    assert '<span class="tile-num">200</span>' in html
    assert len(large) == len(small), (len(small), len(large))
    assert len(large) <= 12


def test_posting_page_query_count_does_not_grow_with_rounds_or_competencies(login, db, engine):
    """The posting page issues the same number of queries for a tiny plan and a large, versioned one."""
    client = login("manager")
    _bulk_postings(db, 1, competencies=1, rounds=1)
    small_id = db.scalar(select(Posting.id).order_by(Posting.id.desc()))
    with count_queries(engine) as small:
        assert client.get(f"/manager/postings/{small_id}").status_code == 200
    _bulk_postings(db, 1, competencies=40, rounds=25)
    large_id = db.scalar(select(Posting.id).order_by(Posting.id.desc()))
    for position in range(3):
        db.get(Round, db.scalar(select(Round.id).where(Round.posting_id == large_id,
                                                       Round.position == position))).minutes = 50 + position
        plans.publish_plan(db, large_id, actor_id=None)
    with count_queries(engine) as large:
        assert client.get(f"/manager/postings/{large_id}").status_code == 200
    assert len(large) == len(small), (len(small), len(large))


def test_manager_page_flags_a_round_nobody_can_staff(login, db):
    """The manager's coverage view shows the blocking issue, the round flag and a bad must-have tile."""
    client = login("manager")
    row, comps = unstaffable_round(db)
    html = client.get(f"/manager/postings/{row.id}").get_data(as_text=True)
    assert "card tile tile-bad" in html and "1 round nobody can staff" in html
    assert "Nobody can staff &#39;Deep dive&#39;" in html and "hm-unstaffed" in html
    listing = client.get("/manager/").get_data(as_text=True)
    assert "rounds nobody in the pool can staff" in listing
