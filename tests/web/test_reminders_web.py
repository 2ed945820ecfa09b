"""Overdue scorecards on the coordinator's overview (across a DST change, in the viewer's zone) and reminders on
the outbox page (a plain email: no method, no .ics)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from invitedata import SETTINGS, make_loop
from sqlalchemy import select

from planner.models import User
from planner.services.reminders import queue_reminders
from planner.web.coordinator import overdue

#: Sat 28 Mar 2026, 09:30-10:30 CET in Berlin; the clocks go forward the next night (02:00 CET -> 03:00 CEST).
START = datetime(2026, 3, 28, 8, 30, tzinfo=UTC)
END = START + timedelta(hours=1)  # 09:30 UTC = 10:30 CET
DUE = END + timedelta(hours=24)  # Sun 29 Mar 09:30 UTC = 11:30 CEST (the wall clock says 11:30, not 10:30)


@pytest.fixture
def berlin_coordinator(login, db):
    client = login("coordinator")
    db.scalar(select(User).where(User.email == "coordinator@example.com")).timezone = "Europe/Berlin"
    db.commit()
    return client


def _overview_at(client, monkeypatch, now: datetime) -> str:
    monkeypatch.setattr(overdue, "utcnow", lambda: now)
    # The clock jumps days between views here; in real time the page cache keeps a page 30 s at most.
    client.application.extensions["planner.page_cache"].clear()
    response = client.get("/coordinator/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    return html[html.index('id="overdue-scorecards"'):]


def test_overdue_list_counts_real_hours_across_the_dst_change(db, berlin_coordinator, monkeypatch):
    """Due 24 real hours after the end: not at 11:29 CEST on Sunday (24 wall-clock hours have passed), but at
    11:31, shown in the viewer's zone with how late it is and links to the person and the loop."""
    scenario = make_loop(db, rounds=1, first_start=START, people=[("Ana Ruiz", "ana@hire.example", "Europe/Berlin")])
    db.commit()
    early = _overview_at(berlin_coordinator, monkeypatch, DUE - timedelta(minutes=1))
    assert "Every scorecard is in on time (due 24 hours after the interview ends)" in early
    assert "data-overdue" not in early.split("</section>")[0]
    late = _overview_at(berlin_coordinator, monkeypatch, DUE + timedelta(minutes=1)).split("</section>")[0]
    person = scenario.interviewers[0]
    assert f'data-overdue="{scenario.interviews[0].id}-{person.id}"' in late
    assert "due <span class=\"nowrap\">Sun 29 Mar, 11:30 CEST</span>" in late and "1 minute overdue" in late
    assert f'href="/coordinator/interviewers/{person.id}"' in late
    assert f'href="/coordinator/loops/{scenario.loop.id}"' in late and "Compiler design" in late
    next_day = _overview_at(berlin_coordinator, monkeypatch, DUE + timedelta(days=1, hours=3)).split("</section>")[0]
    assert "1 day 3 hours overdue" in next_day


def test_a_misconfigured_deadline_does_not_break_the_overview(app, db, berlin_coordinator, monkeypatch):
    """An unreadable SCORECARD_DUE_HOURS falls back to 24 hours on the page (the command line names the error)."""
    app.config["SCORECARD_DUE_HOURS"] = "soon"
    make_loop(db, rounds=1, first_start=START)
    db.commit()
    assert "Sun 29 Mar, 11:30 CEST" in _overview_at(berlin_coordinator, monkeypatch, DUE + timedelta(hours=1))


def test_reminders_show_as_plain_emails_on_the_outbox_page(db, berlin_coordinator):
    """A reminder row says "email" instead of a method, offers the .eml but no .ics (which answers 404)."""
    make_loop(db, rounds=1, first_start=START, people=[("Ana Ruiz", "ana@hire.example", "Europe/Berlin")])
    db.commit()
    [message_id] = queue_reminders(db, now=DUE + timedelta(hours=1), settings=SETTINGS)
    html = berlin_coordinator.get("/coordinator/outbox").get_data(as_text=True)
    row = html[html.index(f'data-message="{message_id}"'):].split("</tr>")[0]
    assert ">reminder<" in row and ">email<" in row and "seq " not in row
    assert f"/coordinator/outbox/{message_id}.eml" in row and f"/coordinator/outbox/{message_id}.ics" not in row
    assert berlin_coordinator.get(f"/coordinator/outbox/{message_id}.ics").status_code == 404
    eml = berlin_coordinator.get(f"/coordinator/outbox/{message_id}.eml")
    assert eml.status_code == 200 and b"text/calendar" not in eml.data and b"Reminder: your scorecard" in eml.data
