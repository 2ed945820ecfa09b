"""The manager blueprint and its home page."""

from __future__ import annotations

from flask import Blueprint, render_template

from planner.web.roles import restrict_blueprint

bp = Blueprint("manager", __name__, url_prefix="/manager")
restrict_blueprint(bp, "manager")


@bp.route("/")
def home():
    return render_template("manager/home.html")
