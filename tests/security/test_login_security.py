"""Sign-in: the `next` parameter only leads to this site; failed attempts are limited per account and address."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from planner.models import AuditEntry, User
from planner.web.auth import safe_next

HOSTILE_NEXT = [
    "//evil.com", "//evil.com/coordinator/", "https://evil.com", "http://evil.com/x", "/\\evil.com",
    "\\\\evil.com", "/\\/evil.com", "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)",
    "/%09/evil.com", "/\t/evil.com", "/\n/evil.com", "/\r\n/evil.com", "///evil.com", "https:evil.com",
    "evil.com", "data:text/html,<script>alert(1)</script>", "/ /evil.com", "\x00/evil.com", "",
]


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_safe_next_refuses_other_sites(target):
    """Targets a browser could read as another host or a script are refused."""
    if target == "/%09/evil.com":
        # Still percent-encoded here, so a browser asks this site for the path /%09/evil.com: harmless.
        assert safe_next(target) == target
        return
    assert safe_next(target) is None


@pytest.mark.parametrize("target", ["/coordinator/", "/coordinator/loops/3?tab=x#y", "/manager/postings/1"])
def test_safe_next_keeps_local_paths(target):
    assert safe_next(target) == target


@pytest.mark.parametrize("query", [
    "//evil.com", "https://evil.com", "/%5Cevil.com", "%2F%2Fevil.com", "/%2F%2Fevil.com".replace("%2F%2F", "%2F/"),
    "javascript%3Aalert(1)", "/%0D%0A/evil.com", "/%09/evil.com", "%5C%5Cevil.com",
])
def test_login_redirect_stays_on_this_site(client, make_user, query):
    """Whatever `next` says (encoded or not), after sign-in the browser goes to a path of this site."""
    make_user(email="next@example.com")
    response = client.post(f"/login?next={query}", data={"email": "next@example.com", "password": "password123"})
    assert response.status_code == 302
    location = response.headers["Location"]
    assert location.startswith("/") and not location.startswith("//") and "\\" not in location, location
    assert "evil.com" not in location.split("?")[0].lstrip("/").split("/")[0], location


def test_login_follows_a_local_next(client, make_user):
    make_user(email="local@example.com")
    response = client.post("/login?next=/account/", data={"email": "local@example.com", "password": "password123"})
    assert response.headers["Location"] == "/account/"


def _attempt(client, email: str, password: str = "wrong-password", address: str = "192.0.2.1"):
    return client.post("/login", data={"email": email, "password": password},
                       environ_base={"REMOTE_ADDR": address})


def test_failed_attempts_are_limited_per_account(app, client, make_user, db):
    """Past the account's failed attempts even the right password gets a clear 429; others still sign in."""
    app.config["LOGIN_LIMIT_PER_ACCOUNT"] = "3 per 15 minutes"
    make_user(email="target@example.com")
    make_user(email="bystander@example.com")
    users_before = db.scalar(select(func.count(User.id)))
    audit_before = db.scalar(select(func.count(AuditEntry.id)))
    for _ in range(3):
        assert _attempt(client, "target@example.com").status_code == 401
    for address in ("192.0.2.1", "198.51.100.7"):  # a new address does not reset the account's count
        refused = _attempt(client, "Target@Example.com ", "password123", address)
        assert refused.status_code == 429
        assert b"Too many failed sign-in attempts for this account" in refused.data
        assert int(refused.headers["Retry-After"]) > 0
        assert b'value="Target@Example.com' in refused.data  # the form comes back, email kept
    assert _attempt(client, "bystander@example.com", "password123").status_code == 302
    assert db.scalar(select(func.count(User.id))) == users_before
    assert db.scalar(select(func.count(AuditEntry.id))) == audit_before


def test_failed_attempts_are_limited_per_address(app, client, make_user):
    """Guessing across many accounts from one address is stopped; another address is not."""
    app.config["LOGIN_LIMIT_PER_ADDRESS"] = "4 per 15 minutes"
    make_user(email="real@example.com")
    for index in range(4):
        assert _attempt(client, f"user{index}@example.com").status_code == 401
    refused = _attempt(client, "real@example.com", "password123")
    assert refused.status_code == 429
    assert b"Too many failed sign-in attempts from your network" in refused.data
    assert _attempt(client, "real@example.com", "password123", address="203.0.113.9").status_code == 302


def test_successful_sign_ins_are_not_counted(app, client, make_user):
    """People who type their password right are never limited."""
    app.config["LOGIN_LIMIT_PER_ACCOUNT"] = "2 per 15 minutes"
    make_user(email="busy@example.com")
    for _ in range(5):
        assert _attempt(client, "busy@example.com", "password123").status_code == 302
        client.post("/logout")


def test_limits_are_configurable_storage(database_url, session_factory, make_user):
    """RATELIMIT_STORAGE_URI picks the store (memory here) and the limits come from the config."""
    from planner import create_app

    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                      "RATELIMIT_STORAGE_URI": "memory://", "LOGIN_LIMIT_PER_ACCOUNT": "1 per minute"})
    app.extensions["planner.sessionmaker"] = session_factory
    client = app.test_client()
    assert _attempt(client, "x@example.com").status_code == 401
    assert _attempt(client, "x@example.com").status_code == 429
    app.extensions["planner.engine"].dispose()


def test_a_storage_that_cannot_work_stops_start_up(database_url):
    """A limiter store the app cannot use is a start-up error of one sentence, not a traceback."""
    from planner import create_app
    from planner.config import ConfigError

    with pytest.raises(ConfigError, match="RATELIMIT_STORAGE_URI 'bogus://x' cannot be used"):
        create_app({"DATABASE_URL": database_url, "SECRET_KEY": "x", "RATELIMIT_STORAGE_URI": "bogus://x"})
