"""Scorecards and the evidence view in Chromium: Jordan writes, saves and submits; the manager reads the gaps."""

from __future__ import annotations

import secrets
from datetime import timedelta

from browserutil import screenshot, sign_in
from sqlalchemy import select

from planner.db import make_session_factory, utcnow
from planner.models import (
    Candidate,
    Competency,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    LoopStatus,
    PlanVersion,
    Rating,
    Scorecard,
    Seat,
    SeatRole,
)


def _past_loop(engine) -> dict:
    """Kim Lee's demo loop, held two days ago from the published plan: Jordan and a colleague in round 1 (with a
    trainee), the last round cancelled; the colleague, the trainee and round 2's assessor already submitted."""
    with make_session_factory(engine)() as session:
        jordan = session.scalar(select(Interviewer).where(Interviewer.email == "interviewer@demo.test"))
        others = session.scalars(select(Interviewer).where(Interviewer.id != jordan.id, Interviewer.active)
                                 .order_by(Interviewer.id).limit(3)).all()
        loop = session.scalar(select(Loop).join(Candidate, Candidate.id == Loop.candidate_id)
                              .where(Candidate.email == "kim.lee@example.com"))
        snapshot = session.get(PlanVersion, loop.plan_version_id).snapshot
        comps = {c.slug: c for c in session.scalars(select(Competency))}
        start = (utcnow() - timedelta(days=2)).replace(hour=14, minute=0, second=0, microsecond=0)
        interviews = []
        for number, rnd in enumerate(snapshot):
            detail = {"kind": rnd["kind"], "minutes": rnd["minutes"], "focus_questions": rnd.get("focus_questions", []),
                      "competencies": [{"slug": c["slug"], "name": comps[c["slug"]].name, "focus": c["focus"]}
                                       for c in rnd["competencies"]]}
            begin = start + timedelta(minutes=75 * number)
            last = number == len(snapshot) - 1
            interview = Interview(loop_id=loop.id, round_key=rnd["key"], round_name=rnd["name"], round_detail=detail,
                                  start=begin, end=begin + timedelta(minutes=rnd["minutes"]),
                                  uid=f"browser-{secrets.token_hex(6)}@demo.test",
                                  status=InterviewStatus.CANCELLED if last else InterviewStatus.SCHEDULED)
            people = [jordan, others[0]] if number == 0 else [others[number % 2]]
            interview.seats = [Seat(interviewer_id=p.id, role=SeatRole.ASSESSOR) for p in people]
            if number == 0:
                interview.seats.append(Seat(interviewer_id=others[2].id, role=SeatRole.TRAINEE,
                                            training_level="shadow"))
            session.add(interview)
            interviews.append(interview)
        loop.status = LoopStatus.SCHEDULED
        session.flush()

        def submit(interview, person, score, notes):
            card = Scorecard(interview_id=interview.id, interviewer_id=person.id, notes=notes,
                             submitted_at=interview.end + timedelta(hours=1))
            card.ratings = [Rating(competency_id=comps[c["slug"]].id, score=score)
                            for c in interview.round_detail["competencies"]]
            session.add(card)

        submit(interviews[0], others[0], 3, "Clear on SSA and cost models; asked good questions.")
        submit(interviews[0], others[2], 2, "Trainee: I would want more depth on legality.")
        submit(interviews[1], others[1], 4, "Owned a customer escalation end to end.")
        session.commit()
        return {"interview": interviews[0].id, "round": interviews[0].round_name, "posting": loop.posting_id,
                "colleague": others[0].name, "trainee": others[2].name,
                "slugs": [c["slug"] for c in interviews[0].round_detail["competencies"]]}


def test_interviewer_submits_scorecard_and_manager_sees_evidence(page, live_db):
    """Jordan drafts then submits a scorecard, then reads the panel's; the manager's evidence view shows the gaps."""
    data = _past_loop(live_db)
    sign_in(page, "interviewer@demo.test")
    due = page.locator(f"[data-due='{data['interview']}']")
    assert "Kim Lee" in due.inner_text()
    screenshot(page, "interviewer-scorecards-due")
    due.get_by_role("link", name="Write scorecard").click()
    page.wait_for_load_state("networkidle")
    assert "Hidden until you submit" in page.locator(".hidden-note").inner_text()
    assert data["colleague"] not in page.locator(".panel-section").inner_text().split("submitted")[-1]
    first = page.locator(f"fieldset[data-competency='{data['slugs'][0]}']")
    first.get_by_role("radio", name="4 Strong yes").check()
    page.get_by_label("Notes").fill("Designed a loop-fusion pass; explained legality with examples.")
    page.get_by_role("button", name="Save draft").click()
    page.wait_for_load_state("networkidle")
    assert "Draft saved" in page.locator(".flash-success").inner_text()
    assert first.locator("input[value='4']").is_checked()
    for slug in data["slugs"][1:]:
        page.locator(f"fieldset[data-competency='{slug}']").get_by_role("radio", name="3 Yes", exact=True).check()
    screenshot(page, "scorecard-draft")

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Submit scorecard").click()
    page.wait_for_load_state("networkidle")
    assert "Scorecard submitted" in page.locator(".flash-success").inner_text()
    assert page.locator("input[type=radio]").count() == 0
    colleague = page.locator(f"[data-panel-card='{data['colleague']}']")
    assert "Clear on SSA" in colleague.inner_text()
    assert "Training scorecard, not counted" in page.locator(f"[data-panel-card='{data['trainee']}']").inner_text()
    screenshot(page, "scorecard-submitted")
    page.goto("/interviewer/")
    assert page.locator(f"[data-due='{data['interview']}']").count() == 0

    page.context.clear_cookies()
    sign_in(page, "manager@demo.test")
    page.goto(f"/manager/postings/{data['posting']}")
    page.get_by_role("link", name="Evidence by candidate").click()
    page.wait_for_load_state("networkidle")
    kim = page.locator("section.evidence-loop", has_text="Kim Lee")
    gaps = kim.locator("ul.gaps").inner_text()
    assert "interview cancelled, no evidence" in gaps or "was cancelled" in gaps
    assert "Jordan" not in gaps  # Jordan submitted: no missing scorecard from him
    assert kim.locator("td.ev-scored").count() >= 2
    assert "Training scorecards (1)" in kim.inner_text()
    screenshot(page, "manager-evidence")
