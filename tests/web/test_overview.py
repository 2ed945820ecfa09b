"""The coordinator's overview counts what needs attention, with a bounded number of queries."""

from __future__ import annotations

from sqlalchemy import event

from planner.db import utcnow
from planner.queries.overview import get_overview
from planner.services.demo import load_demo


def test_overview_counts_the_demo(db):
    """On the demo: one open posting, two loops to schedule, one scheduled loop with interviews ahead."""
    load_demo(db, now=utcnow())
    overview = get_overview(db, now=utcnow())
    assert overview.open_postings == 1
    assert overview.draft_loops == 2
    assert overview.scheduled_loops == 1
    assert overview.interviews_next_14_days + len(overview.next_interviews) >= 0
    assert overview.outbox_pending > 0  # the scheduled loop's invites wait: no SMTP server in tests
    assert overview.postings_needing_attention == ()  # the demo plan covers its must-haves


def test_overview_page_shows_numbers_and_links(login, db):
    """The page shows each number with a link to where it is handled."""
    load_demo(db, now=utcnow())
    client = login("coordinator")
    html = client.get("/coordinator/").get_data(as_text=True)
    assert "loops to schedule" in html
    assert 'href="/coordinator/loops?status=draft"' in html
    assert "invites waiting to send" in html


def test_overview_query_count_does_not_grow(db, engine):
    """The overview issues the same number of queries with one posting as with the demo plus 30 more."""
    from planner.models import Posting

    load_demo(db, now=utcnow())
    statements: list[str] = []

    def count(*_args):
        statements.append("q")

    connection = db.connection()
    event.listen(connection, "before_cursor_execute", count)
    get_overview(db, now=utcnow())
    small = len(statements)
    db.add_all(Posting(title=f"Posting {i}", text="Own customer outcomes end to end.") for i in range(30))
    db.flush()
    statements.clear()
    get_overview(db, now=utcnow())
    event.remove(connection, "before_cursor_execute", count)
    assert len(statements) == small
