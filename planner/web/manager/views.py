"""The manager blueprint: read-only coverage and evidence dashboards (GET only)."""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, current_app, render_template, request
from flask_login import current_user

from planner.core.coverage import matrix_csv
from planner.core.errors import NotFound
from planner.db import utcnow
from planner.queries import coverage as coverage_queries
from planner.queries.evidence import get_posting_evidence
from planner.web import paging
from planner.web.dbsession import get_session
from planner.web.extensions import login_manager
from planner.web.pagecache import cached_page

bp = Blueprint("manager", __name__, url_prefix="/manager")
#: Pages a coordinator may read too (they run the loops the evidence comes from).
COORDINATOR_READABLE = {"manager.posting_evidence"}


@bp.before_request
def _require_role():
    if not current_user.is_authenticated:
        return login_manager.unauthorized()
    if current_user.has_role("manager"):
        return None
    if request.endpoint in COORDINATOR_READABLE and current_user.has_role("coordinator"):
        return None
    abort(403)


@bp.route("/")
@cached_page
def home():
    postings = coverage_queries.list_posting_coverage(get_session())
    # The tiles count every posting; the table shows a page of them (COVERAGE_PAGE_SIZE), problems first.
    pager = paging.pager(len(postings), current_app.config["COVERAGE_PAGE_SIZE"])
    shown = postings[pager["offset"]:pager["offset"] + pager["size"]]
    return render_template("manager/home.html", postings=postings, shown=shown, pager=pager)


def _posting(posting_id: int):
    try:
        return coverage_queries.get_posting_coverage(get_session(), posting_id)
    except NotFound:
        abort(404)


@bp.route("/postings/<int:posting_id>")
@cached_page
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


@bp.route("/postings/<int:posting_id>/evidence")
@cached_page
def posting_evidence(posting_id: int):
    try:
        view = get_posting_evidence(get_session(), posting_id, utcnow())
    except NotFound:
        abort(404)
    return render_template("manager/evidence.html", view=view)
