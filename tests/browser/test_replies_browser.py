"""Calendar answers in a real browser: an interviewer declines, the coordinator replaces, the inbox and uploads."""

from __future__ import annotations

import re

from axeutil import assert_accessible
from browserutil import screenshot, sign_in
from replyutil import reply_calendar, reply_email
from sqlalchemy import select

from planner.db import make_session_factory, utcnow
from planner.models import Interview, Interviewer, OutboxMessage, SeatRole, SeatStatus
from planner.services.answers import answer_invite


def _sole_assessors(session) -> list[tuple[Interview, Interviewer]]:
    """Upcoming interviews with one assessor (the demo's past loop is over), each with that assessor."""
    found = []
    for interview in session.scalars(select(Interview).where(Interview.start > utcnow()).order_by(Interview.start)):
        assessors = [s for s in interview.seats if s.role == SeatRole.ASSESSOR and s.status == SeatStatus.ACTIVE]
        if len(assessors) == 1:
            found.append((interview, assessors[0].interviewer))
    assert found, "the demo loop has no round with a single assessor"
    return found


def _sole_assessor(session) -> tuple[Interview, Interviewer]:
    return _sole_assessors(session)[0]


def test_an_interviewer_declines_on_their_page(page):
    """Jordan Park opens "Decline…", gives a reason and declines; the card says so, with the reason."""
    sign_in(page, "interviewer@demo.test")
    page.goto("/interviewer/")
    card = page.locator("article.interview-card").filter(has=page.get_by_role("button", name="Accept")).first
    round_name = card.locator("h3").inner_text().split(" with ")[0]
    assert_accessible(page)
    screenshot(page, "replies-interviewer-before")
    card.locator("summary", has_text="Decline").click()
    card.get_by_label(re.compile("Why can't you do")).fill("I am on call for the compiler release that day.")
    screenshot(page, "replies-interviewer-declining")
    card.get_by_role("button", name="Decline the interview").click()
    page.wait_for_load_state("networkidle")
    assert f"You declined '{round_name}'" in page.locator(".flashes").inner_text()
    card = page.locator("article.interview-card", has_text=round_name).first
    assert "You declined" in card.inner_text()
    assert "I am on call for the compiler release that day." in card.inner_text()
    assert_accessible(page)
    screenshot(page, "replies-interviewer-declined")


def test_the_coordinator_sees_the_flag_and_replaces(page, live_db):
    """A decline shows on the overview ("X declined R, Tue 10:00") and on the loop with ranked substitutes;
    choosing the first replaces the person and the flag goes away."""
    with make_session_factory(live_db)() as session:
        interview, leaving = _sole_assessor(session)
        answer_invite(session, leaving.id, interview.id, "declined", "Out sick this week", actor_id=None,
                      now=utcnow())
        round_name, name = interview.round_name, leaving.name
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/")
    card = page.get_by_role("region", name=re.compile("Declines and new times"))
    assert re.search(rf"{name} declined {round_name}, \w{{3}} \d\d:\d\d", card.inner_text())
    assert_accessible(page)
    screenshot(page, "replies-overview-flag")
    card.get_by_role("link", name="Alex Chen").click()
    page.wait_for_load_state("networkidle")
    answers = page.get_by_role("region", name="Answers from the panel")
    assert f"{name} declined {round_name}" in answers.inner_text() and "Out sick this week" in answers.inner_text()
    assert page.locator('[data-answer="declined"]').count() == 1
    assert_accessible(page)
    screenshot(page, "replies-loop-flag")
    first = answers.get_by_role("button", name=re.compile(r"^Use ")).first
    joining = first.inner_text().removeprefix("Use ").strip()
    first.click()
    page.wait_for_load_state("networkidle")
    assert "Panel changed" in page.locator(".flashes").inner_text()
    assert f"{name} declined" not in page.get_by_role("region", name="Answers from the panel").inner_text()
    row = page.locator(".interviews-table tr", has_text=round_name)
    assert joining in row.inner_text() and row.locator(".seat-removed", has_text=name).count() == 1
    screenshot(page, "replies-loop-replaced")


