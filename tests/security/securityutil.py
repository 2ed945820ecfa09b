"""Helpers for the security tests: the demo world with CSRF on, and reading a page's CSRF token."""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from planner.core.errors import ValidationFailed
from planner.db import utcnow
from planner.models import Loop
from planner.services.candidate_links import issue_link
from planner.web.candidate.tokens import token_of
from tests.security.matrixworld import PASSWORD, MatrixWorld, build_world

CSRF_FIELD = re.compile(rb'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')


@dataclass
class Env:
    """The app, the connection its requests share (for savepoints around a request) and the world."""

    app: object
    connection: object
    factory: sessionmaker
    world: MatrixWorld

    def client(self, role: str | None):
        """A test client signed in as the demo user of ``role`` (None: anonymous)."""
        client = self.app.test_client()
        if role is not None:
            response = client.post("/login", data={"email": self.world.emails[role], "password": PASSWORD,
                                                   "csrf_token": csrf_token(client, "/login")})
            assert response.status_code == 302, f"{role} could not sign in: {response.status_code}"
        return client


def csrf_token(client, path: str = "/account/") -> str:
    """The CSRF token the client's session holds, read from a page's hidden field."""
    response = client.get(path)
    match = CSRF_FIELD.search(response.data)
    assert match, f"no csrf_token field on {path} ({response.status_code})"
    return match.group(1).decode()


def candidate_token(session) -> str:
    """The signed token of a candidate link for the first loop that can be offered (the app's SECRET_KEY signs it)."""
    for loop_id in session.scalars(select(Loop.id).order_by(Loop.id)):
        try:
            issued = issue_link(session, loop_id, actor_id=None, now=utcnow(), lifetime_days=7)
        except ValidationFailed:
            continue
        return token_of(issued)
    raise AssertionError("the demo has no loop a candidate link can be issued for")


@contextmanager
def demo_environment(engine, database_url):
    """The demo plus extra rows in one transaction rolled back at the end; CSRF protection on."""
    from planner import create_app

    connection = engine.connect()
    outer = connection.begin()
    factory = sessionmaker(bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False)
    with factory() as session:
        world = build_world(session)
    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "matrix-secret", "MAIL_SERVER": None,
                      "WTF_CSRF_ENABLED": True, "SCHEDULER_TIME_LIMIT": 2.0})
    app.extensions["planner.sessionmaker"] = factory
    with factory() as session, app.test_request_context():
        world.ids["candidate_token"] = candidate_token(session)
    try:
        yield Env(app, connection, factory, world)
    finally:
        outer.rollback()
        connection.close()
        app.extensions["planner.engine"].dispose()
