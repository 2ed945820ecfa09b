"""The audit page in Chromium after the calendar side has acted on the demo: an interviewer declines by mail,
a candidate books through their link, a coordinator switches a suggestion to its runner-up."""

from __future__ import annotations

from axeutil import assert_accessible
from browserutil import screenshot, sign_in
from loopworld import SETTINGS
from replyutil import reply_calendar, reply_email
from sqlalchemy import func, select

from planner.db import make_session_factory, utcnow
from planner.models import (
    Candidate,
    Competency,
    InboundOutcome,
    Interview,
    InterviewStatus,
    Loop,
    OutboxMessage,
    PlanVersion,
    Posting,
    PostingCompetency,
    Priority,
    SeatStatus,
    SelectionState,
    User,
)
from planner.services import candidate_booking, candidate_links, replies, runner_ups
from planner.services.candidate_offers import OfferSettings, get_offers

OFFERS = OfferSettings(cache_seconds=0)


def _decline_by_mail(session) -> str:
    """The first upcoming demo interview's first interviewer declines from their calendar; returns their name."""
    interview = session.scalar(select(Interview).where(Interview.status == InterviewStatus.SCHEDULED,
                                                       Interview.start > utcnow()).order_by(Interview.start))
    person = next(s.interviewer for s in interview.seats if s.status == SeatStatus.ACTIVE)
    request = session.scalar(select(OutboxMessage.ics).where(
        OutboxMessage.interview_id == interview.id, OutboxMessage.method == "REQUEST",
        func.lower(OutboxMessage.recipient_email) == person.email.lower()).order_by(OutboxMessage.id.desc()))
    calendar = reply_calendar(request, person.email, "DECLINED", now=utcnow(), comment="Off sick that week")
    raw = reply_email(calendar, sender=f"{person.name} <{person.email}>", organizer=SETTINGS.organizer_email,
                      subject="Declined: interview")
    row = replies.process_message(session, raw, source="imap", now=utcnow())
    assert row.outcome == InboundOutcome.APPLIED, row.reason
    return person.name


#: A one-round plan the demo's mentors can staff on most days (the demo's own drafts are long loops).
ROUND = {"key": "mentoring", "name": "Mentoring chat", "kind": "behavioural", "minutes": 45, "interviewers": 1,
         "focus_questions": [], "min_outside_team": 0, "max_trainees": 0,
         "competencies": [{"slug": "mentoring", "focus": "primary"}]}


def _draft_loop(session) -> Loop:
    """A new posting needing mentoring, its one-round plan published, and a draft loop without windows."""
    mentoring = session.scalar(select(Competency).where(Competency.slug == "mentoring"))
    posting = Posting(title="Engineering Mentor", team="Neuron Compiler")
    posting.competencies.append(PostingCompetency(competency_id=mentoring.id, state=SelectionState.ACCEPTED,
                                                  priority=Priority.MUST_HAVE, required_coverage=1))
    session.add(posting)
    session.flush()
    version = PlanVersion(posting_id=posting.id, number=1, snapshot=[ROUND])
    session.add(version)
    session.flush()
    loop = Loop(posting_id=posting.id, plan_version_id=version.id, hiring_team="neuron-compiler",
                candidate=Candidate(name="Riley Quinn", email="riley@cand.example", timezone="Europe/London"))
    session.add(loop)
    session.commit()
    return loop


def _candidate_books(session, coordinator_id: int) -> str:
    """A coordinator makes a link for a draft loop; the candidate books its first offered time; returns their name."""
    loop = _draft_loop(session)
    issued = candidate_links.issue_link(session, loop.id, actor_id=coordinator_id, now=utcnow(), lifetime_days=7)
    offered = get_offers(session, loop, issued.link.offer_horizon, now=utcnow(), settings=OFFERS)
    assert offered.times, "no demo mentor is free in the coming two weeks"
    candidate_booking.book(session, issued.link.id, issued.secret, offered.times[0].start, now=utcnow(),
                           settings=OFFERS, mail=SETTINGS)
    return loop.candidate.name


def _switch(session, coordinator_id: int) -> tuple[str, str]:
    selection = session.scalar(select(PostingCompetency).where(
        PostingCompetency.state == SelectionState.SUGGESTED, PostingCompetency.runner_up_id.is_not(None))
        .order_by(PostingCompetency.id))
    before, after = selection.competency.name, selection.runner_up.name
    runner_ups.switch_to_runner_up(session, selection.posting_id, selection.id, actor_id=coordinator_id)
    return before, after


def test_the_audit_page_after_a_decline_by_mail_a_booking_and_a_switch(page, live_db):
    """All three read as sentences with the right "who"; the kind filter finds each under its own kind."""
    with make_session_factory(live_db)() as session:
        coordinator = session.scalar(select(User).where(User.email == "coordinator@demo.test"))
        person = _decline_by_mail(session)
        candidate = _candidate_books(session, coordinator.id)
        before, after = _switch(session, coordinator.id)
        coordinator_name = coordinator.name
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/audit")
    table = page.locator(".audit-table")
    decline = table.locator("tr[data-action='reply_recorded']")
    assert decline.count() == 1 and f"{person} declined " in decline.inner_text()
    assert "interviewer via calendar" in decline.inner_text() and "Off sick that week" in decline.inner_text()
    booked = table.locator("tr[data-action='candidate_booked']")
    assert f"{candidate} booked " in booked.inner_text() and "\tcandidate\t" in booked.inner_text()
    switched = table.locator("tr[data-action='posting.competency.switch']")
    assert f"Switched {before} to its runner-up {after}" in switched.inner_text()
    assert coordinator_name in switched.inner_text()
    assert table.locator("tr[data-action='loop_scheduled']").count() == 1  # the demo's own, not the booking
    assert_accessible(page)
    screenshot(page, "audit-calendar-all")

    for key, label, action in (("answers", "Interviewers' answers", "reply_recorded"),
                               ("candidates", "Candidate bookings", "candidate_booked"),
                               ("postings", "Postings and their competencies", "posting.competency.switch")):
        page.get_by_label("Kind of change").select_option(label=label)
        page.get_by_role("button", name="Filter").click()
        page.wait_for_load_state("networkidle")
        assert table.locator(f"tr[data-action='{action}']").count() == 1, label
        assert f"kind={key}" in page.url
        screenshot(page, f"audit-calendar-{key}")
    page.goto("/coordinator/audit?kind=candidates")
    assert [r.get_attribute("data-action") for r in table.locator("tr[data-entry]").all()] == [
        "candidate_booked", "candidate_link_created"]
    assert_accessible(page)
