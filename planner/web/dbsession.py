"""One SQLAlchemy session per request, opened lazily on `g` and always closed."""

from __future__ import annotations

from flask import current_app, g
from sqlalchemy.orm import Session


def get_session() -> Session:
    """The request's session; services commit it, teardown closes it."""
    if "db_session" not in g:
        g.db_session = current_app.extensions["planner.sessionmaker"]()
    return g.db_session


def close_session(_exc: BaseException | None = None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        # Anything a failed request left open is rolled back, never committed by accident.
        session.rollback()
        session.close()
