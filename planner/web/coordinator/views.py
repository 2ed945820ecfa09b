"""The coordinator blueprint and its overview page; feature modules attach their routes to `bp`."""

from __future__ import annotations

from flask import Blueprint, render_template

from planner.db import utcnow
from planner.queries.overview import get_overview
from planner.queries.replies import get_replies_overview
from planner.web.dbsession import get_session
from planner.web.pagecache import cached_page
from planner.web.roles import restrict_blueprint

bp = Blueprint("coordinator", __name__, url_prefix="/coordinator")
restrict_blueprint(bp, "coordinator")


@bp.route("/")
@cached_page
def home():
    return render_template("coordinator/home.html", overview=get_overview(get_session(), now=utcnow()),
                           replies=get_replies_overview(get_session(), now=utcnow()))
