"""Migrations build the schema the models describe, on SQLite and on PostgreSQL, up and down."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from dbutil import BACKENDS, create_pg_database, drop_pg_database
from sqlalchemy import inspect

from planner import migrate
from planner.db import Base, make_engine


@pytest.fixture(params=BACKENDS)
def empty_engine(request, tmp_path):
    """A brand-new, empty database for each backend."""
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
        yield engine
        engine.dispose()
        return
    url, cleanup = create_pg_database()
    engine = make_engine(url)
    yield engine
    engine.dispose()
    drop_pg_database(*cleanup)


def _diff(engine) -> list:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return compare_metadata(context, Base.metadata)


def test_single_head():
    """The migration history has exactly one head."""
    assert len(migrate.current_heads()) == 1


def test_upgrade_builds_every_model_table(empty_engine):
    """Upgrading an empty database to head creates every table the models declare."""
    migrate.upgrade(empty_engine)
    tables = set(inspect(empty_engine).get_table_names())
    assert set(Base.metadata.tables) <= tables
    assert "alembic_version" in tables


def test_models_match_migrated_schema(empty_engine):
    """After upgrade, autogenerate finds nothing to change (what `alembic check` asserts)."""
    migrate.upgrade(empty_engine)
    assert _diff(empty_engine) == []


def test_downgrade_to_base_and_up_again(empty_engine):
    """Downgrading to base removes every table; upgrading again restores the same schema."""
    migrate.upgrade(empty_engine)
    migrate.downgrade(empty_engine, "base")
    assert set(inspect(empty_engine).get_table_names()) <= {"alembic_version"}
    migrate.upgrade(empty_engine)
    assert _diff(empty_engine) == []
