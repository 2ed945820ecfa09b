"""The whole-page cache: pages served again only while nothing changed, never to someone else."""

from __future__ import annotations

import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import select

from planner.models import Competency
from planner.services.library import seed_library
from tests.security.securityutil import csrf_token

STATEMENTS = "X-SQL-Statements"
ROOT = Path(__file__).resolve().parents[2]
NEW = {"name": "Kernel tuning", "slug": "kernel-tuning", "category": "technical", "description": "Fast kernels.",
       "rubric_strong": "", "rubric_weak": "", "phrases": "kernel tuning"}


@contextmanager
def _serving(database_url, session_factory=None, **config):
    """The app with ``config``; its requests share the test's rolled-back session when one is given."""
    from planner import create_app

    # CSRF on, as served: the login page gives the session its CSRF secret, as it does in a browser.
    app = create_app({"DATABASE_URL": database_url, "TESTING": True, "SECRET_KEY": "test-secret",
                      "MAIL_SERVER": None, "SQL_COUNT_HEADER": True, **config})
    if session_factory is not None:
        app.extensions["planner.sessionmaker"] = session_factory
    try:
        yield app
    finally:
        app.extensions["planner.engine"].dispose()


@pytest.fixture
def cached_app(session_factory, database_url):
    with _serving(database_url, session_factory) as app:
        yield app


def _signed_in(app, db, make_user, email: str, *roles: str):
    make_user(email=email, roles=roles)
    db.commit()
    client = app.test_client()
    form = {"email": email, "password": "password123", "csrf_token": csrf_token(client, "/login")}
    assert client.post("/login", data=form).status_code == 302
    return client


@pytest.fixture
def coordinator(cached_app, db, make_user):
    seed_library(db)
    db.commit()
    return _signed_in(cached_app, db, make_user, "coordinator@example.com", "coordinator")


def _statements(response) -> int:
    return int(response.headers[STATEMENTS])


def _get(client, url: str):
    """(response, whether it was served from the cache)."""
    store = client.application.extensions.get("planner.page_cache")
    hits = store.hits if store else 0
    response = client.get(url)
    return response, bool(store) and store.hits > hits


def _kept(client, url: str) -> bool:
    return _get(client, url)[1]


def test_a_page_asked_again_is_served_with_one_statement(coordinator):
    """The second view runs only the data-version check, and is the same page with the same headers."""
    first, first_kept = _get(coordinator, "/coordinator/competencies")
    second, second_kept = _get(coordinator, "/coordinator/competencies")
    assert first.status_code == second.status_code == 200
    assert not first_kept and second_kept
    assert second.get_data() == first.get_data()
    for header in ("Content-Type", "Content-Security-Policy", "X-Frame-Options", "Vary"):
        assert second.headers[header] == first.headers[header]
    other_query, kept = _get(coordinator, "/coordinator/competencies?q=compiler")
    assert not kept and b"Compiler design" in other_query.data and b"Negotiation" not in other_query.data


def test_a_change_through_a_form_shows_at_once(coordinator, db):
    """Adding a competency is on the list the next time it is asked for, cached before or not."""
    assert b"Kernel tuning" not in coordinator.get("/coordinator/competencies").data
    coordinator.get("/coordinator/competencies")
    form = {**NEW, "csrf_token": csrf_token(coordinator, "/coordinator/competencies/new")}
    assert coordinator.post("/coordinator/competencies/new", data=form).status_code == 302
    after, kept = _get(coordinator, "/coordinator/competencies")
    assert not kept and b"Kernel tuning" in after.data
    assert db.scalar(select(Competency.id).where(Competency.slug == "kernel-tuning")) is not None


