"""`planner serve`: the development server (production uses gunicorn planner.wsgi:app)."""

from __future__ import annotations

import click

from planner.cli.common import clear_errors, get_app


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--debug/--no-debug", default=False)
@clear_errors
def serve_command(host: str, port: int, debug: bool) -> None:
    """Run the web app."""
    from sqlalchemy import text

    app = get_app()
    with app.extensions["planner.engine"].connect() as connection:  # fail fast, with one sentence
        connection.execute(text("SELECT 1"))
    click.echo(f"Serving on http://{host}:{port}/  (Ctrl-C to stop)")
    app.run(host=host, port=port, debug=debug, use_reloader=False)
