"""Shared fixtures: every database test runs on SQLite and on PostgreSQL.

The schema is built by running the migrations (not create_all), so the tests also prove the
migrations. Each test runs inside a transaction that is rolled back; tests that need real commits
(concurrency, live browser) use `committed_db`, which empties the tables afterwards.
"""

from __future__ import annotations

import pytest
from dbutil import (
    BACKENDS,
    create_pg_database,
    drop_pg_database,
    pg_base_url,
    sqlite_savepoints,
    truncate_all,
)
from sqlalchemy.orm import Session, sessionmaker

from planner import migrate
from planner.db import make_engine


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request, tmp_path_factory):
    """A migrated, empty database URL for each backend."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("sqlite") / "planner.sqlite3"
        url = f"sqlite:///{path}"
        cleanup = None
    else:
        url, cleanup = create_pg_database()
    engine = make_engine(url)
    migrate.upgrade(engine)
    engine.dispose()
    yield url
    if cleanup:
        drop_pg_database(*cleanup)


@pytest.fixture(scope="session")
def engine(database_url):
    engine = make_engine(database_url)
    if engine.dialect.name == "sqlite":
        sqlite_savepoints(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def backend(engine) -> str:
    return engine.dialect.name


@pytest.fixture
def session_factory(engine):
    """Sessions bound to one connection whose outer transaction is rolled back after the test."""
    connection = engine.connect()
    outer = connection.begin()
    factory = sessionmaker(bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False)
    yield factory
    outer.rollback()
    connection.close()


@pytest.fixture
def db(session_factory) -> Session:
    """A session whose commits are savepoints inside a transaction rolled back after the test."""
    session = session_factory()
    yield session
    session.close()


@pytest.fixture
def committed_db(database_url):
    """An engine whose commits are real (other connections see them); tables emptied afterwards."""
    engine = make_engine(database_url)
    yield engine
    truncate_all(engine)
    engine.dispose()


@pytest.fixture
def app(session_factory, database_url):
    """The app, its requests sharing the test's rolled-back connection; CSRF off for form tests."""
    from planner import create_app

    app = create_app({"DATABASE_URL": database_url, "TESTING": True, "WTF_CSRF_ENABLED": False,
                      "SECRET_KEY": "test-secret", "MAIL_SERVER": None})
    app.extensions["planner.sessionmaker"] = session_factory
    yield app
    app.extensions["planner.engine"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def make_user(db):
    """Factory: create a login with roles (password 'password123')."""
    from planner.services.users import create_user

    def _make(email: str = "coord@example.com", roles=("coordinator",), **kwargs):
        return create_user(db, email=email, name=kwargs.pop("name", email.split("@")[0].title()),
                           password=kwargs.pop("password", "password123"), roles=list(roles), **kwargs)

    return _make


@pytest.fixture
def login(client, make_user):
    """Factory: create a user with the given roles and sign the test client in."""

    def _login(*roles: str, email: str | None = None):
        email = email or f"{'-'.join(roles) or 'nobody'}@example.com"
        make_user(email=email, roles=roles or ("coordinator",))
        response = client.post("/login", data={"email": email, "password": "password123"})
        assert response.status_code == 302, response.data
        return client

    return _login


def pytest_report_header(config):
    return f"database backends: sqlite, postgresql (PostgreSQL at {pg_base_url()})"
