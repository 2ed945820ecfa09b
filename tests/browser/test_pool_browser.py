"""The interviewer pool in a real browser: list, filters, promotion, week view, busy time, calendar import."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from browserutil import screenshot, sign_in
from sqlalchemy import select

from planner.db import make_session_factory
from planner.models import Interview, Interviewer, Loop, Seat, SeatRole

ICS = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//browser test//EN\r
BEGIN:VEVENT\r
UID:standup@browser\r
DTSTAMP:20260101T000000Z\r
DTSTART;TZID=America/Los_Angeles:{day}T110000\r
DTEND;TZID=America/Los_Angeles:{day}T113000\r
RRULE:FREQ=DAILY;COUNT=5\r
SUMMARY:Team standup\r
END:VEVENT\r
END:VCALENDAR\r
"""


def seed_training_and_bookings(engine) -> int:
    """Give Jordan Park two completed shadow interviews and one booked interview later this week."""
    now = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
    with make_session_factory(engine)() as session:
        jordan = session.scalar(select(Interviewer).where(Interviewer.email == "interviewer@demo.test"))
        loop = session.scalar(select(Loop).order_by(Loop.id))
        detail = {"competencies": [{"slug": "pre-silicon-feedback", "focus": "primary"}]}
        for index, (start, role, level) in enumerate(
            [
                (now - timedelta(days=9), SeatRole.TRAINEE, "shadow"),
                (now - timedelta(days=8), SeatRole.TRAINEE, "shadow"),
                (now + timedelta(hours=2), SeatRole.ASSESSOR, None),
            ]
        ):
            interview = Interview(
                loop_id=loop.id,
                round_key=f"b{index}",
                round_name="Silicon deep dive",
                round_detail=detail,
                start=start,
                end=start + timedelta(hours=1),
                uid=f"browser-{index}@planner.example",
            )
            interview.seats.append(Seat(interviewer_id=jordan.id, role=role, training_level=level))
            session.add(interview)
        session.commit()
        return jordan.id


def test_pool_list_filter_and_promote(page, live_db):
    """The coordinator filters the pool and promotes a ready trainee with one click."""
    seed_training_and_bookings(live_db)
    sign_in(page, "coordinator@demo.test")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Interviewers").click()
    assert page.get_by_role("heading", level=1).inner_text() == "Interviewers"
    assert page.locator("table.pool-table tbody tr").count() >= 12
    panel = page.locator(".ready-panel")
    assert "Jordan Park" in panel.inner_text() and "2 shadow interviews completed" in panel.inner_text()
    screenshot(page, "pool-list")

    page.get_by_label("Competency").select_option(label="Pre-silicon feedback (hardware/software co-design)")
    page.get_by_label("Level").select_option("qualified")
    page.get_by_role("button", name="Filter").click()
    rows = page.locator("table.pool-table tbody tr")
    assert rows.count() >= 1 and "Jordan Park" not in page.locator("table.pool-table").inner_text()
    screenshot(page, "pool-list-filtered")

    page.get_by_role("link", name="Clear").click()
    page.get_by_role(
        "button",
        name="Promote to reverse-shadow: Jordan Park, Pre-silicon feedback (hardware/software co-design)",
    ).click()
    assert "Promoted Jordan Park to reverse-shadow" in page.locator(".flash").inner_text()
    # The demo's other ready trainees (from last week's loop) stay listed; this promotion is gone from it.
    assert page.get_by_role("button", name=re.compile("Promote Jordan Park to reverse-shadow")).count() == 0


def test_interviewer_page_busy_block_import_and_week_view(page, live_db, tmp_path):
    """On an interviewer's page the coordinator adds a busy block, imports a calendar and sees the week."""
    jordan_id = seed_training_and_bookings(live_db)
    sign_in(page, "coordinator@demo.test")
    page.goto(f"/coordinator/interviewers/{jordan_id}")
    assert page.get_by_role("heading", level=1).inner_text().startswith("Jordan Park")
    assert page.locator(".week-day").count() == 7
    assert page.locator(".blk-interview").count() >= 1 or "Week of" in page.inner_text("#week")

    next_monday = (datetime.now(UTC) + timedelta(days=7 - datetime.now(UTC).weekday())).date()
    page.get_by_label("Starts").fill(f"{next_monday.isoformat()}T13:00")
    page.get_by_label("Ends").fill(f"{next_monday.isoformat()}T12:00")
    page.get_by_role("button", name="Add busy block").click()
    assert "before or when it starts" in page.locator("#busy").inner_text()

    page.get_by_label("Ends").fill(f"{next_monday.isoformat()}T15:00")
    page.get_by_label("Note").fill("Architecture review")
    page.get_by_role("button", name="Add busy block").click()
    assert "Busy block added" in page.locator(".flash").inner_text()
    assert "Architecture review" in page.locator(".week-day").first.inner_text()

    calendar = tmp_path / "jordan-work.ics"
    calendar.write_text(ICS.format(day=next_monday.strftime("%Y%m%d")))
    page.get_by_label("Calendar file (.ics)").set_input_files(str(calendar))
    page.get_by_role("button", name="Import busy time").click()
    assert "Imported 5 busy blocks from 'jordan-work'" in page.locator(".flash").inner_text()
    assert "jordan-work" in page.locator(".import-list").inner_text()
    page.goto(f"/coordinator/interviewers/{jordan_id}?week={next_monday.isoformat()}")
    assert page.locator(".week-day .blk-busy").count() >= 6
    screenshot(page, "pool-interviewer")

    bad = tmp_path / "notes.ics"
    bad.write_text("Just some notes, not a calendar")
    page.get_by_label("Calendar file (.ics)").set_input_files(str(bad))
    page.get_by_role("button", name="Import busy time").click()
    assert "Nothing was imported" in page.locator("#busy").inner_text()
    assert "5 blocks" in page.locator(".import-list").inner_text()
    screenshot(page, "pool-interviewer-bad-import")


def test_add_interviewer_with_a_bad_zone_then_fix_it(page):
    """The new-interviewer form explains an unknown zone and creates the person once it is fixed."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/interviewers/new")
    page.get_by_label("Name").fill("Noor Haddad")
    page.get_by_label("Email").fill("noor@example.com")
    page.get_by_label("Team").fill("neuron-runtime")
    page.get_by_label("Time zone").fill("Asia/Dubay")
    page.get_by_label("Daily interview cap").fill("-1")
    page.get_by_role("button", name="Add interviewer").click()
    assert "is not a known time zone" in page.locator(".pool-form").inner_text()
    screenshot(page, "pool-new-errors")
    page.get_by_label("Time zone").fill("Asia/Dubai")
    page.get_by_role("button", name="Add interviewer").click()
    assert "cannot be below zero" in page.locator(".pool-form").inner_text()
    page.get_by_label("Daily interview cap").fill("1")
    page.get_by_label("Sat").check()
    page.get_by_role("button", name="Add interviewer").click()
    assert "Noor Haddad joined the interviewer pool" in page.locator(".flash").inner_text()
    assert "Asia/Dubai" in page.locator(".page-head").inner_text()
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Deactivate").click()
    assert "Noor Haddad is deactivated" in page.locator(".flash-success").inner_text()
    screenshot(page, "pool-deactivated")
