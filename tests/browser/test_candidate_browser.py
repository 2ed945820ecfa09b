"""A candidate in Singapore picks their own time in a real browser, at desktop and phone size.

The interviewers are in Los Angeles and London; the coordinator's windows lie on both sides of the next
United States change to summer time, so Los Angeles' working hours move by an hour in Singapore time
between the two days offered.
"""

from __future__ import annotations

import re
import secrets
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from axeutil import assert_accessible
from browserutil import screenshot, sign_in
from sqlalchemy import select

from planner.core.scheduling import validate
from planner.db import make_session_factory, utcnow
from planner.models import (
    Candidate,
    Competency,
    CompetencyCategory,
    Interviewer,
    Loop,
    LoopWindow,
    OutboxMessage,
    PlanVersion,
    Posting,
    PostingCompetency,
    Priority,
    Qualification,
    SelectionState,
    TrainingLevel,
)
from planner.services.candidate_offers import build_offer_problem

SINGAPORE, LOS_ANGELES, LONDON = ZoneInfo("Asia/Singapore"), ZoneInfo("America/Los_Angeles"), ZoneInfo("Europe/London")
ROUNDS = [
    {"key": "systems", "name": "Runtime systems", "kind": "technical", "minutes": 60, "interviewers": 1,
     "focus_questions": ["Secret question about schedulers"], "min_outside_team": 0, "max_trainees": 0,
     "competencies": [{"slug": "runtime-systems", "focus": "primary"}]},
    {"key": "partners", "name": "Working with partners", "kind": "behavioural", "minutes": 45, "interviewers": 1,
     "focus_questions": [], "min_outside_team": 0, "max_trainees": 0,
     "competencies": [{"slug": "partner-empathy", "focus": "primary"}]},
]
PEOPLE = [  # name, zone, working hours, competency
    ("Rosa Lindqvist", "America/Los_Angeles", ("14:00", "24:00"), "runtime-systems"),
    ("Theo Marsh", "America/Los_Angeles", ("14:00", "24:00"), "runtime-systems"),
    ("Imogen Hale", "Europe/London", ("07:00", "15:00"), "partner-empathy"),
    ("Callum Reid", "Europe/London", ("07:00", "15:00"), "partner-empathy"),
]


def _next_us_change(after: datetime) -> date:
    """The first day on which Los Angeles' UTC offset differs from the day before."""
    day = after.date()
    while True:
        noon = datetime.combine(day, time(12), LOS_ANGELES)
        if noon.utcoffset() != (noon - timedelta(days=1)).utcoffset():
            return day
        day += timedelta(days=1)


def _windows() -> list[tuple[datetime, datetime]]:
    """The Friday before and the Tuesday after the change (a Sunday), 06:00-23:00 in Singapore: Thursday and
    Monday afternoon in Los Angeles, morning in London."""
    change = _next_us_change(utcnow() + timedelta(days=3))
    before, after = change - timedelta(days=2), change + timedelta(days=2)
    return [(datetime.combine(d, time(6), SINGAPORE).astimezone(UTC),
             datetime.combine(d, time(23), SINGAPORE).astimezone(UTC)) for d in (before, after)]


