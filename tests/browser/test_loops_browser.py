"""Loops in a real browser: schedule a demo loop (swap, confirm), the finished example, the hiring event."""

from __future__ import annotations

import re

from browserutil import screenshot, sign_in


def test_coordinator_schedules_a_loop_with_a_swap_and_confirms(page):
    """Schedule -> proposal with local times -> swap a seat -> confirm -> the loop shows its interviews."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/loops")
    assert page.get_by_role("heading", level=1).inner_text() == "Loops"
    screenshot(page, "loops-list")
    page.get_by_role("link", name="Sam Okafor").click()
    page.get_by_role("link", name="Schedule", exact=True).first.click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_role("heading", level=1).inner_text() == "Proposed schedule"
    timeline = page.locator(".timeline")
    assert "America/New_York" in timeline.inner_text()
    screenshot(page, "loop-proposal")
    swaps = page.get_by_role("link", name=re.compile(r"^Swap "))
    for index in range(swaps.count()):
        swaps.nth(index).click()
        page.wait_for_load_state("networkidle")
        region = page.get_by_role("region", name="Substitutes")
        uses = region.get_by_role("link", name=re.compile(r"^Use "))
        if uses.count():
            screenshot(page, "loop-swap-suggestions")
            chosen = uses.first.inner_text().removeprefix("Use ").strip()
            uses.first.click()
            page.wait_for_load_state("networkidle")
            assert chosen in page.locator(".timeline").inner_text()
            break
        page.get_by_role("link", name="Close").click()
    page.get_by_role("button", name="Confirm schedule").click()
    page.wait_for_load_state("networkidle")
    assert "Scheduled 6 interviews for Sam Okafor" in page.locator(".flashes").inner_text()
    assert page.locator("table tbody tr").count() == 6
    screenshot(page, "loop-scheduled")


def test_demo_has_a_finished_example_and_an_explained_unscheduled_loop(page):
    """The demo's scheduled loop shows its interviews; Kim Lee's proposal explains why it does not fit."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/loops?status=scheduled")
    page.get_by_role("link", name="Alex Chen").click()
    assert page.locator("table tbody tr").count() >= 1
    screenshot(page, "loop-demo-example")
    page.goto("/coordinator/loops")
    page.get_by_role("link", name="Kim Lee").click()
    page.get_by_role("link", name="Schedule", exact=True).first.click()
    page.wait_for_load_state("networkidle")
    status = page.locator(".unscheduled")
    if status.count():
        assert "not scheduled" in status.inner_text()
    screenshot(page, "loop-unscheduled")


def test_hiring_event_page_proposes_all_draft_loops(page):
    """The posting's 'Schedule all draft loops' shows each loop's timeline or reason and a confirm-all."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/loops")
    page.get_by_role("link", name="Senior ML Compiler Engineer, Neuron").first.click()
    page.get_by_role("link", name="Schedule all draft loops").click()
    page.wait_for_load_state("networkidle")
    assert page.locator(".batch-loop").count() == 2
    # Kim Lee's rounds cannot fit her windows; Sam Okafor's loop fits beside it (it once was lost there).
    assert "1 of 2 loops fit" in page.locator("main").inner_text()
    screenshot(page, "loops-hiring-event")
    page.get_by_role("button", name="Confirm all (1 schedule)").click()
    page.wait_for_load_state("networkidle")
    assert "Scheduled 1 loop (6 interviews)" in page.locator(".flashes").inner_text()
    screenshot(page, "loops-hiring-event-done")


def test_a_loop_fits_a_phone_screen(page):
    """On a 390-pixel phone the top bar wraps (Sign out stays on screen) and the loop page scrolls only down."""
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/loops?status=scheduled")
    page.get_by_role("link", name="Alex Chen").click()
    page.wait_for_load_state("networkidle")
    screenshot(page, "loop-phone")
    sign_out = page.get_by_role("button", name="Sign out").bounding_box()
    assert sign_out["x"] >= 0 and sign_out["x"] + sign_out["width"] <= 390
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone"
    assert page.locator(".loop-messages li").count() > 0
    page.goto("/coordinator/loops/new")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the new-loop form is {overflow}px wider than the phone"


def test_following_a_fix_on_the_windows_page_lets_the_loop_fit(page):
    """Kim Lee's rounds need 315 minutes and each of her two windows holds 300 with at most 60 minutes between
    rounds; her fix says to allow longer breaks. Clearing the limit on the windows page lets the loop spread
    over both windows, and Schedule then proposes it."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/loops")
    page.get_by_role("link", name="Kim Lee").click()
    page.get_by_role("link", name="Schedule", exact=True).first.click()
    page.wait_for_load_state("networkidle")
    assert "allow more than 60 minutes between rounds" in page.locator("main").inner_text()
    page.goto(page.url.split("/schedule")[0] + "/windows")
    assert page.get_by_role("heading", level=1).inner_text() == "Windows and longest break"
    field = page.get_by_label("Longest break between rounds (minutes)")
    assert field.input_value() == "60"
    field.fill("")
    screenshot(page, "loop-windows-break")
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state("networkidle")
    assert "Windows, break and round order saved." in page.locator(".flashes").inner_text()
    assert "no limit" in page.locator("main").inner_text()
    page.get_by_role("link", name="Schedule", exact=True).first.click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_role("heading", level=1).inner_text() == "Proposed schedule"
    screenshot(page, "loop-fits-after-fix")


