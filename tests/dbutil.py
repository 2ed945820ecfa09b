"""Database helpers for the tests: a fresh PostgreSQL database per run, SQLite savepoints, emptying tables."""

from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import event, text
from sqlalchemy.engine import make_url

from planner.db import Base, make_engine

DEFAULT_PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
BACKENDS = ["sqlite", "postgresql"]


def pg_base_url() -> str:
    return os.environ.get("PLANNER_TEST_DATABASE_URL", DEFAULT_PG_URL)


def create_pg_database() -> tuple[str, object]:
    """A fresh, uniquely named database so parallel runs never share tables."""
    base = make_url(pg_base_url())
    admin = make_engine(base.render_as_string(hide_password=False), isolation_level="AUTOCOMMIT")
    name = f"planner_test_{uuid.uuid4().hex[:10]}"
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        admin.dispose()
        message = f"PostgreSQL is not reachable at {base.render_as_string()}: {exc.__class__.__name__}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return base.set(database=name).render_as_string(hide_password=False), (admin, name)


def drop_pg_database(admin, name: str) -> None:
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def sqlite_savepoints(engine) -> None:
    # pysqlite starts transactions lazily and breaks SAVEPOINT; take over BEGIN ourselves
    # (SQLAlchemy SQLite dialect docs, "Serializable isolation / Savepoints / Transactional DDL").
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin(connection):
        connection.exec_driver_sql("BEGIN")


def truncate_all(engine) -> None:
    """Empty every table (for tests that commit for real)."""
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            names = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)
            connection.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        else:
            for table in reversed(Base.metadata.sorted_tables):
                connection.execute(table.delete())


