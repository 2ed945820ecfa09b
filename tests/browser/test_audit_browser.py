"""The audit page and the overdue scorecards in Chromium: filter, export, History links, accessibility."""

from __future__ import annotations

from datetime import timedelta

from axeutil import assert_accessible
from browserutil import screenshot, sign_in
from invitedata import make_loop
from sqlalchemy import select

from planner.db import make_session_factory, utcnow
from planner.models import Interviewer


def _overdue_for_jordan(engine) -> tuple[int, int]:
    """An interview that ended 2 days 23 hours ago with Jordan Park (a demo interviewer) as assessor, no scorecard."""
    with make_session_factory(engine)() as session:
        jordan = session.scalar(select(Interviewer).where(Interviewer.name == "Jordan Park"))
        scenario = make_loop(session, rounds=1, tag=" (past)", existing=[jordan],
                             first_start=utcnow().replace(microsecond=0) - timedelta(days=3))
        session.commit()
        return scenario.interviews[0].id, jordan.id


def test_coordinator_filters_the_audit_trail_and_exports_it(page, live_db):
    """From the navigation: every change in words; a kind filter narrows the list and the export link keeps it;
    the CSV downloads with the filtered rows; a bad date is said once, beside the filters."""
    sign_in(page, "coordinator@demo.test")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Audit").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_role("heading", name="Audit trail").is_visible()
    everything = page.locator("tr[data-entry]").count()
    assert everything >= 3 and "Loaded the demo data" in page.locator(".audit-table").inner_text()
    assert_accessible(page)
    screenshot(page, "audit-all")
    page.get_by_label("Kind of change").select_option(label="Loops (create, schedule, cancel)")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_load_state("networkidle")
    rows = page.locator("tr[data-entry]")
    assert 1 <= rows.count() < everything
    assert "Scheduled Alex Chen's loop" in page.locator(".audit-table").inner_text()
    export = page.locator("#audit-export")
    assert "kind=loops" in export.get_attribute("href") and "(filtered)" in export.inner_text()
    with page.expect_download() as download_info:
        export.click()
    text = download_info.value.path().read_text(encoding="utf-8")
    lines = text.strip().splitlines()
    assert lines[0].startswith("When,When (UTC),Who,What,Why") and len(lines) == 1 + rows.count()
    screenshot(page, "audit-filtered")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "audit-filtered-phone")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the audit page is {overflow}px wider than the phone"
    page.set_viewport_size({"width": 1360, "height": 900})
    page.goto("/coordinator/audit?kind=loops&start=2026-02-31")
    assert page.get_by_role("alert").inner_text().count("is not a date") == 1
    assert page.locator("tr[data-entry]").count() == rows.count()
    assert_accessible(page)
    screenshot(page, "audit-bad-date")


def test_overdue_scorecard_on_the_overview_leads_to_the_persons_history(page, live_db):
    """The overview lists Jordan's overdue scorecard with how late it is; the name opens the person, whose History
    opens the audit trail narrowed to them; the loop page has its History too."""
    interview_id, jordan_id = _overdue_for_jordan(live_db)
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/")
    card = page.locator("#overdue-scorecards")
    item = card.locator(f"[data-overdue='{interview_id}-{jordan_id}']")
    assert "Jordan Park" in item.inner_text() and "1 day 23 hours overdue" in item.inner_text()
    assert_accessible(page)
    screenshot(page, "overview-overdue-scorecards")
    item.get_by_role("link", name="Jordan Park").click()
    page.wait_for_load_state("networkidle")
    page.get_by_role("link", name="History").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_label("Interviewer").input_value() == str(jordan_id)
    screenshot(page, "audit-person-history")
    page.goto("/coordinator/loops?status=scheduled")
    page.get_by_role("link", name="Alex Chen").click()
    page.get_by_role("link", name="History").click()
    page.wait_for_load_state("networkidle")
    assert "Scheduled Alex Chen's loop" in page.locator(".audit-table").inner_text()
    assert page.get_by_label("Loop", exact=True).input_value() != "0"
