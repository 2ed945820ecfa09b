"""The manager blueprint: read-only coverage dashboards (GET only)."""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, render_template

from planner.core.coverage import matrix_csv
from planner.core.errors import NotFound
from planner.queries import coverage as coverage_queries
from planner.web.dbsession import get_session
from planner.web.roles import restrict_blueprint

bp = Blueprint("manager", __name__, url_prefix="/manager")
restrict_blueprint(bp, "manager")


@bp.route("/")
def home():
    postings = coverage_queries.list_posting_coverage(get_session())
    return render_template("manager/home.html", postings=postings)


def _posting(posting_id: int):
    try:
        return coverage_queries.get_posting_coverage(get_session(), posting_id)
    except NotFound:
        abort(404)


@bp.route("/postings/<int:posting_id>")
def posting_coverage(posting_id: int):
    return render_template("manager/posting.html", view=_posting(posting_id))


@bp.route("/postings/<int:posting_id>/coverage.csv")
def posting_coverage_csv(posting_id: int):
    view = _posting(posting_id)
    slug = re.sub(r"[^a-z0-9]+", "-", view.title.lower()).strip("-")[:60] or "posting"
    return Response(
        matrix_csv(view.coverage), mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="coverage-{view.id}-{slug}.csv"'},
    )
