"""The opt-in SQL statement count header the page benchmark reads."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("enabled", [True, False])
def test_statement_count_header(database_url, enabled):
    """With SQL_COUNT_HEADER, each response says how many statements it ran; without it, nothing is added."""
    from planner import create_app

    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "x", "SQL_COUNT_HEADER": enabled})
    client = app.test_client()
    health = client.get("/healthz")
    login = client.get("/login")
    if enabled:
        assert health.headers["X-SQL-Statements"] == "1"  # SELECT 1
        assert login.headers["X-SQL-Statements"] == "0"
    else:
        assert "X-SQL-Statements" not in health.headers
    app.extensions["planner.engine"].dispose()
