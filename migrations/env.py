"""Alembic environment: migrates the database named by the caller, PLANNER_DATABASE_URL, or the default."""

from __future__ import annotations

from alembic import context

import planner.models  # noqa: F401  (registers every table on Base.metadata)
from planner.db import Base, make_engine

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from planner.migrate import default_database_url

    return default_database_url()


def process_revision_directives(context_, revision, directives):
    # An autogenerate run that finds no change writes no empty revision file.
    if getattr(config.cmd_opts, "autogenerate", False) and directives and directives[0].upgrade_ops.is_empty():
        directives[:] = []


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url())
    with engine.connect() as connection:
        _run(connection)
    engine.dispose()


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
        process_revision_directives=process_revision_directives,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
