"""The round editor in a real browser: coverage reacts to edits, rounds are added, versions published."""

from __future__ import annotations

import re

from browserutil import screenshot, sign_in
from sqlalchemy import select

from planner.db import make_session_factory
from planner.models import Posting


def _posting_id(live_db) -> int:
    with make_session_factory(live_db)() as session:
        return session.scalar(select(Posting.id).order_by(Posting.id).limit(1))


def _panel_status(page, slug: str) -> str:
    return page.locator(f".coverage-panel tr[data-slug='{slug}'] .badge").last.inner_text().strip()


def test_removing_a_round_turns_its_competencies_thin_and_publishing_lists_the_change(page, live_db):
    """Removing the bar raiser (after confirming) makes mentoring thin at once; publishing shows the diff."""
    posting_id = _posting_id(live_db)
    sign_in(page, "coordinator@demo.test")
    page.goto(f"/coordinator/postings/{posting_id}/plan")
    assert _panel_status(page, "mentoring") == "Covered"
    assert "All 4 must-haves covered" in page.locator(".coverage-summary").inner_text()
    screenshot(page, "plans-editor")

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".round", has_text="Bar raiser").get_by_role("button", name="Remove").click()
    page.wait_for_load_state("networkidle")
    assert "Round 'Bar raiser' removed" in page.locator(".flash").inner_text()
    assert _panel_status(page, "mentoring") == "Thin"
    assert _panel_status(page, "customer-ownership") == "Thin"
    assert "2 of 4 must-haves short" in page.locator(".coverage-summary").inner_text()
    screenshot(page, "plans-after-remove")

    page.get_by_label("Version note").fill("Dropped the bar raiser for a trial")
    page.get_by_role("button", name=re.compile("Publish version 2")).click()
    page.wait_for_load_state("networkidle")
    assert "Version 2 published" in page.locator(".flash").inner_text()
    assert "Round 'Bar raiser' removed" in page.locator("#version-2").inner_text()


def test_adding_a_round_with_competencies_updates_coverage(page, live_db):
    """Filling the add-round form with a primary competency adds the round and counts it in the panel."""
    posting_id = _posting_id(live_db)
    sign_in(page, "coordinator@demo.test")
    page.goto(f"/coordinator/postings/{posting_id}/plan")
    form = page.locator("#add-round")
    form.get_by_label("Round name").fill("ML systems design")
    form.get_by_label("Kind").select_option("design")
    form.get_by_label("Duration (minutes)").fill("50")
    row = form.locator(".focus-row", has_text="Communication")
    row.locator("label.focus-primary").click()
    form.get_by_label("Focus questions").fill("Explain a trade-off to a customer.\nWhat did you measure?")
    form.get_by_role("button", name="Add round").click()
    page.wait_for_load_state("networkidle")
    assert "Round 'ML systems design' added" in page.locator(".flash").inner_text()
    new_round = page.locator(".round", has_text="ML systems design")
    assert "Communication" in new_round.locator(".chip-primary").inner_text()
    assert "(Communication" not in page.locator(".coverage-panel .issues").inner_text()
    screenshot(page, "plans-after-add")


def test_suggest_a_plan_previews_then_replaces_after_confirmation(page, live_db):
    """A suggestion is previewed first; accepting it (confirmed) replaces the rounds and covers must-haves."""
    posting_id = _posting_id(live_db)
    sign_in(page, "coordinator@demo.test")
    page.goto(f"/coordinator/postings/{posting_id}/plan")
    page.locator("#suggest").get_by_label("Time budget (minutes)").fill("240")
    page.get_by_role("button", name="Preview a suggestion").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_role("heading", name=re.compile("of 240 minutes")).is_visible()
    screenshot(page, "plans-suggestion")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name=re.compile("Replace the 6 current rounds")).click()
    page.wait_for_load_state("networkidle")
    assert "suggested rounds" in page.locator(".flash").inner_text()
    assert "All 4 must-haves covered" in page.locator(".coverage-summary").inner_text()


def test_a_round_nobody_can_staff_is_shown_until_it_gets_a_second_seat(page, live_db):
    """Nobody holds Compiler design and Communication together: the new one-seat round is flagged and the
    headline stops saying all is well; with a second seat a pair covers it and the flag goes away."""
    posting_id = _posting_id(live_db)
    sign_in(page, "coordinator@demo.test")
    page.goto(f"/coordinator/postings/{posting_id}/plan")
    form = page.locator("#add-round")
    form.get_by_label("Round name").fill("Compiler talk")
    for name in ("Compiler design", "Communication"):
        form.locator(".focus-row", has_text=name).first.locator("label.focus-primary").click()
    form.get_by_role("button", name="Add round").click()
    page.wait_for_load_state("networkidle")
    summary = page.locator(".coverage-summary").inner_text()
    assert "All 4 must-haves covered" not in summary and "1 round nobody can staff" in summary
    assert "Compiler talk" in summary
    issue = page.locator(".coverage-panel .issue-critical", has_text="Nobody can staff 'Compiler talk'")
    assert "no one is qualified in Compiler design and Communication together" in issue.inner_text()
    new_round = page.locator(".round", has_text="Compiler talk")
    assert new_round.locator(".badge-bad", has_text="Nobody can staff it").is_visible()
    screenshot(page, "plans-unstaffable-round")

    new_round.get_by_role("link", name="Edit").click()
    page.get_by_label("Interviewers").fill("2")
    page.get_by_role("button", name="Save round").click()
    page.wait_for_load_state("networkidle")
    assert "All 4 must-haves covered" in page.locator(".coverage-summary").inner_text()
    assert "can staff it" in page.locator(".round", has_text="Compiler talk").inner_text()
