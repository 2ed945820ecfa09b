"""Each demo login, in a real browser, reaches its role's home page."""

from __future__ import annotations

import pytest
from browserutil import screenshot, sign_in


@pytest.mark.parametrize(("email", "path", "heading"), [
    ("coordinator@demo.test", "/coordinator/", "Overview"),
    ("manager@demo.test", "/manager/", "Coverage"),
    ("interviewer@demo.test", "/interviewer/", "My interviews"),
])
def test_demo_login_reaches_role_home(page, email, path, heading):
    """Signing in through the form lands on the role's home with its heading."""
    sign_in(page, email)
    assert page.url.endswith(path)
    assert page.get_by_role("heading", level=1).first.inner_text().strip() == heading
    screenshot(page, f"home-{email.split('@')[0]}")


def test_wrong_password_shows_one_clear_message(page):
    """A wrong password keeps the user on the login page with one message."""
    sign_in(page, "coordinator@demo.test", "not-the-password")
    assert "/login" in page.url
    assert page.get_by_role("alert").inner_text().startswith("That email and password do not match")