def _seed(engine) -> int:
    """A posting whose rounds only the Los Angeles and London people can staff, and a loop with windows."""
    with make_session_factory(engine)() as session:
        competencies = {}
        for slug, name in (("runtime-systems", "Runtime systems"), ("partner-empathy", "Partner empathy")):
            competencies[slug] = Competency(slug=slug, name=name, category=CompetencyCategory.TECHNICAL)
            session.add(competencies[slug])
        session.flush()
        posting = Posting(title="Staff Runtime Engineer", team="Runtime", location="Singapore / remote")
        posting.competencies = [PostingCompetency(competency_id=c.id, state=SelectionState.ACCEPTED,
                                                  priority=Priority.MUST_HAVE, required_coverage=1)
                                for c in competencies.values()]
        session.add(posting)
        session.flush()
        version = PlanVersion(posting_id=posting.id, number=1, snapshot=ROUNDS)
        session.add(version)
        for name, zone, hours, slug in PEOPLE:
            session.add(Interviewer(
                name=name, email=f"{name.split()[0].lower()}@runtime.example", team="runtime", timezone=zone,
                work_start=hours[0], work_end=hours[1], max_per_day=3, max_per_week=6,
                feed_token=secrets.token_urlsafe(16),
                qualifications=[Qualification(competency_id=competencies[slug].id, level=TrainingLevel.QUALIFIED)]))
        session.flush()
        # The coordinator typed a London zone; the candidate's browser knows better.
        loop = Loop(posting_id=posting.id, candidate=Candidate(name="Wei Ling Tan", email="weiling@cand.example",
                                                               timezone="Europe/London"),
                    plan_version_id=version.id, hiring_team="runtime", max_gap_minutes=60,
                    video_url="https://meet.example/weiling", location="")
        loop.windows = [LoopWindow(start=s, end=e) for s, e in _windows()]
        session.add(loop)
        session.commit()
        return loop.id


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_candidate_in_singapore_picks_the_second_time_and_gets_the_itinerary(chromium, live_server, live_db, size):
    """Coordinator sends the link; the candidate opens it in Singapore, picks the second time, sees the itinerary;
    the outbox holds one REQUEST per interviewer and the itinerary; reopening shows the booking; axe passes."""
    loop_id = _seed(live_db)
    viewport = {"width": 1360, "height": 900} if size == "desktop" else {"width": 375, "height": 812}

    coordinator = chromium.new_context(base_url=live_server, viewport=viewport)
    page = coordinator.new_page()
    page.set_default_timeout(20000)
    sign_in(page, "coordinator@demo.test")
    page.goto(f"/coordinator/loops/{loop_id}")
    page.get_by_role("link", name="Send a link to the candidate").click()
    page.wait_for_load_state("networkidle")
    assert_accessible(page)
    page.get_by_role("button", name="Email it to weiling@cand.example").click()
    page.wait_for_load_state("networkidle")
    assert "Link emailed to weiling@cand.example" in page.locator(".flashes").inner_text()
    assert page.get_by_role("button", name="Copy link").is_visible()
    assert_accessible(page)
    screenshot(page, f"candidate-coordinator-link-{size}")
    coordinator.close()

    with make_session_factory(live_db)() as session:
        email = session.scalar(select(OutboxMessage).where(OutboxMessage.kind == "candidate_link"))
        url = re.search(r"https?://\S+/c/\S+", email.body_text).group(0)
    path = url.split(live_server, 1)[1]

    candidate = chromium.new_context(base_url=live_server, viewport=viewport, timezone_id="Asia/Singapore",
                                     locale="en-SG")
    page = candidate.new_page()
    page.set_default_timeout(20000)
    page.goto(path)
    # The browser's zone replaces the coordinator's guess (the page reloads itself once).
    page.wait_for_function("document.querySelector('.zone-form') && "
                           "!document.querySelector('form[data-detect-zone]')")
    assert "Every time on this page is in Asia/Singapore" in page.locator(".zone-form").inner_text()
    body = page.locator("main").inner_text()
    assert "Staff Runtime Engineer" in body and "Runtime systems" in body and "Working with partners" in body
    for name, *_ in PEOPLE:
        assert name not in page.content()
    assert "Secret question" not in page.content()
    assert_accessible(page)
    screenshot(page, f"candidate-times-{size}")

    slots = page.locator("label.slot")
    assert slots.count() >= 2
    second = page.locator("input.slot-input").nth(1).get_attribute("value")
    shown = slots.nth(1).locator(".slot-start").inner_text()
    assert datetime.fromisoformat(second).astimezone(SINGAPORE).strftime("%H:%M") == shown
    slots.nth(1).click()
    page.get_by_role("button", name="Book this time").click()
    page.wait_for_load_state("networkidle")
    assert "Your interviews are booked" in page.locator(".flashes").inner_text()
    itinerary = page.locator(".itinerary").inner_text()
    assert shown in itinerary and "https://meet.example/weiling" in itinerary
    assert_accessible(page)
    screenshot(page, f"candidate-itinerary-{size}")

    with make_session_factory(live_db)() as session:
        loop = session.get(Loop, loop_id)
        assert loop.status.value == "scheduled" and loop.candidate.timezone == "Asia/Singapore"
        interviews = sorted(loop.interviews, key=lambda i: i.start)
        assert interviews[0].start == datetime.fromisoformat(second)
        messages = list(session.scalars(select(OutboxMessage).where(OutboxMessage.loop_id == loop_id)))
        requests = Counter(m.recipient_email for m in messages if m.kind == "invite" and m.method == "REQUEST")
        panel = {s.interviewer.email for i in interviews for s in i.seats}
        assert set(requests) == panel and set(requests.values()) == {1}
        assert panel & {"rosa@runtime.example", "theo@runtime.example"}
        assert panel & {"imogen@runtime.example", "callum@runtime.example"}
        itinerary_rows = [m for m in messages if m.kind == "itinerary"]
        assert len(itinerary_rows) == 2 and {m.recipient_email for m in itinerary_rows} == {"weiling@cand.example"}
        # The booked schedule passes the independent validator (working hours in Los Angeles and London).
        built = build_offer_problem(session, loop, [(w.start, w.end) for w in loop.windows], utcnow())
        items = [{"round": i.round_key, "start": i.start.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "end": i.end.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "interviewers": [f"p{s.interviewer_id}" for s in i.seats], "trainees": []} for i in interviews]
        errors = validate(built.problem, {"loops": [{"id": f"loop{loop_id}", "status": "scheduled",
                                                     "interviews": items}], "stats": {}})
        assert [e for e in errors if not e.startswith("stats.")] == []

    page.goto(path)
    assert "Your itinerary" in page.locator("main").inner_text()
    page.get_by_role("link", name="Move to another time").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_role("button", name="Move my interviews to this time").is_visible()
    page.get_by_text("Cancel my interviews").first.click()
    assert page.get_by_role("button", name="Cancel my interviews").is_visible()
    assert_accessible(page)
    screenshot(page, f"candidate-reopened-{size}")

    page.goto(path[:-4] + "abcd")
    assert "This link does not work" in page.locator("main").inner_text()
    assert_accessible(page)
    candidate.close()
