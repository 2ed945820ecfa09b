"""Login, roles, CSRF and the health check."""

from __future__ import annotations

import pytest

ROLE_HOMES = {"coordinator": "/coordinator/", "manager": "/manager/", "interviewer": "/interviewer/"}


@pytest.mark.parametrize("role", sorted(ROLE_HOMES))
def test_each_role_lands_on_its_home(client, make_user, role):
    """After login, each role is redirected to its own home page, which answers 200."""
    make_user(email=f"{role}@example.com", roles=(role,))
    response = client.post("/login", data={"email": f"{role}@example.com", "password": "password123"})
    assert response.status_code == 302
    landing = client.get(response.headers["Location"])
    assert landing.status_code == 302 and landing.headers["Location"] == ROLE_HOMES[role]
    assert client.get(ROLE_HOMES[role]).status_code == 200


@pytest.mark.parametrize(("role", "forbidden"), [
    ("interviewer", "/coordinator/"), ("interviewer", "/manager/"),
    ("manager", "/coordinator/"), ("manager", "/interviewer/"),
    ("coordinator", "/interviewer/"), ("coordinator", "/manager/"),
])
def test_other_roles_get_403(login, role, forbidden):
    """A blueprint refuses users without its role with 403."""
    client = login(role)
    assert client.get(forbidden).status_code == 403


@pytest.mark.parametrize("path", ["/coordinator/", "/manager/", "/interviewer/"])
def test_anonymous_users_are_sent_to_login(client, path):
    """Anonymous requests to role pages redirect to the login page with a next parameter."""
    response = client.get(path)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login?next=")


def test_admin_with_all_roles_reaches_every_home(login):
    """A user holding every role may open every blueprint."""
    client = login("coordinator", "manager", "interviewer")
    for path in ROLE_HOMES.values():
        assert client.get(path).status_code == 200


def test_wrong_password_is_refused_without_saying_which_part(client, make_user):
    """A wrong password gets 401 and one message that does not reveal whether the email exists."""
    make_user(email="someone@example.com")
    response = client.post("/login", data={"email": "someone@example.com", "password": "wrong-password"})
    assert response.status_code == 401
    assert b"do not match an active account" in response.data


def test_login_refuses_open_redirects(client, make_user):
    """The next parameter may only be a local path."""
    make_user(email="c@example.com")
    response = client.post("/login?next=https://evil.example/x", data={"email": "c@example.com",
                                                                      "password": "password123"})
    assert response.headers["Location"] == "/"


def test_passwords_are_stored_hashed(db, make_user):
    """The stored password is a salted hash, never the password itself."""
    user = make_user(email="h@example.com")
    assert "password123" not in user.password_hash
    assert user.password_hash.startswith(("scrypt:", "pbkdf2:"))


def test_form_without_csrf_token_is_refused(app, make_user):
    """With CSRF on, a login form posted without its token is refused with 400 and nobody is signed in."""
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    make_user(email="c@example.com")
    response = client.post("/login", data={"email": "c@example.com", "password": "password123"})
    assert response.status_code == 400
    assert b"reload the page" in response.data
    assert client.get("/coordinator/").status_code == 302


def test_logout_requires_post_and_signs_out(login):
    """Sign-out is a POST (CSRF-protected) and ends the session."""
    client = login("coordinator")
    assert client.get("/logout").status_code == 405
    assert client.post("/logout").status_code == 302
    assert client.get("/coordinator/").status_code == 302


def test_healthz_reports_database_and_tzdata(client, backend):
    """The health check answers 200 with the backend and the tzdata version."""
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.get_json()
    assert body["database"] == "ok" and body["backend"] == backend and body["tzdata"]


def test_healthz_503_when_database_unreachable(tmp_path):
    """The health check answers 503 when the database cannot be reached."""
    from planner import create_app

    missing = tmp_path / "no-such-folder" / "planner.sqlite3"
    app = create_app({"DATABASE_URL": f"sqlite:///{missing}", "TESTING": True})
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["database"] == "unreachable"
