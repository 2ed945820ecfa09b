"""The interviewer blueprint and its home page."""

from __future__ import annotations

from flask import Blueprint, render_template

from planner.web.roles import restrict_blueprint

bp = Blueprint("interviewer", __name__, url_prefix="/interviewer")
restrict_blueprint(bp, "interviewer")


@bp.route("/")
def home():
    return render_template("interviewer/home.html")