def test_the_inbox_lists_uploaded_answers_with_their_outcome(page, live_db):
    """Upload a Tentative answer and a forged one on the loop page; the inbox lists both, newest first."""
    with make_session_factory(live_db)() as session:
        interview, person = _sole_assessor(session)
        ics = session.scalar(select(OutboxMessage.ics).where(OutboxMessage.interview_id == interview.id,
                                                             OutboxMessage.recipient_email == person.email))
        loop_id = interview.loop_id
    calendar = reply_calendar(ics, person.email, "TENTATIVE", now=utcnow(), comment="Might run late")
    good = reply_email(calendar, sender=person.email, organizer="recruiting@planner.example",
                       subject="Tentative: interview")
    forged = reply_email(calendar, sender="mallory@evil.example", organizer="recruiting@planner.example",
                         subject="Tentative: interview")
    sign_in(page, "coordinator@demo.test")
    page.goto(f"/coordinator/loops/{loop_id}")
    for name, raw in (("tentative.eml", good), ("forged.eml", forged)):
        page.locator("summary", has_text="Record an answer from a file").click()
        page.get_by_label("Calendar answer (.eml or .ics)").set_input_files(
            {"name": name, "mimeType": "message/rfc822", "buffer": raw})
        page.get_by_role("button", name="Record the answer").click()
        page.wait_for_load_state("networkidle")
        if name == "tentative.eml":
            assert f"Recorded: {person.name} tentatively accepted" in page.locator(".flashes").inner_text()
            assert page.locator('[data-answer="tentative"]').count() == 1
            screenshot(page, "replies-upload-recorded")
    assert "Not recorded. The message comes from mallory@evil.example" in page.locator(".flashes").inner_text()
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Inbox").click()
    page.wait_for_load_state("networkidle")
    rows = page.locator(".inbox-table tbody tr")
    assert rows.count() == 2
    assert "refused" in rows.nth(0).inner_text() and "mallory@evil.example" in rows.nth(0).inner_text()
    assert "applied" in rows.nth(1).inner_text() and "tentative" in rows.nth(1).inner_text()
    assert_accessible(page)
    screenshot(page, "replies-inbox")
    page.get_by_role("link", name=re.compile(r"^Refused")).click()
    page.wait_for_load_state("networkidle")
    assert page.locator(".inbox-table tbody tr").count() == 1
    assert_accessible(page)


def test_a_proposed_new_time_is_moved_to_from_the_loop_page(page, live_db):
    """An uploaded COUNTER shows on the loop page; "Move the round there" moves the round after re-checking."""
    from planner.services.changes import reschedule_options

    with make_session_factory(live_db)() as session:
        # The first single-assessor round that has another free time to propose.
        interview, person, start = next((i, p, options[0]) for i, p in _sole_assessors(session)
                                        if (options := reschedule_options(session, i.id, now=utcnow())))
        ics = session.scalar(select(OutboxMessage.ics).where(OutboxMessage.interview_id == interview.id,
                                                             OutboxMessage.recipient_email == person.email))
        loop_id, round_name, old, end = interview.loop_id, interview.round_name, interview.start, interview.end
    stamp = "%Y%m%dT%H%M%SZ"
    calendar = reply_calendar(ics, person.email, "TENTATIVE", now=utcnow(), comment="Earlier suits me better",
                              method="COUNTER")
    calendar = calendar.replace(f"DTSTART:{old:{stamp}}".encode(), f"DTSTART:{start:{stamp}}".encode()).replace(
        f"DTEND:{end:{stamp}}".encode(), f"DTEND:{start + (end - old):{stamp}}".encode())
    raw = reply_email(calendar, sender=person.email, organizer="recruiting@planner.example",
                      subject="New Time Proposed: interview", method="COUNTER")
    sign_in(page, "coordinator@demo.test")
    page.goto(f"/coordinator/loops/{loop_id}")
    page.locator("summary", has_text="Record an answer from a file").click()
    page.get_by_label("Calendar answer (.eml or .ics)").set_input_files(
        {"name": "counter.eml", "mimeType": "message/rfc822", "buffer": raw})
    page.get_by_role("button", name="Record the answer").click()
    page.wait_for_load_state("networkidle")
    assert f"{person.name} proposes a new time for '{round_name}'" in page.locator(".flashes").inner_text()
    proposal = page.locator(".proposal")
    assert f"{person.name} proposes" in proposal.inner_text() and "Earlier suits me better" in proposal.inner_text()
    assert_accessible(page)
    screenshot(page, "replies-loop-proposal")
    proposal.get_by_role("button", name="Move the round there").click()
    page.wait_for_load_state("networkidle")
    assert f"'{round_name}' moved to the proposed time" in page.locator(".flashes").inner_text()
    assert page.locator(".proposal").count() == 0
    with make_session_factory(live_db)() as session:
        assert session.get(Interview, interview.id).start == start
