"""In a real browser: coverage that is not 'Covered', a cancelled round and booking it again, errors brought into
view, the round-order option, the interviewer's own availability, the demo's past loop in the evidence view."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from axeutil import assert_accessible
from browserutil import screenshot, sign_in


def _in_view(page, selector: str) -> bool:
    """Whether the element's box lies inside the viewport."""
    return page.evaluate("""(s) => { const r = document.querySelector(s).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight; }""", selector)


def test_manager_dashboard_and_evidence_of_the_past_loop(page):
    """The dashboard counts and orders postings; the evidence view shows last week's loop, columns in time order."""
    sign_in(page, "manager@demo.test")
    page.goto("/manager/")
    tiles = page.locator(".summary-tiles").inner_text()
    assert "with every must-have covered" in tiles
    assert_accessible(page)
    screenshot(page, "coordfix-manager-home")
    page.get_by_role("link", name=re.compile("Senior ML Compiler Engineer")).click()
    page.wait_for_load_state("networkidle")
    assert_accessible(page)
    screenshot(page, "coordfix-manager-posting")
    page.goto(page.url + "/evidence")
    riley = page.get_by_role("region", name="Evidence for Riley Summers")
    assert "scorecard missing from" in riley.inner_text()
    heads = riley.locator("thead th").all_inner_texts()[1:-1]
    assert heads[0].startswith("Compiler design deep-dive") and heads[-1].startswith("Hiring manager")
    assert_accessible(page)
    screenshot(page, "coordfix-evidence")


def test_cancel_a_round_then_book_it_again(page):
    """Cancelling the demo loop's compiler round leaves compiler design short; the loop page says so and offers
    to book the round again, which the coordinator does."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/loops?status=scheduled")
    page.get_by_role("link", name="Alex Chen").click()
    page.wait_for_load_state("networkidle")
    row = page.locator("tr", has_text="Pre-silicon review")
    row.get_by_text("Cancel…").click()
    row.get_by_label(re.compile("Why is")).fill("Panel member out sick")
    row.get_by_role("button", name="Cancel interview").click()
    page.wait_for_load_state("networkidle")
    warning = page.locator(".coverage-gap").inner_text()
    assert "is now assessed in 1 of 2 required rounds" in warning
    assert_accessible(page)
    screenshot(page, "coordfix-loop-cancelled-round")
    page.get_by_role("link", name="Book 'Pre-silicon review' again").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_role("heading", level=1).inner_text() == "Book Pre-silicon review again"
    assert page.locator("input[name=option]").count() >= 1
    assert_accessible(page)
    screenshot(page, "coordfix-rebook")
    page.get_by_role("button", name="Book this time").click()
    page.wait_for_load_state("networkidle")
    assert "booked again" in page.locator(".flashes").inner_text()
    assert page.locator(".coverage-gap").count() == 0
    screenshot(page, "coordfix-loop-rebooked")


def test_errors_come_into_view(page):
    """An invalid add-round answers scrolled to the form with the field focused; an error in the new-loop
    form's More options opens it and focuses the field; the windows page has the round-order option."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/postings")
    page.get_by_role("link", name=re.compile("Senior ML Compiler Engineer")).first.click()
    page.get_by_role("link", name="Loop plan", exact=True).click()
    page.wait_for_load_state("networkidle")
    form = page.locator("#add-round")
    form.get_by_label("Round name").fill("")
    form.get_by_role("button", name=re.compile("Add round")).click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith("#add-round")
    assert _in_view(page, "#add-round [aria-invalid=true]")
    assert page.evaluate("document.activeElement.getAttribute('aria-invalid')") == "true"
    assert_accessible(page)
    screenshot(page, "coordfix-add-round-error")

    page.goto("/coordinator/loops/new")
    page.get_by_label("Candidate name").fill("Noa Levi")
    page.get_by_label("Candidate email").fill("noa@example.com")
    page.get_by_label("Candidate time zone").fill("Europe/Berlin")
    page.get_by_label("Window 1 day").fill("2031-01-07")
    page.get_by_label("Window 1 from").fill("09:00")
    page.get_by_label("Window 1 to").fill("17:00")
    page.locator("details.more summary").click()
    page.get_by_label("Video link").fill("meet.example/noa")
    page.locator("details.more summary").click()  # closed again before submitting
    page.get_by_role("button", name="Create loop").click()
    page.wait_for_load_state("networkidle")
    assert page.locator("details.more").get_attribute("open") is not None
    assert "The video link must start with https://." in page.locator("details.more").inner_text()
    assert page.evaluate("document.activeElement.id") == "video_url"
    assert_accessible(page)
    screenshot(page, "coordfix-new-loop-error")
    page.get_by_label("Video link").fill("https://meet.example/noa")
    page.get_by_label("Rounds may take place in any order").check()
    page.get_by_role("button", name="Create loop").click()
    page.wait_for_load_state("networkidle")
    assert "any order" in page.locator(".kv").first.inner_text()
    page.get_by_role("link", name="Edit windows").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_label("Rounds may take place in any order").is_checked()
    assert_accessible(page)
    screenshot(page, "coordfix-windows-order")