def test_coordinator_drops_a_trainee_seat_adds_one_back_and_confirms(page):
    """Drop a proposed trainee -> the round says 'No trainee' -> Add a trainee from the free ones -> confirm keeps
    exactly the trainee seats shown; the page fits a phone with the trainee panel open."""
    page.set_viewport_size({"width": 1366, "height": 900})
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/loops")
    page.get_by_role("link", name="Sam Okafor").click()
    page.get_by_role("link", name="Schedule", exact=True).first.click()
    page.wait_for_load_state("networkidle")
    drops = page.get_by_role("button", name=re.compile(r"^Drop trainee "))
    seats = drops.count()
    assert seats >= 1, "the demo proposal seats trainees"
    label = drops.first.get_attribute("aria-label")
    trainee, round_name = re.fullmatch(r"Drop trainee (.+) from (.+)", label).groups()
    drops.first.click()
    page.wait_for_load_state("networkidle")
    assert f"{trainee} no longer sits in '{round_name}' as a trainee" in page.locator(".flashes").inner_text()
    assert page.get_by_role("button", name=re.compile(r"^Drop trainee ")).count() == seats - 1
    assert page.get_by_role("button", name=label).count() == 0
    screenshot(page, "loop-proposal-trainee-dropped")
    page.get_by_role("link", name=f"Add a trainee to {round_name}").click()
    page.wait_for_load_state("networkidle")
    region = page.get_by_role("region", name="Trainees")
    adds = region.get_by_role("button", name=re.compile(r"^Add "))
    assert adds.count() >= 1 and "training in" in region.inner_text()
    screenshot(page, "loop-proposal-trainee-options")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "loop-proposal-trainee-options-phone")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the proposal is {overflow}px wider than the phone"
    page.set_viewport_size({"width": 1366, "height": 900})
    chosen = adds.first.inner_text().removeprefix("Add ").strip()
    adds.first.click()
    page.wait_for_load_state("networkidle")
    assert f"{chosen} joins '{round_name}' as a trainee" in page.locator(".flashes").inner_text()
    assert page.get_by_role("button", name=f"Drop trainee {chosen} from {round_name}").count() == 1
    page.get_by_role("button", name="Confirm schedule").click()
    page.wait_for_load_state("networkidle")
    assert "Scheduled 6 interviews for Sam Okafor" in page.locator(".flashes").inner_text()
    row = page.locator("table tbody tr", has_text=round_name)
    assert chosen in row.inner_text() and "trainee" in row.inner_text()
    assert page.locator("table tbody .badge-info", has_text="trainee").count() == seats
