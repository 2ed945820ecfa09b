"""The interviewer's home in Chromium: interview cards, .ics download, copy and rotate the feed link."""

from __future__ import annotations

from datetime import timedelta

from browserutil import screenshot, sign_in
from invitedata import SETTINGS, make_loop
from sqlalchemy import select

from planner.db import make_session_factory, utcnow
from planner.models import Interviewer
from planner.services import invites


def _jordan_interviews(engine) -> tuple[int, str]:
    with make_session_factory(engine)() as session:
        jordan = session.scalar(select(Interviewer).where(Interviewer.email == "interviewer@demo.test"))
        start = (utcnow() + timedelta(days=4)).replace(hour=16, minute=0, second=0, microsecond=0)
        scenario = make_loop(session, rounds=2, first_start=start, existing=[jordan], tag=" (browser)")
        past = make_loop(
            session, rounds=1, first_start=start - timedelta(days=21), existing=[jordan], tag=" (past)"
        )
        invites.announce_scheduled(
            session, [i.id for i in scenario.interviews + past.interviews], settings=SETTINGS, now=utcnow()
        )
        session.commit()
        return scenario.interviews[0].id, jordan.feed_token


def test_interviewer_sees_interviews_downloads_and_rotates_feed(page, live_db, live_server):
    """Jordan sees the interview with what to assess, downloads its .ics, copies and rotates the feed link."""
    interview_id, old_token = _jordan_interviews(live_db)
    sign_in(page, "interviewer@demo.test")
    page.goto("/interviewer/")
    card = page.locator(f"[data-interview='{interview_id}']")
    assert card.is_visible()
    assert "Compiler design" in card.inner_text() and "Walk through a lowering pass" in card.inner_text()
    assert "Kim Lee (browser)" in card.inner_text()
    past = page.locator("details.past")
    assert not past.locator("table").is_visible()  # past interviews start collapsed
    with page.expect_download() as download_info:
        card.get_by_role("link", name="Add to calendar (.ics)").click()
    download = download_info.value
    assert download.suggested_filename.startswith(f"interview-{interview_id}-")
    assert b"METHOD:PUBLISH" in download.path().read_bytes()

    feed_input = page.locator("#feed-url")
    assert feed_input.input_value().endswith(f"/feeds/{old_token}.ics")
    assert page.locator("#webcal-link").get_attribute("href").startswith("webcal://")
    page.get_by_role("button", name="Copy").click()
    page.wait_for_function("document.getElementById('copy-status').textContent.length > 0")
    past.locator("summary").click()
    screenshot(page, "interviewer-home")

    assert page.request.get(f"/feeds/{old_token}.ics").status == 200
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Rotate link").click()
    page.wait_for_load_state("networkidle")
    assert "old link no longer works" in page.locator(".flash-success").inner_text()
    new_url = page.locator("#feed-url").input_value()
    assert old_token not in new_url
    assert page.request.get(f"/feeds/{old_token}.ics").status == 404
    fresh = page.request.get(new_url.replace(live_server, ""))
    assert fresh.status == 200 and fresh.headers["content-type"] == "text/calendar; charset=utf-8"
    screenshot(page, "interviewer-feed-rotated")
