"""The coordinator's outbox in Chromium: no-server banner, state tabs, failure reason, resend, .eml."""

from __future__ import annotations

from browserutil import screenshot, sign_in
from invitedata import SETTINGS, make_loop
from playwright.sync_api import expect
from sqlalchemy import select

from planner.db import make_session_factory, utcnow
from planner.models import OutboxMessage, OutboxState
from planner.services import invites


def _queue_with_one_failure(engine) -> int:
    with make_session_factory(engine)() as session:
        scenario = make_loop(session, rounds=1, tag=" (outbox)")
        invites.announce_scheduled(session, [scenario.interviews[0].id], settings=SETTINGS, now=utcnow())
        session.commit()
        rows = list(
            session.scalars(
                select(OutboxMessage)
                .where(OutboxMessage.interview_id == scenario.interviews[0].id)
                .order_by(OutboxMessage.id)
            )
        )
        rows[0].state, rows[0].attempts = OutboxState.FAILED, 1
        rows[0].last_error = "ana@hire.example refused: 550 5.1.1 mailbox unavailable"
        rows[1].state, rows[1].sent_at = OutboxState.SENT, utcnow()
        session.commit()
        return rows[0].id


def test_coordinator_resends_a_failed_message_and_downloads_eml(page, live_db):
    """The failed tab shows the reason; Resend moves it back to pending; the .eml downloads."""
    failed_id = _queue_with_one_failure(live_db)
    sign_in(page, "coordinator@demo.test")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Outbox").click()
    expect(page.locator("#no-smtp")).to_be_visible()  # waits for the page: a busy machine loads it slowly
    screenshot(page, "outbox-all")
    page.get_by_role("link", name="Failed").click()
    row = page.locator(f"tr[data-message='{failed_id}']")
    assert "550 5.1.1 mailbox unavailable" in row.inner_text()
    screenshot(page, "outbox-failed")
    with page.expect_download() as download_info:
        row.get_by_role("link", name=".eml").click()
    eml = download_info.value.path().read_bytes()
    assert b"text/calendar" in eml and b"Message-ID:" in eml
    row.get_by_role("button", name="Resend").click()
    page.wait_for_load_state("networkidle")
    assert "Queued again for ana@hire.example" in page.locator(".flash-success").inner_text()
    assert page.locator(f"tr[data-message='{failed_id}']").count() == 0  # no longer on the failed tab
    page.get_by_role("link", name="Pending").click()
    assert page.locator(f"tr[data-message='{failed_id}']").get_attribute("data-state") == "pending"
    screenshot(page, "outbox-after-resend")


def test_coordinator_filters_the_outbox_by_loop_from_the_loop_page(page, live_db):
    """A loop's 'all messages for this loop' opens the outbox narrowed to it (said above the list); the filter
    picks another loop, the state tabs keep it, and Clear filter shows every loop's messages again."""
    _queue_with_one_failure(live_db)
    page.set_viewport_size({"width": 1366, "height": 900})
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/loops?status=scheduled")
    page.get_by_role("link", name="Alex Chen").click()
    page.get_by_role("link", name="all messages for this loop in the outbox").click()
    page.wait_for_load_state("networkidle")
    banner = page.locator("#active-filter")
    assert "Alex Chen" in banner.inner_text()
    alex = page.locator("tr[data-message]").count()
    assert alex >= 1 and page.get_by_label("Loop", exact=True).input_value() != "0"
    assert "Kim Lee (outbox)" not in page.locator(".outbox-table").inner_text()
    screenshot(page, "outbox-filtered")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "outbox-filtered-phone")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the filtered outbox is {overflow}px wider than the phone"
    page.set_viewport_size({"width": 1366, "height": 900})
    page.get_by_label("Loop", exact=True).select_option(label="Kim Lee (outbox) — Senior ML Compiler Engineer (4)")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_load_state("networkidle")
    assert "Kim Lee (outbox)" in page.locator("#active-filter").inner_text()
    assert page.locator("tr[data-message]").count() == 4
    page.get_by_role("link", name="Failed").click()
    page.wait_for_load_state("networkidle")
    assert "Kim Lee (outbox)" in page.locator("#active-filter").inner_text()
    assert page.locator("tr[data-message]").count() == 1
    page.get_by_role("link", name="Clear filter").click()
    page.wait_for_load_state("networkidle")
    assert page.locator("#active-filter").count() == 0
    page.get_by_role("link", name="All").click()
    assert page.locator("tr[data-message]").count() >= alex + 4
