"""The user's own settings: time zone, name and password."""

from __future__ import annotations

from planner.models import User


def test_change_timezone_changes_display(login, db):
    """Saving a new zone stores it and the footer shows it on the next page."""
    client = login("manager")
    response = client.post("/account/preferences", data={"prefs-name": "Manager", "prefs-timezone": "Asia/Tokyo"})
    assert response.status_code == 302
    user = db.query(User).filter_by(email="manager@example.com").one()
    db.refresh(user)
    assert user.timezone == "Asia/Tokyo"
    assert b"Asia/Tokyo" in client.get("/manager/").data


def test_unknown_timezone_is_refused_and_nothing_changes(login, db):
    """A zone that is not in the list gets a clear message and the old zone stays."""
    client = login("manager")
    response = client.post("/account/preferences", data={"prefs-name": "M", "prefs-timezone": "Mars/Base"})
    assert response.status_code == 400
    assert b"Not a valid choice" in response.data
    user = db.query(User).filter_by(email="manager@example.com").one()
    assert user.timezone == "UTC"


def test_password_change_needs_current_password(login, client):
    """A wrong current password is refused; the right one changes the password."""
    login("interviewer")
    wrong = client.post("/account/password", data={"pw-current": "nope-nope", "pw-new": "a-new-password"})
    assert wrong.status_code == 400
    assert b"current password is not correct" in wrong.data
    right = client.post("/account/password", data={"pw-current": "password123", "pw-new": "a-new-password"})
    assert right.status_code == 302
    client.post("/logout")
    again = client.post("/login", data={"email": "interviewer@example.com", "password": "a-new-password"})
    assert again.status_code == 302


def test_account_requires_login(client):
    """Anonymous users are sent to the login page."""
    assert client.get("/account/").status_code == 302
