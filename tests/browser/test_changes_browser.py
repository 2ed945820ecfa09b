"""Fixing the demo's scheduled loop in a real browser: replace an interviewer, reschedule, re-place, cancel."""

from __future__ import annotations

import re

from browserutil import screenshot, sign_in


def _open_scheduled_loop(page) -> None:
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/loops?status=scheduled")
    page.get_by_role("link", name="Alex Chen").click()
    page.wait_for_load_state("networkidle")


def test_coordinator_replaces_an_interviewer_and_sees_the_new_panel_and_messages(page):
    """Replace -> ranked substitutes with reasons -> Use X -> the loop shows X on the panel and the messages."""
    _open_scheduled_loop(page)
    screenshot(page, "changes-loop-before")
    replace_links = page.get_by_role("link", name=re.compile(r"^Replace "))
    assert replace_links.count() >= 1
    chosen = leaving = ""
    for index in range(replace_links.count()):
        link = page.get_by_role("link", name=re.compile(r"^Replace ")).nth(index)
        leaving = link.get_attribute("aria-label").removeprefix("Replace ").split(" in ")[0]
        link.click()
        page.wait_for_load_state("networkidle")
        assert page.get_by_role("heading", level=1).inner_text() == f"Replace {leaving}"
        uses = page.get_by_role("button", name=re.compile(r"^Use (?!the new time)"))
        if uses.count():
            screenshot(page, "changes-replace-options")
            assert "this week" in page.locator(".options-list").inner_text()
            chosen = uses.first.inner_text().removeprefix("Use ").strip()
            page.get_by_label("Reason").fill("declined: conference travel")
            uses.first.click()
            page.wait_for_load_state("networkidle")
            break
        page.go_back()
        page.wait_for_load_state("networkidle")
    assert chosen, "no seat of the demo loop had a substitute"
    assert "Panel changed" in page.locator(".flashes").inner_text()
    table = page.locator(".interviews-table")
    assert chosen in table.inner_text()
    assert page.locator(".seat-removed", has_text=leaving).count() >= 1
    messages = page.get_by_role("region", name="Calendar messages").inner_text()
    # The demo's invites were never sent (no mail server): the person taken off had heard nothing, so their
    # invite is withdrawn and no CANCEL is queued; the panel gets the REQUEST.
    assert "reassign" in messages and "REQUEST" in messages
    screenshot(page, "changes-replaced")


def test_coordinator_reschedules_replaces_the_place_and_cancels_an_interview(page):
    """Reschedule to a listed start, set a video link for all, cancel one: the view shows each result."""
    _open_scheduled_loop(page)
    page.get_by_role("link", name=re.compile(r"^Reschedule ")).last.click()
    page.wait_for_load_state("networkidle")
    screenshot(page, "changes-reschedule")
    move = page.get_by_role("button", name="Move the interview")
    if move.count():
        page.get_by_label("New start").select_option(index=0)
        move.click()
        page.wait_for_load_state("networkidle")
        assert "moved" in page.locator(".flashes").inner_text()
    else:
        page.get_by_role("link", name="Back").click()
    page.get_by_role("link", name=re.compile(r"^Change place of ")).first.click()
    page.get_by_label("Video link").fill("https://meet.example/alex-chen")
    page.get_by_label("Every upcoming interview of the loop").check()
    screenshot(page, "changes-place")
    page.get_by_role("button", name="Save and send updates").click()
    page.wait_for_load_state("networkidle")
    assert "updated for everyone invited" in page.locator(".flashes").inner_text()
    assert "https://meet.example/alex-chen" in page.locator(".interviews-table").inner_text()
    first = page.locator(".interviews-table tbody tr").first
    round_name = first.locator("td strong").first.inner_text()
    first.locator("summary", has_text="Cancel").click()
    first.get_by_label(re.compile("Why is")).fill("Hiring manager covers it in the debrief")
    first.get_by_role("button", name="Cancel interview").click()
    page.wait_for_load_state("networkidle")
    assert "cancelled" in page.locator(".flashes").inner_text()
    assert "Hiring manager covers it in the debrief" in page.locator("tr.cancelled").inner_text()
    assert round_name in page.locator(".coverage-gap").inner_text()
    screenshot(page, "changes-cancelled")
