"""`planner serve`: the development server (production uses gunicorn planner.wsgi:app)."""

from __future__ import annotations

import errno
import socket

import click

from planner.cli.common import clear_errors, fail, get_app


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--debug/--no-debug", default=False)
@clear_errors
def serve_command(host: str, port: int, debug: bool) -> None:
    """Run the web app."""
    from sqlalchemy import text
    from werkzeug.serving import make_server

    app = get_app()
    with app.extensions["planner.engine"].connect() as connection:  # fail fast, with one sentence
        connection.execute(text("SELECT 1"))
    app.debug = debug
    served = app
    if debug:
        from werkzeug.debug import DebuggedApplication

        served = DebuggedApplication(app, evalex=True)
    # The socket is bound here, not by werkzeug, which prints three lines and exits on a busy port.
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        listener = socket.create_server((host, port), family=family)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            fail(f"Port {port} is already in use on {host}; stop what is using it or pick another with --port.",
                 code=1)
        fail(f"Cannot serve on {host}:{port} ({exc.strerror or exc}).", code=1)
    with listener:
        server = make_server(host, port, served, threaded=True, fd=listener.fileno())
    click.echo(f"Serving on http://{host}:{port}/  (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
