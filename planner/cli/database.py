"""`planner db upgrade|downgrade|current`."""

from __future__ import annotations

import click

from planner.cli.common import clear_errors, get_app
from planner.core.prose import plural


@click.group("db")
def db_group() -> None:
    """Database schema migrations."""


@db_group.command("upgrade")
@click.option("--revision", default="head", show_default=True, help="Target revision.")
@clear_errors
def upgrade_command(revision: str) -> None:
    """Migrate the configured database (and load the competency library if it is empty)."""
    from planner import migrate
    from planner.services import library

    app = get_app()
    engine = app.extensions["planner.engine"]
    migrate.upgrade(engine, revision)
    with app.extensions["planner.sessionmaker"]() as session:
        added = library.load_library_if_empty(session)
    click.echo(f"Database at {engine.url.render_as_string(hide_password=True)} is at {revision}.")
    if added:
        click.echo(f"Loaded {plural(added, 'competency')} into the empty library.")


@db_group.command("downgrade")
@click.option("--revision", default="base", show_default=True, help="Target revision.")
@clear_errors
def downgrade_command(revision: str) -> None:
    """Migrate the configured database down (base drops every table)."""
    from planner import migrate

    engine = get_app().extensions["planner.engine"]
    migrate.downgrade(engine, revision)
    click.echo(f"Database downgraded to {revision}.")
