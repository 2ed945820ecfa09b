"""Count the SQL statements of each request and report them in an ``X-SQL-Statements`` header.

Off unless ``SQL_COUNT_HEADER`` is set (``PLANNER_SQL_COUNT_HEADER=true``): the page benchmark turns it
on to show that the statements per page stay the same whatever the size of the data.
"""

from __future__ import annotations

from flask import Flask, g, has_request_context
from sqlalchemy import event

HEADER = "X-SQL-Statements"


def note_statement() -> None:
    """Count a statement run on a driver connection directly (SQLAlchemy's events do not see it)."""
    if has_request_context():
        g.sql_statements = g.get("sql_statements", 0) + 1


def register(app: Flask) -> None:
    """Listen on the app's engine and add the header to every response, when the config asks for it."""
    if not app.config.get("SQL_COUNT_HEADER"):
        return
    engine = app.extensions["planner.engine"]

    @event.listens_for(engine, "before_cursor_execute")
    def _count(_conn, _cursor, _statement, _parameters, _context, _executemany):
        note_statement()

    @app.after_request
    def _report(response):
        response.headers[HEADER] = str(g.get("sql_statements", 0))
        return response
