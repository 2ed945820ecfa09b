"""The interviewer's own CalDAV calendar: save, remove and sync it from their page."""

from __future__ import annotations

from flask import abort, current_app, redirect, url_for
from flask_login import current_user

from planner.queries.my_interviews import interviewer_for_user
from planner.web import calendar_panel
from planner.web.dbsession import get_session
from planner.web.interviewer.views import bp


def _my_id() -> int:
    me = interviewer_for_user(get_session(), current_user.id)
    if me is None:
        abort(404)
    return me.id


def _back():
    return redirect(url_for("interviewer.home") + "#caldav")


@bp.app_template_global("my_calendar_panel")
def my_calendar_panel(interviewer_id: int) -> calendar_panel.Panel:
    """The CalDAV panel of the interviewer's own page."""
    return calendar_panel.panel(
        interviewer_id,
        save_url=url_for("interviewer.calendar_save"),
        remove_url=url_for("interviewer.calendar_remove"),
        sync_url=url_for("interviewer.calendar_sync"),
        whose="your",
    )


@bp.route("/calendar", methods=["POST"])
def calendar_save():
    if calendar_panel.save(_my_id(), current_user.id):
        return _back()
    page = current_app.view_functions["interviewer.home"]()
    return (page[0] if isinstance(page, tuple) else page), 400


@bp.route("/calendar/remove", methods=["POST"])
def calendar_remove():
    calendar_panel.remove(_my_id(), current_user.id)
    return _back()


@bp.route("/calendar/sync", methods=["POST"])
def calendar_sync():
    calendar_panel.sync(_my_id(), current_user.id)
    return _back()
