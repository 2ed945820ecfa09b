"""In Chromium: a cancelled interview offers no calendar file, and its old download link explains why."""

from __future__ import annotations

from datetime import timedelta

from axeutil import assert_accessible
from browserutil import screenshot, sign_in
from invitedata import SETTINGS, make_loop
from sqlalchemy import select

from planner.db import make_session_factory, utcnow
from planner.models import Interviewer, InterviewStatus
from planner.services import invites


def _one_kept_one_cancelled(engine) -> tuple[int, int]:
    with make_session_factory(engine)() as session:
        jordan = session.scalar(select(Interviewer).where(Interviewer.email == "interviewer@demo.test"))
        start = (utcnow() + timedelta(days=4)).replace(hour=16, minute=0, second=0, microsecond=0)
        scenario = make_loop(session, rounds=2, first_start=start, existing=[jordan], tag=" (browser)")
        kept, cancelled = scenario.interviews
        invites.announce_scheduled(session, [kept.id, cancelled.id], settings=SETTINGS, now=utcnow())
        cancelled.status = InterviewStatus.CANCELLED
        invites.announce_cancelled(session, cancelled.id, settings=SETTINGS, now=utcnow())
        session.commit()
        return kept.id, cancelled.id


def test_cancelled_interview_has_no_calendar_download(page, live_db, live_server):
    """The cancelled card shows its badge and no "Add to calendar"; its old download address answers 410 with
    a page that says what happened and what to do, and both pages pass axe."""
    kept, cancelled = _one_kept_one_cancelled(live_db)
    sign_in(page, "interviewer@demo.test")
    page.goto("/interviewer/")
    cancelled_card = page.locator(f"[data-interview='{cancelled}']")
    assert "Cancelled" in cancelled_card.inner_text()
    assert cancelled_card.get_by_role("link", name="Add to calendar (.ics)").count() == 0
    kept_card = page.locator(f"[data-interview='{kept}']")
    assert kept_card.get_by_role("link", name="Add to calendar (.ics)").is_visible()
    assert_accessible(page)
    cancelled_card.scroll_into_view_if_needed()
    screenshot(page, "interviewer-cancelled-card")

    response = page.goto(f"/interviewer/interviews/{cancelled}.ics")
    assert response.status == 410
    assert page.get_by_role("heading", name="Interview cancelled").is_visible()
    assert "nothing to add to your calendar" in page.locator("main").inner_text()
    assert_accessible(page)
    screenshot(page, "interviewer-cancelled-download")
    page.get_by_role("link", name="Go to my home page").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_role("heading", name="My interviews").is_visible()
