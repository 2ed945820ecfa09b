"""`planner demo`: load the worked example (idempotent)."""

from __future__ import annotations

import click

from planner.cli.common import clear_errors, get_app


@click.command("demo")
@click.option("--if-empty", is_flag=True, help="Only load when the database has no posting yet.")
@clear_errors
def demo_command(if_empty: bool) -> None:
    """Load the demo posting, plan, interviewer pool, candidates and logins."""
    from planner.db import utcnow
    from planner.services import demo

    app = get_app()
    with app.extensions["planner.sessionmaker"]() as session:
        if if_empty and demo.has_postings(session):
            click.echo("The database already has postings; the demo was not loaded.")
            return
        summary = demo.load_demo(session, now=utcnow())
    click.echo(summary)
    click.echo("Logins (password planner-demo): coordinator@demo.test, manager@demo.test, interviewer@demo.test")
