"""A paraphrased posting in a real browser: the specific suggestion, its runner-up, and the one-click switch."""

from __future__ import annotations

from pathlib import Path

from axeutil import assert_accessible
from browserutil import screenshot, sign_in
from playwright.sync_api import expect

TEXT = (Path(__file__).parents[1] / "core/extraction/postings/paraphrased-inference-engineer.txt").read_text("utf-8")


def test_switch_a_suggestion_to_its_runner_up(page):
    """Pre-silicon feedback is suggested for its paraphrase; Customer ownership switches to its runner-up."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/postings/new")
    page.get_by_label("Title").fill("Staff Engineer, Inference Chips")
    page.get_by_label("Posting text").fill(TEXT)
    page.get_by_role("button", name="Save and suggest competencies").click()
    expect(page.locator(".flash-success")).to_contain_text("suggested from the text")
    suggested = page.locator("#suggested .sel-card")
    expect(suggested.filter(has_text="Pre-silicon feedback")).to_have_count(1)
    expect(suggested.filter(has_text="Mentoring")).to_have_count(1)
    card = suggested.filter(has=page.get_by_role("heading", name="Customer ownership", exact=True))
    expect(card.locator(".sel-alt")).to_contain_text("Also close: Ownership and accountability")
    evidence = card.locator(".evidence li").first.inner_text()
    assert_accessible(page)
    screenshot(page, "posting-runner-up")

    card.get_by_role("button", name="Switch this suggestion to Ownership and accountability").click()
    expect(page.locator(".flash-success")).to_contain_text("Switched to Ownership and accountability")
    switched = page.locator("#suggested .sel-card").filter(
        has=page.get_by_role("heading", name="Ownership and accountability", exact=True)
    )
    expect(switched).to_have_count(1)
    expect(switched.locator(".evidence li").first).to_have_text(evidence)
    expect(switched.locator(".sel-alt")).to_contain_text("Also close: Customer ownership")
    expect(page.locator("#suggested .sel-card h3", has_text="Customer ownership")).to_have_count(0)
    assert_accessible(page)
    screenshot(page, "posting-runner-up-switched")
