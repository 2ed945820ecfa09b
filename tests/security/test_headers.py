"""Security headers on every kind of response; no template carries inline script; cookie flags."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from planner.web.security import CONTENT_SECURITY_POLICY

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
EXPECTED = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def _assert_secured(response, what: str) -> None:
    response.close()
    policy = response.headers.get("Content-Security-Policy", "")
    directives = {d.split()[0]: d.split()[1:] for d in policy.split("; ") if d}
    assert directives.get("script-src") == ["'self'"], f"{what}: {policy!r}"
    assert directives.get("frame-ancestors") == ["'none'"], f"{what}: {policy!r}"
    assert directives.get("object-src") == ["'none'"], f"{what}: {policy!r}"
    for name, value in EXPECTED.items():
        if name == "Referrer-Policy":
            assert response.headers.get(name) in (value, "no-referrer"), f"{what}: {name}"
        else:
            assert response.headers.get(name) == value, f"{what}: {name} is {response.headers.get(name)!r}"


def test_policy_never_allows_inline_script():
    """The script directives name only this site: no 'unsafe-inline', 'unsafe-eval', data: or wildcard."""
    for directive in CONTENT_SECURITY_POLICY.split("; "):
        if directive.startswith(("script-src", "default-src")):
            assert not re.search(r"unsafe|data:|\*|http", directive), directive


def test_templates_have_no_inline_script_or_handlers():
    """No template holds a <script> without src, an on*= attribute or a javascript: URL (the CSP blocks them)."""
    problems = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if re.search(r"<script(?![^>]*\bsrc=)[^>]*>", line) or re.search(r"\son[a-z]+\s*=", line) \
                    or "javascript:" in line.lower():
                problems.append(f"{path.relative_to(TEMPLATES)}:{number}: {line.strip()}")
    assert not problems, "move these into planner/static/*.js:\n" + "\n".join(problems)


def test_headers_on_pages_errors_static_files_and_feeds(matrix_env):
    """Pages, redirects, 403/404/405, CSRF failures, static files, the feed and its 404 all carry the headers."""
    env = matrix_env
    anonymous, coordinator, interviewer = env.client(None), env.client("coordinator"), env.client("interviewer")
    token = env.world.others_feed_token
    cases = {
        "login page": anonymous.get("/login"),
        "redirect to login": anonymous.get("/coordinator/"),
        "coordinator page": coordinator.get("/coordinator/"),
        "403": interviewer.get("/coordinator/"),
        "404": coordinator.get("/no/such/page"),
        "405": coordinator.get("/logout"),
        "CSRF 400": coordinator.post("/logout"),
        "static file": anonymous.get("/static/app.css"),
        "static 404": anonymous.get("/static/nothing.css"),
        "feed": anonymous.get(f"/feeds/{token}.ics"),
        "feed 404": anonymous.get("/feeds/nope.ics"),
        "healthz": anonymous.get("/healthz"),
        "csv": env.client("manager").get(f"/manager/postings/{env.world.ids['posting_id']}/coverage.csv"),
        "ics download": interviewer.get(f"/interviewer/interviews/{env.world.own_interview_id}.ics"),
    }
    for what, response in cases.items():
        _assert_secured(response, what)
    assert cases["feed"].headers["Referrer-Policy"] == "no-referrer"  # the feed's stricter choice is kept


def test_headers_on_server_errors(app):
    """An unexpected exception gives the 500 page, with the headers, and no traceback."""
    app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)

    @app.route("/boom")
    def boom():
        raise RuntimeError("secret detail")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert b"secret detail" not in response.data and b"Traceback" not in response.data
    _assert_secured(response, "500")


def _cookie(response, name: str) -> str:
    return next(value for value in response.headers.getlist("Set-Cookie") if value.startswith(name + "="))


@pytest.mark.parametrize(("env", "secure"), [("development", False), ("production", True)])
def test_session_and_remember_cookies(db, make_user, database_url, session_factory, env, secure):
    """Session and remember cookies are HttpOnly and SameSite=Lax everywhere, and Secure in production."""
    from planner import create_app

    make_user(email="cookie@example.com")
    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "cookie-secret", "ENV": env,
                      "WTF_CSRF_ENABLED": False})
    app.extensions["planner.sessionmaker"] = session_factory
    response = app.test_client().post("/login", data={"email": "cookie@example.com", "password": "password123",
                                                       "remember": "y"})
    assert response.status_code == 302
    for name in ("session", "remember_token"):
        cookie = _cookie(response, name)
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie, cookie
        assert ("Secure" in cookie) is secure, cookie
    assert ("Strict-Transport-Security" in response.headers) is secure
    app.extensions["planner.engine"].dispose()
