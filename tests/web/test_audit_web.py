"""The coordinator's audit page: words, links, filters (loop, person, kind, dates in the viewer's zone), paging,
bad filter values, the CSV export (filtered, formula-safe) and a bounded number of queries."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from loopworld import World, book
from sqlalchemy import delete, event, select

from planner.models import AuditEntry, User
from planner.services.audit import record

AT = datetime(2030, 3, 5, 7, 30, tzinfo=UTC)  # Mon 4 Mar 23:30 in Los Angeles, Tue 5 Mar 08:30 in Berlin


def entry(db, at: datetime, **fields) -> AuditEntry:
    fields.setdefault("actor_id", None)
    fields.setdefault("entity", "loop")
    fields.setdefault("entity_id", None)
    item = record(db, **fields)
    db.flush()
    item.at = at
    db.commit()
    return item


@pytest.fixture
def world(db):
    world = World(db)
    people = world.basic_pool()
    loop = world.loop("Kim Lee")
    other = world.loop("Lou Tan")
    interview = book(db, world, loop, "mentor", datetime(2030, 3, 6, 15, tzinfo=UTC), [people["cleo"]])
    db.commit()
    return world, people, loop, other, interview


@pytest.fixture
def coordinator(login, db):
    client = login("coordinator")
    user = db.scalar(select(User).where(User.email == "coordinator@example.com"))
    user.timezone = "America/Los_Angeles"
    db.execute(delete(AuditEntry))  # creating the login wrote one; each test writes its own
    db.commit()
    return client, user


def page(client, query: str = "") -> str:
    response = client.get(f"/coordinator/audit{query}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def shown(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-entry="(\d+)"', html)]


def test_entries_read_as_sentences_newest_first_with_links(db, world, coordinator):
    """Who, when (viewer's zone), what in words, why, and links to the loop, person and posting that still exist."""
    client, user = coordinator
    w, people, loop, _other, interview = world
    moved = entry(db, AT, actor_id=user.id, action="interview_rescheduled", entity="interview",
                  entity_id=interview.id, reason="candidate asked",
                  details={"loop_id": loop.id, "from": "2030-03-06T15:00:00Z", "to": "2030-03-07T21:00:00Z"})
    busy = entry(db, AT + timedelta(hours=1), action="busy.import", entity="interviewer",
                 entity_id=people["cleo"].id, interviewer_id=people["cleo"].id,
                 details={"source": "import:Work", "imported": 3, "replaced": 0})
    html = page(client)
    assert shown(html) == [busy.id, moved.id]
    assert "Rescheduled Mentoring for Kim Lee from Wed 6 Mar 07:00 to Thu 7 Mar 13:00" in html
    assert "Mon 04 Mar 2030, 23:30 PST" in html and "candidate asked" in html and user.name in html
    assert "Imported 3 busy blocks for Cleo from Work (replacing 0)" in html
    assert f'href="/coordinator/loops/{loop.id}"' in html
    assert f'href="/coordinator/interviewers/{people["cleo"].id}"' in html
    assert f'href="/coordinator/postings/{w.posting.id}"' in html
    row = html[html.index(f'data-entry="{busy.id}"'):html.index(f'data-entry="{moved.id}"')]
    assert ">system<" in row


def test_entries_of_what_is_gone_and_unknown_actions_still_read(db, world, coordinator):
    """A deleted loop is named from the details without a link; an action nobody describes reads as words."""
    client, _user = coordinator
    entry(db, AT, action="loop_created", entity="loop", entity_id=999_999, loop_id=999_999,
          details={"candidate": "Gone Person", "posting_id": 888_888})
    entry(db, AT, action="reply.recorded", entity="interview", entity_id=7, details={"partstat": "DECLINED"})
    html = page(client)
    assert "Created a loop for Gone Person on posting #888888" in html and "Gone Person (gone)" in html
    assert "/coordinator/loops/999999" not in html
    assert "Reply recorded (interview #7)" in html and "interviewer via calendar" in html


def test_old_entries_without_the_new_columns_show_and_filter(db, world, coordinator):
    """Entries written before loop_id/interviewer_id existed need no back-fill: they show, and the loop and
    person filters find them through their entity or the loop named in their details."""
    client, _user = coordinator
    _w, people, loop, other, interview = world
    old = [
        entry(db, AT, action="loop_created", entity="loop", entity_id=loop.id, details={"posting_id": 1}),
        entry(db, AT, action="interview_cancelled", entity="interview", entity_id=interview.id,
              details={"loop_id": loop.id, "round": "mentor"}),
        entry(db, AT, action="qualification.add", entity="interviewer", entity_id=people["ana"].id,
              details={"competency": "mentoring", "level": "shadow"}),
        entry(db, AT, action="loop_created", entity="loop", entity_id=other.id),
    ]
    db.execute(AuditEntry.__table__.update().values(loop_id=None, interviewer_id=None))
    db.commit()
    assert sorted(shown(page(client))) == sorted(e.id for e in old)
    assert sorted(shown(page(client, f"?loop={loop.id}"))) == [old[0].id, old[1].id]
    html = page(client, f"?person={people['ana'].id}")
    assert shown(html) == [old[2].id] and "Gave Ana Mentoring at shadow level" in html


def test_filters_by_loop_person_kind_and_local_dates(db, world, coordinator):
    """Each filter narrows the list; dates are whole days in the viewer's zone (Los Angeles here)."""
    client, user = coordinator
    _w, people, loop, other, interview = world
    a = entry(db, AT, actor_id=user.id, action="interview_cancelled", entity="interview", entity_id=interview.id,
              loop_id=loop.id, reason="no room", details={"round_name": "Mentoring"})
    b = entry(db, AT + timedelta(minutes=20), action="loop_cancelled", entity="loop", entity_id=other.id,
              loop_id=other.id, reason="withdrew")
    c = entry(db, AT + timedelta(days=1), action="busy.add", entity="interviewer", entity_id=people["dev"].id,
              interviewer_id=people["dev"].id, details={"start": "2030-03-07T17:00:00+00:00",
                                                       "end": "2030-03-07T18:00:00+00:00"})
    d = entry(db, AT + timedelta(days=2), action="interviewer_replaced", entity="interview", entity_id=interview.id,
              loop_id=loop.id, interviewer_id=people["cleo"].id,
              details={"leaving": people["cleo"].id, "joining": people["dev"].id, "round_name": "Mentoring"})
    assert shown(page(client, f"?loop={loop.id}")) == [d.id, a.id]
    assert shown(page(client, f"?person={people['dev'].id}")) == [d.id, c.id]  # joining finds the replacement
    assert shown(page(client, "?kind=interviews")) == [a.id]
    assert shown(page(client, "?kind=loops")) == [b.id]
    assert shown(page(client, "?kind=busy")) == [c.id]
    # 07:30 and 07:50 UTC on 5 Mar are still 4 Mar in Los Angeles (08:00 UTC would be 5 Mar, 00:00).
    assert shown(page(client, "?start=2030-03-04&end=2030-03-04")) == [b.id, a.id]
    assert shown(page(client, "?start=2030-03-05")) == [d.id, c.id]
    html = page(client, f"?loop={loop.id}&kind=assignments&start=2030-03-06")
    assert shown(html) == [d.id] and "Replaced Cleo by Dev on Mentoring for Kim Lee" in html
    assert f"/coordinator/audit.csv?loop={loop.id}&amp;kind=assignments&amp;start=2030-03-06" in html


def test_paging_keeps_the_filters(db, world, coordinator):
    """50 a page, newest first; the pager links carry the filters; odd page numbers show a real page."""
    client, _user = coordinator
    _w, _people, loop, other, _interview = world
    ids = [entry(db, AT + timedelta(minutes=n), action="loop_windows_changed", entity="loop", entity_id=loop.id,
                 loop_id=loop.id, details={"windows": 1}).id for n in range(120)]
    entry(db, AT, action="loop_cancelled", entity="loop", entity_id=other.id, loop_id=other.id)
    first = page(client, f"?loop={loop.id}")
    assert shown(first) == ids[::-1][:50] and "1&ndash;50 of 120" in first
    assert f'href="/coordinator/audit?page=2&amp;loop={loop.id}"' in first
    second = page(client, f"?page=2&loop={loop.id}")
    assert shown(second) == ids[::-1][50:100]
    assert shown(page(client, f"?page=99&loop={loop.id}")) == ids[::-1][100:]
    assert shown(page(client, f"?page=abc&loop={loop.id}")) == ids[::-1][:50]


@pytest.mark.parametrize(("query", "message"), [
    ("?loop=abc", "&#39;abc&#39; is not a loop number; showing every loop&#39;s changes."),
    ("?loop=99999999999999", "is not a loop number"),
    ("?person=1.5", "&#39;1.5&#39; is not an interviewer number"),
    ("?kind=nonsense", "&#39;nonsense&#39; is not a kind of change; showing every kind."),
    ("?start=2030-13-01", "&#39;2030-13-01&#39; is not a date (use YYYY-MM-DD); the From date is left out."),
    ("?end=%00%ff", "is not a date"),
    ("?start=9999-12-31&end=0001-01-01", "The From date is after the To date"),
])
def test_bad_filter_values_get_one_sentence_and_no_error(db, world, coordinator, query, message):
    """Bad filter values are named once; the page still answers 200 (bad values left out) and so does the CSV."""
    client, _user = coordinator
    _w, _people, loop, _other, _interview = world
    made = entry(db, AT, action="loop_created", entity="loop", entity_id=loop.id, loop_id=loop.id)
    html = page(client, query)
    assert html.count(message) == 1 and 'role="alert"' in html
    if "From date is after" not in message:
        assert shown(html) == [made.id]
    assert client.get(f"/coordinator/audit.csv{query}").status_code == 200


def test_a_loop_that_no_longer_exists_is_a_filter_too(db, world, coordinator):
    """Asking for a deleted loop's number filters by it (its old entries stay reachable), without an error."""
    client, _user = coordinator
    entry(db, AT, action="loop_cancelled", entity="loop", entity_id=424_242, loop_id=424_242)
    entry(db, AT, action="loop_created", entity="loop", entity_id=world[2].id, loop_id=world[2].id)
    html = page(client, "?loop=424242")
    assert len(shown(html)) == 1 and "loop #424242 (no longer exists)" in html and 'role="alert"' not in html


def _csv(client, query: str = "") -> list[list[str]]:
    response = client.get(f"/coordinator/audit.csv{query}")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment;" in response.headers["Content-Disposition"]
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


def test_csv_export_is_filtered_and_neutralises_formulas(db, world, coordinator):
    """The CSV has the page's filter; cells starting with = + - @ tab or CR get a leading quote."""
    client, user = coordinator
    _w, _people, loop, other, _interview = world
    reasons = ['=HYPERLINK("http://evil.example","x")', "+1+2", "-3", "@SUM(A1)", "\tTab", "\rReturn", "plain"]
    for n, reason in enumerate(reasons):
        entry(db, AT + timedelta(minutes=n), actor_id=user.id, action="loop_cancelled", entity="loop",
              entity_id=loop.id, loop_id=loop.id, reason=reason)
    entry(db, AT, action="loop_created", entity="loop", entity_id=other.id, loop_id=other.id, reason="=other")
    rows = _csv(client, f"?loop={loop.id}")
    header, body = rows[0], rows[1:]
    assert header[:5] == ["When", "When (UTC)", "Who", "What", "Why"]
    assert len(body) == len(reasons)
    why = [row[4] for row in body][::-1]
    assert why == ["'" + r if r != "plain" else r for r in reasons]
    assert body[0][0] == "2030-03-04T23:36:00-08:00" and body[0][1] == "2030-03-05T07:36:00+00:00"
    assert body[0][2] == user.name and body[0][7] == "Kim Lee" and body[0][8] == str(loop.id)
    everything = _csv(client)
    assert len(everything) == 1 + len(reasons) + 1 and "'=other" in [row[4] for row in everything]


def _count_queries(db, client, path: str) -> int:
    """How many SQL statements the request runs (the app shares the test's connection)."""
    statements = []

    def count(conn, cursor, statement, *args):
        statements.append(statement)

    connection = db.get_bind()
    event.listen(connection, "before_cursor_execute", count)
    try:
        assert client.get(path).status_code == 200
    finally:
        event.remove(connection, "before_cursor_execute", count)
    return len(statements)


def _mixed(db, world, user, n: int) -> None:
    _w, people, loop, other, interview = world
    for i in range(n):
        entry(db, AT + timedelta(minutes=i), actor_id=user.id, action="interviewer_replaced", entity="interview",
              entity_id=interview.id, loop_id=(loop if i % 2 else other).id, interviewer_id=people["cleo"].id,
              details={"leaving": people["cleo"].id, "joining": people["dev"].id})
        entry(db, AT + timedelta(minutes=i), action="posting.competency.add", entity="posting",
              entity_id=_w.posting.id, details={"competency": "mentoring", "priority": "must-have",
                                                "required_coverage": 2})


def test_the_page_reads_names_in_a_fixed_number_of_queries(db, world, coordinator):
    """No N+1: the page issues as many queries for 4 entries as for 50 (names resolved in bulk)."""
    client, user = coordinator
    _mixed(db, world, user, 2)
    few = _count_queries(db, client, "/coordinator/audit")
    _mixed(db, world, user, 40)
    many = _count_queries(db, client, "/coordinator/audit")
    assert many == few
    assert many <= 14


def test_only_coordinators_see_the_audit(login):
    """Interviewers and managers are refused the page and the export."""
    client = login("interviewer")
    assert client.get("/coordinator/audit").status_code in (302, 403)
    assert client.get("/coordinator/audit.csv").status_code in (302, 403)
