"""GET /healthz: the database answers and which tz database the app reads."""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version

from flask import Blueprint, current_app, jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

bp = Blueprint("health", __name__)


@cache  # package metadata is read from disk; it does not change while the process runs
def _tzdata_version() -> str:
    try:
        return version("tzdata")
    except PackageNotFoundError:
        return "system"


@bp.route("/healthz")
def healthz():
    engine = current_app.extensions["planner.engine"]
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError:
        return jsonify(status="error", database="unreachable", tzdata=_tzdata_version()), 503
    return jsonify(status="ok", database="ok", backend=engine.dialect.name, tzdata=_tzdata_version())
