"""Database plumbing shared by models, services, migrations and the web layer.

No Flask here: services, the CLI and Alembic import this without building an app.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, MetaData, create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.types import TypeDecorator

from planner.core.errors import PlannerError

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator):
    """An aware UTC datetime stored as naive UTC, the same way on SQLite and PostgreSQL.

    Naive values are refused on the way in: a naive datetime is a bug waiting for a DST change.
    """

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column; attach a time zone first")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        return value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    """Declarative base: naming convention for constraints, aware datetimes everywhere."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: UTCDateTime}


class DatabaseConfigError(PlannerError):
    """The database URL is missing, malformed or names an unsupported database."""


def utcnow() -> datetime:
    """The current time, aware and in UTC (the one place the shell reads the clock)."""
    return datetime.now(UTC)


def _enable_sqlite_foreign_keys(dbapi_connection, _record) -> None:
    # SQLite ignores foreign keys unless asked on every connection; without this FK bugs
    # would only show up on PostgreSQL.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def make_engine(url: str, **kwargs) -> Engine:
    """Build an engine for a SQLite or PostgreSQL URL, refusing anything else with a clear message."""
    if not url:
        raise DatabaseConfigError("No database URL is configured; set PLANNER_DATABASE_URL.")
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseConfigError(f"The database URL {url!r} is malformed.") from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise DatabaseConfigError(
            f"The database URL uses {backend!r}; only sqlite and postgresql are supported."
        )
    if backend == "postgresql" and parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    try:
        engine = create_engine(parsed, **kwargs)
    except Exception as exc:  # driver import errors and bad options surface here
        raise DatabaseConfigError(f"The database URL {url!r} cannot be used: {exc}") from None
    if backend == "sqlite":
        event.listen(engine, "connect", _enable_sqlite_foreign_keys)
    return engine


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions that keep loaded values after commit, so views can render what a service returned."""
    return sessionmaker(bind=engine, expire_on_commit=False)


# Every engine made in this process notes its writes for the page cache (planner/data_version.py).
from planner import data_version as _data_version  # noqa: E402, F401