def test_a_change_from_another_process_shows_at_once(committed_db, database_url, make_user):
    """A write by another planner process (the worker, the command line) is seen through the data version."""
    from planner.db import make_session_factory

    with make_session_factory(committed_db)() as session:
        seed_library(session)
        from planner.services.users import create_user

        create_user(session, email="c@example.com", name="C", password="password123", roles=["coordinator"])
        session.commit()
    with _serving(database_url) as app:
        client = app.test_client()
        client.post("/login", data={"email": "c@example.com", "password": "password123",
                                    "csrf_token": csrf_token(client, "/login")})
        client.get("/coordinator/competencies")
        assert _kept(client, "/coordinator/competencies")
        script = ("import sys; from sqlalchemy import text; from planner.db import make_engine; "
                  "e = make_engine(sys.argv[1]); c = e.connect(); "
                  "c.execute(text(\"UPDATE competencies SET name = 'Compilers, renamed elsewhere' "
                  "WHERE slug = 'compiler-design'\")); c.commit()")
        url = committed_db.url.render_as_string(hide_password=False)
        subprocess.run([sys.executable, "-c", script, url], check=True, timeout=60, cwd=ROOT)
        after, kept = _get(client, "/coordinator/competencies")
        assert not kept and b"Compilers, renamed elsewhere" in after.data
        assert _statements(after) > 1  # this app's own engine: the header counts every statement


def test_one_persons_page_is_never_served_to_another(cached_app, coordinator, db, make_user):
    """Another coordinator gets their own copy; an interviewer gets 403 and a stranger the login page."""
    other = _signed_in(cached_app, db, make_user, "other@example.com", "coordinator")
    interviewer = _signed_in(cached_app, db, make_user, "panel@example.com", "interviewer")
    coordinator.get("/coordinator/")
    assert _kept(coordinator, "/coordinator/")  # nothing is written from here on
    assert not _kept(other, "/coordinator/")
    assert _kept(other, "/coordinator/")
    assert interviewer.get("/coordinator/").status_code == 403
    stranger = cached_app.test_client().get("/coordinator/")
    assert stranger.status_code == 302 and stranger.headers["Location"].startswith("/login")


def test_signed_out_session_is_not_served_the_page(coordinator):
    """After signing out, the same browser gets the login page, not the page it had."""
    coordinator.get("/coordinator/loops")
    assert _kept(coordinator, "/coordinator/loops")
    token = csrf_token(coordinator, "/coordinator/loops")
    assert coordinator.post("/logout", data={"csrf_token": token}).status_code == 302
    response = coordinator.get("/coordinator/loops")
    assert response.status_code == 302 and response.headers["Location"].startswith("/login")


def test_a_waiting_message_is_shown_not_a_kept_page(coordinator):
    """A page with a flash message waiting is rendered afresh (it shows the message), and not kept."""
    coordinator.get("/coordinator/competencies")
    with coordinator.session_transaction() as browser_session:
        browser_session["_flashes"] = [("success", "Saved the thing.")]
    shown, kept = _get(coordinator, "/coordinator/competencies")
    assert b"Saved the thing." in shown.data and not kept
    again = coordinator.get("/coordinator/competencies")
    assert b"Saved the thing." not in again.data


def test_pages_expire_after_the_configured_seconds(session_factory, database_url, db, make_user):
    """What only the clock changes (past, overdue) is recomputed once the time limit has passed."""
    seed_library(db)
    with _serving(database_url, session_factory, PAGE_CACHE_SECONDS=0.3) as app:
        client = _signed_in(app, db, make_user, "c@example.com", "coordinator")
        client.get("/coordinator/competencies")
        assert _kept(client, "/coordinator/competencies")
        time.sleep(0.4)
        assert not _kept(client, "/coordinator/competencies")


def test_zero_seconds_turns_the_cache_off(session_factory, database_url, db, make_user):
    seed_library(db)
    with _serving(database_url, session_factory, PAGE_CACHE_SECONDS=0) as app:
        client = _signed_in(app, db, make_user, "c@example.com", "coordinator")
        client.get("/coordinator/competencies")
        assert not _kept(client, "/coordinator/competencies")
        assert "planner.page_cache" not in app.extensions


def test_unmarked_pages_and_writes_are_never_kept(coordinator):
    """Only pages marked as pure reads are kept: a form page runs its statements every time."""
    coordinator.get("/coordinator/audit")
    assert not _kept(coordinator, "/coordinator/audit")
