"""CalDAV calendars in a real browser: a coordinator and an interviewer connect and sync a Radicale calendar,
and a meeting synced over a confirmed interview is flagged on the overview and fixed with Replace."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from axeutil import assert_accessible
from browserutil import screenshot, sign_in
from caldavutil import KEY, vcalendar, vevent
from radicaleutil import PASSWORD, running_radicale
from sqlalchemy import select

from planner.db import make_session_factory
from planner.models import Interview, Interviewer, InterviewStatus, Seat, SeatRole, SeatStatus


@pytest.fixture(scope="module")
def radicale_server(tmp_path_factory):
    """A real Radicale on loopback for this module's tests."""
    with running_radicale(tmp_path_factory.mktemp("radicale")) as server:
        yield server


@pytest.fixture(autouse=True)
def calendar_key(monkeypatch):
    """The served app encrypts calendar passwords with a test key (set before the app is built)."""
    monkeypatch.setenv("PLANNER_CALENDAR_SECRET_KEY", KEY)


def _event_tomorrow(summary: str) -> str:
    day = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y%m%d")
    return vcalendar(vevent(f"{summary}@browser", f"{day}T110000", f"{day}T120000", summary,
                            tzid="America/Los_Angeles"))


def _fill_calendar(page, url: str, password: str) -> None:
    panel = page.locator("#caldav")
    summary = panel.locator("summary")
    if panel.locator("details.caldav-edit[open]").count() == 0:
        summary.click()
    panel.get_by_label("CalDAV address").fill(url)
    panel.get_by_label("User name").fill("ana")
    panel.get_by_label("Password or app password").fill(password)
    panel.get_by_role("button", name="Save calendar").click()
    page.wait_for_load_state("networkidle")


def test_coordinator_connects_and_syncs_an_interviewers_calendar(page, live_db, radicale_server):
    """On Jordan Park's pool page the coordinator saves a CalDAV calendar and presses Sync now."""
    calendar = radicale_server.new_calendar()
    calendar.save_event(_event_tomorrow("Quarterly planning"))
    with make_session_factory(live_db)() as session:
        jordan = session.scalar(select(Interviewer.id).where(Interviewer.email == "interviewer@demo.test"))
    sign_in(page, "coordinator@demo.test")
    page.goto(f"/coordinator/interviewers/{jordan}")
    assert page.get_by_role("heading", name="CalDAV calendar").is_visible()

    _fill_calendar(page, str(calendar.url), PASSWORD)

    assert "Calendar saved" in page.locator(".flashes").inner_text()
    panel = page.locator("#caldav")
    assert "saved (encrypted); never shown" in panel.inner_text() and "not synced yet" in panel.inner_text()
    panel.get_by_role("button", name="Sync now").click()
    page.wait_for_load_state("networkidle")
    assert "Synced: 1 busy block from 1 event." in page.locator(".flashes").inner_text()
    assert "1 busy block" in page.locator(".caldav-last-sync").inner_text()
    assert "Quarterly planning" in page.locator("body").inner_text()  # in the week view, or next week's
    assert PASSWORD not in page.content()
    page.locator("#caldav").scroll_into_view_if_needed()
    screenshot(page, "caldav-coordinator-synced")
    assert_accessible(page)


def test_interviewer_connects_their_own_calendar_and_sees_a_failed_sync(page, radicale_server):
    """Jordan Park saves their own calendar, syncs it, then a wrong password shows one 'Last sync failed' line."""
    calendar = radicale_server.new_calendar()
    calendar.save_event(_event_tomorrow("Dentist"))
    sign_in(page, "interviewer@demo.test")
    page.goto("/interviewer/")
    page.locator("#caldav").scroll_into_view_if_needed()
    screenshot(page, "caldav-interviewer-form")
    assert_accessible(page)

    _fill_calendar(page, str(calendar.url), PASSWORD)
    page.locator("#caldav").get_by_role("button", name="Sync now").click()
    page.wait_for_load_state("networkidle")
    assert "Synced: 1 busy block" in page.locator(".flashes").inner_text()
    screenshot(page, "caldav-interviewer-synced")
    assert_accessible(page)

    _fill_calendar(page, str(calendar.url), "not-the-password")
    page.locator("#caldav").get_by_role("button", name="Sync now").click()
    page.wait_for_load_state("networkidle")
    failure = page.locator(".caldav-failure")
    assert failure.count() == 1
    assert re.search(r"Last sync failed at .+: The calendar server refused the user name or password",
                     failure.inner_text())
    assert "1 busy block" in page.locator(".caldav-last-sync").inner_text()
    assert PASSWORD not in page.content() and "not-the-password" not in page.content()
    page.locator("#caldav").scroll_into_view_if_needed()
    screenshot(page, "caldav-interviewer-failed")
    assert_accessible(page)


def _replaceable_seat(engine) -> tuple[int, str, datetime, datetime]:
    """(interviewer id, name, start, end) of an assessor of a confirmed upcoming demo interview whom somebody
    else can replace at the same time."""
    from planner.services.replacements import replacement_options

    with make_session_factory(engine)() as session:
        rows = session.execute(
            select(Interviewer.id, Interviewer.name, Interview.id, Interview.start, Interview.end)
            .join(Seat, Seat.interviewer_id == Interviewer.id).join(Interview, Interview.id == Seat.interview_id)
            .where(Interview.status == InterviewStatus.SCHEDULED, Seat.status == SeatStatus.ACTIVE,
                   Seat.role == SeatRole.ASSESSOR, Interview.start > datetime.now(UTC))
            .order_by(Interview.start, Interviewer.id)).all()
        for person_id, name, interview_id, start, end in rows:
            if replacement_options(session, interview_id, person_id, now=datetime.now(UTC)).substitutes:
                return person_id, name, start, end
    raise AssertionError("no seat of the demo's confirmed interviews has a substitute")


def test_overview_flags_a_synced_meeting_over_a_confirmed_interview(page, live_db, radicale_server):
    """A meeting synced over a confirmed interview appears on the overview; Replace fixes it and the flag goes."""
    person_id, name, start, end = _replaceable_seat(live_db)
    calendar = radicale_server.new_calendar()
    calendar.save_event(vcalendar(vevent("offsite@browser", start.strftime("%Y%m%dT%H%M%SZ"),
                                         end.strftime("%Y%m%dT%H%M%SZ"), "Team offsite", tzid=None)))
    sign_in(page, "coordinator@demo.test")
    page.goto(f"/coordinator/interviewers/{person_id}")
    _fill_calendar(page, str(calendar.url), PASSWORD)
    page.locator("#caldav").get_by_role("button", name="Sync now").click()
    page.wait_for_load_state("networkidle")

    page.goto("/coordinator/")
    flags = page.get_by_role("region", name=re.compile("Busy during a confirmed interview"))
    assert re.search(rf"{re.escape(name)} now has 'Team offsite' during .+, \w{{3}} \d\d:\d\d", flags.inner_text())
    screenshot(page, "caldav-overview-flag")
    assert_accessible(page)

    flags.get_by_role("link", name=f"Replace {name}").first.click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_role("heading", level=1).inner_text() == f"Replace {name}"
    screenshot(page, "caldav-replace-from-flag")
    page.get_by_label("Reason").fill("Team offsite that day")
    page.get_by_role("button", name=re.compile(r"^Use ")).first.click()
    page.wait_for_load_state("networkidle")
    assert "Panel changed" in page.locator(".flashes").inner_text()
    page.goto("/coordinator/")
    assert page.get_by_role("region", name=re.compile("Busy during a confirmed interview")).count() == 0