def test_interviewer_sets_hours_and_imports_busy_time(page, tmp_path):
    """Jordan Park changes his working hours (an error first, shown in place) and imports an .ics calendar."""
    sign_in(page, "interviewer@demo.test")
    page.goto("/interviewer/")
    section = page.get_by_role("region", name="My availability")
    assert "set by the recruiting coordinator" in section.inner_text()
    section.get_by_label("Working hours end").fill("07:00")
    section.get_by_role("button", name="Save working hours").click()
    page.wait_for_load_state("networkidle")
    section = page.get_by_role("region", name="My availability")
    assert "must be after they start" in section.inner_text()
    assert page.evaluate("document.activeElement.id") == "work_end"
    screenshot(page, "coordfix-availability-error")
    section.get_by_label("Working hours end").fill("17:30")
    section.get_by_role("button", name="Save working hours").click()
    page.wait_for_load_state("networkidle")
    assert "working hours are saved" in page.locator(".flashes").inner_text()
    calendar = tmp_path / "jordan.ics"
    day = (datetime.now(UTC) + timedelta(days=3)).strftime("%Y%m%d")
    calendar.write_bytes(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a@x\r\n"
                          f"DTSTAMP:20260101T000000Z\r\nDTSTART:{day}T170000Z\r\nDTEND:{day}T180000Z\r\n"
                          "RRULE:FREQ=WEEKLY;COUNT=2\r\nSUMMARY:Dentist\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").encode())
    section = page.get_by_role("region", name="My availability")
    section.get_by_label("Calendar file (.ics)").set_input_files(str(calendar))
    section.get_by_label("Import the next").select_option("365")
    section.get_by_role("button", name="Import busy time").click()
    page.wait_for_load_state("networkidle")
    assert "Imported 2 busy blocks from 'jordan'" in page.locator(".flashes").inner_text()
    assert "2 blocks" in page.get_by_role("region", name="My availability").inner_text()
    assert_accessible(page)
    screenshot(page, "coordfix-availability")


def test_interviewer_form_names_every_error_at_once(page):
    """Three wrong fields on the add-interviewer form: three sentences after one submit."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/interviewers/new")
    page.get_by_label("Name").fill("Test Person")
    page.get_by_label("Email").fill("nope")
    page.get_by_label("Time zone").fill("Mars/Olympus")
    page.get_by_label("Working hours start").fill("18:00")
    page.get_by_label("Working hours end").fill("09:00")
    page.get_by_role("button", name="Add interviewer").click()
    page.wait_for_load_state("networkidle")
    errors = page.locator(".error").all_inner_texts()
    assert len(errors) >= 3, errors
    assert_accessible(page)
    screenshot(page, "coordfix-pool-form-errors")
