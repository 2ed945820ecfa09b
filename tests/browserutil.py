"""Helpers for browser tests: sign in through the form, save screenshots for people to look at."""

from __future__ import annotations

from pathlib import Path

SCREENSHOTS = Path(__file__).resolve().parents[1] / "screenshots"


def sign_in(page, email: str, password: str = "planner-demo") -> None:
    """Fill the login form as a person would."""
    page.goto("/login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state("networkidle")


def screenshot(page, name: str) -> Path:
    """Save a full-page screenshot under screenshots/ (ignored by git) for a person to look at."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
