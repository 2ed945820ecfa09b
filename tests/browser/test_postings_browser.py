"""Postings in a real browser: create from pasted text or an uploaded file, decide on suggestions."""

from __future__ import annotations

from browserutil import screenshot, sign_in
from playwright.sync_api import expect

POSTING = """Site Reliability Engineer, Payments

About the team
We run the payment platform that processes millions of transactions a day.

What you will do
- Own the reliability of our distributed systems and lead incident response for the payments stack.
- Mentor junior engineers and review their designs.
- Work directly with customers to understand their needs and own their outcomes end to end.
- Write production code in Python and Go.

Basic qualifications
- 5+ years of experience operating large distributed systems in production.
- Experience with on-call, incident response and postmortems.
"""

DEMO_TITLE = "Senior ML Compiler Engineer, Neuron"


def test_posting_list_and_demo_posting_page(page):
    """The list shows the demo posting; its page shows accepted competencies and highlighted evidence."""
    sign_in(page, "coordinator@demo.test")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Postings", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Postings")
    screenshot(page, "postings-list")
    page.get_by_role("link", name=DEMO_TITLE).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(DEMO_TITLE)
    page.wait_for_load_state()
    assert page.locator("#accepted .sel-card").count() >= 4
    assert page.locator(".posting-text mark").count() > 3
    compiler = page.locator("#accepted .sel-card", has_text="Compiler design").first
    assert compiler.locator(".evidence strong").count() >= 1
    screenshot(page, "posting-demo")


def test_create_posting_then_accept_reject_restore(page):
    """A pasted posting gets suggestions; priority resets coverage; accept, reject and restore move cards."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/postings/new")
    page.get_by_label("Title").fill("Site Reliability Engineer, Payments")
    page.get_by_label("Team").fill("Payments SRE")
    page.get_by_label("Status").select_option("open")
    page.get_by_label("Posting text").fill(POSTING)
    screenshot(page, "posting-new")
    page.get_by_role("button", name="Save and suggest competencies").click()
    expect(page.locator(".flash-success")).to_contain_text("suggested from the text")
    page.wait_for_load_state()
    cards = page.locator("#suggested .sel-card")
    expect(cards.nth(1)).to_be_visible()
    screenshot(page, "posting-suggestions")

    card = cards.first
    name = card.locator("h3").inner_text()
    rounds = card.get_by_label("Rounds")
    card.get_by_label("Priority").select_option("nice-to-have")
    expect(rounds).to_have_value("1")
    card.get_by_label("Priority").select_option("must-have")
    expect(rounds).to_have_value("2")
    card.get_by_role("button", name="Accept").click()
    accepted = page.locator("#accepted .sel-card", has_text=name)
    expect(accepted).to_have_count(1)
    expect(accepted).to_contain_text("must-have · 2 rounds")

    other = page.locator("#suggested .sel-card").first
    other_name = other.locator("h3").inner_text()
    other.get_by_role("button", name="Reject").click()
    rejected = page.locator("#rejected li", has_text=other_name)
    expect(rejected).to_have_count(1)
    page.locator("#rejected").evaluate("details => { details.open = true; }")
    expect(rejected.get_by_role("button", name="Restore to suggestions")).to_be_visible()
    screenshot(page, "posting-decided")
    rejected.get_by_role("button", name="Restore to suggestions").click()
    expect(page.locator("#suggested .sel-card", has_text=other_name)).to_have_count(1)


def test_upload_non_utf8_file_shows_clear_error(page, tmp_path):
    """Uploading a Latin-1 file keeps the form with one clear message and saves nothing."""
    bad = tmp_path / "posting.txt"
    bad.write_bytes("Ingénieur fiabilité, équipe paiements".encode("latin-1"))
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/postings/new")
    page.get_by_label("Title").fill("Ingénieur")
    page.get_by_label("…or upload a file").set_input_files(str(bad))
    page.get_by_role("button", name="Save and suggest competencies").click()
    expect(page.locator(".field .error")).to_contain_text("is not UTF-8 text")
    screenshot(page, "posting-upload-error")
    page.goto("/coordinator/postings")
    expect(page.locator("table")).not_to_contain_text("Ingénieur")


def test_add_from_library(page):
    """A library competency added by hand appears as accepted with the chosen priority."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/postings")
    page.get_by_role("link", name=DEMO_TITLE).click()
    select = page.locator("#add-competency")
    label = select.locator("option").nth(1).inner_text()
    select.select_option(label=label)
    page.locator("#add").get_by_role("button", name="Add").click()
    expect(page.locator(".flash-success")).to_contain_text(f"{label} added as must-have")
    expect(page.locator("#accepted .sel-card", has_text=label)).to_have_count(1)


REQUIREMENTS_POSTING = """Platform Engineer, Payments

What you'll do
- Build monitoring and alerting with Prometheus and Grafana.

Requirements
- 4+ years operating Kubernetes clusters in production.

Nice to have
- Familiarity with SQL databases.

You must be comfortable leading incident response for payment outages.
"""


def test_extraction_suggests_must_have_with_its_reason(page):
    """A requirement is suggested must-have (2 rounds) and its card says why; a nice-to-have item says why too."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/postings/new")
    page.get_by_label("Title").fill("Platform Engineer, Payments")
    page.get_by_label("Posting text").fill(REQUIREMENTS_POSTING)
    page.get_by_role("button", name="Save and suggest competencies").click()
    expect(page.locator(".flash-success")).to_contain_text("suggested from the text")
    cloud = page.locator("#suggested .sel-card", has_text="Cloud infrastructure")
    expect(cloud.get_by_label("Priority")).to_have_value("must-have")
    expect(cloud.get_by_label("Rounds")).to_have_value("2")
    expect(cloud.locator(".sel-why")).to_have_text("Suggested must-have: listed under Requirements")
    incident = page.locator("#suggested .sel-card", has_text="Incident response")
    expect(incident.locator(".sel-why")).to_have_text("Suggested must-have: says 'must'")
    sql = page.locator("#suggested .sel-card", has_text="Data analysis")
    expect(sql.get_by_label("Priority")).to_have_value("nice-to-have")
    expect(sql.locator(".sel-why")).to_have_text("Suggested nice-to-have: listed under Nice to have")
    cloud.scroll_into_view_if_needed()
    screenshot(page, "posting-suggested-priority")
