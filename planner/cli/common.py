"""What every command shares: building the app, turning failures into one clear sentence."""

from __future__ import annotations

import functools
import sys

import click

from planner.core.errors import PlannerError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


def fail(message: str, code: int = 2) -> None:
    """Print one sentence on standard error and exit (one line, whatever user text the message quotes)."""
    click.echo(f"Error: {' '.join(message.splitlines())}", err=True)
    sys.exit(code)


def describe_db_error(exc: Exception) -> str:
    """One sentence for a SQLAlchemy error: missing tables, an unreachable database, or a refusal."""
    from sqlalchemy.exc import OperationalError

    orig = getattr(exc, "orig", None)
    lines = (str(orig) if orig else str(exc)).strip().splitlines()
    detail = lines[0] if lines else type(exc).__name__
    # SQLite says "no such table: x", PostgreSQL 'relation "x" does not exist': the schema is missing.
    if "no such table" in detail or ("relation" in detail and "does not exist" in detail):
        return f"The database has no tables yet ({detail}); run 'planner db upgrade' first."
    if isinstance(exc, OperationalError):
        return f"The database cannot be reached ({detail})."
    return f"The database refused the operation ({type(exc).__name__})."


def clear_errors(fn):
    """Turn domain and database errors into a one-line message and exit status 2 (1 for db errors)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except PlannerError as exc:
            fail(str(exc))
        except Exception as exc:
            # SQLAlchemy is loaded only by commands that use the database (`planner schedule` does not), and
            # only they can raise its errors.
            database_errors = sys.modules.get("sqlalchemy.exc")
            if database_errors is not None and isinstance(exc, database_errors.SQLAlchemyError):
                fail(describe_db_error(exc), code=1)
            raise

    return wrapper


def get_app():
    """The current Flask app under `flask --app planner`, else a new one from the environment."""
    from flask import current_app, has_app_context

    if has_app_context():
        return current_app._get_current_object()
    from planner import create_app

    return create_app()


def session_scope():
    """A session for one command; the service commits, this closes."""
    app = get_app()
    return app.extensions["planner.sessionmaker"]()
