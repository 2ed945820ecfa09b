"""The settings page in a real browser: pick a time zone and see times follow it."""

from __future__ import annotations

from browserutil import screenshot, sign_in


def test_change_timezone_in_browser(page):
    """A manager picks Europe/Berlin; the header then shows the new zone."""
    sign_in(page, "manager@demo.test")
    page.get_by_role("link", name="Dana Whitfield · America/Los_Angeles").click()
    page.get_by_label("Time zone").select_option("Europe/Berlin")
    page.get_by_role("button", name="Save").click()
    assert page.get_by_role("status").first.inner_text().startswith("Saved.")
    assert "Europe/Berlin" in page.locator(".userbox").inner_text()
    screenshot(page, "account-settings")
