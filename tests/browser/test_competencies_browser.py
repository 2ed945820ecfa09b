"""The competency library in a real browser: add one, hit a duplicate slug, retire and restore."""

from __future__ import annotations

from browserutil import screenshot, sign_in
from playwright.sync_api import expect


def test_add_competency_and_duplicate_slug(page):
    """A new competency appears in its category; the same slug again shows a clear error on the slug field."""
    sign_in(page, "coordinator@demo.test")
    page.get_by_role("link", name="Competencies", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Competency library")
    screenshot(page, "competencies-list")
    page.get_by_role("link", name="+ New competency").click()
    page.get_by_label("Name").fill("Kernel tuning")
    page.get_by_label("Slug").fill("kernel-tuning")
    page.get_by_label("Category").select_option("technical")
    page.get_by_label("Description").fill("Making accelerator kernels fast.")
    page.get_by_label("Phrases the extractor looks for").fill(
        "kernel tuning\n~profiling\nkernel ... performance"
    )
    screenshot(page, "competency-new")
    page.get_by_role("button", name="Add to library").click()
    expect(page.locator(".flash-success")).to_contain_text("Kernel tuning added to the library")
    expect(page.locator("#technical .lib-card", has_text="Kernel tuning")).to_have_count(1)

    page.get_by_role("link", name="+ New competency").click()
    page.get_by_label("Name").fill("Kernel tuning again")
    page.get_by_label("Slug").fill("kernel-tuning")
    page.get_by_label("Phrases the extractor looks for").fill("kernel tuning")
    page.get_by_role("button", name="Add to library").click()
    expect(page.locator(".field .error")).to_have_text(
        "The slug 'kernel-tuning' is already used by Kernel tuning; choose another slug."
    )
    screenshot(page, "competency-duplicate")


def test_retire_and_restore_with_confirmation(page):
    """Retiring asks for confirmation and moves the entry to Retired; Restore brings it back."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/competencies")
    card = page.locator("#behavioural .lib-card", has_text="Negotiation").first
    name = card.locator("h3").inner_text()
    page.once("dialog", lambda dialog: dialog.accept())
    card.get_by_role("button", name=f"Retire {name}").click()
    expect(page.locator(".flash-success")).to_contain_text(f"{name} retired")
    retired = page.locator("#retired .lib-card", has_text=name)
    expect(retired).to_have_count(1)
    screenshot(page, "competencies-retired")
    retired.get_by_role("button", name=f"Restore {name}").click()
    expect(page.locator("#retired")).to_have_count(0)
    expect(page.locator(".lib-card", has_text=name)).to_have_count(1)


def test_slug_is_suggested_from_the_name(page):
    """Typing a name fills in a matching slug until the coordinator edits the slug."""
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/competencies/new")
    page.get_by_label("Name").fill("Résumé & design reviews")
    expect(page.get_by_label("Slug")).to_have_value("resume-and-design-reviews")
