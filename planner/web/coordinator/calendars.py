"""Coordinator routes for an interviewer's CalDAV calendar (save, remove, sync now) and the busy-time flags."""

from __future__ import annotations

from flask import abort, current_app, redirect, url_for
from flask_login import current_user

from planner.core.errors import NotFound
from planner.db import utcnow
from planner.queries.busy_conflicts import list_busy_conflicts
from planner.queries.pool import get_interviewer
from planner.web import calendar_panel
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session


def _person_or_404(interviewer_id: int):
    try:
        return get_interviewer(get_session(), interviewer_id)
    except NotFound:
        abort(404)


def _back(interviewer_id: int):
    return redirect(url_for("coordinator.pool_view", interviewer_id=interviewer_id) + "#caldav")


@bp.app_template_global("coordinator_calendar_panel")
def coordinator_calendar_panel(interviewer_id: int) -> calendar_panel.Panel:
    """The CalDAV panel of a person's page in the pool."""
    return calendar_panel.panel(
        interviewer_id,
        save_url=url_for("coordinator.pool_calendar_save", interviewer_id=interviewer_id),
        remove_url=url_for("coordinator.pool_calendar_remove", interviewer_id=interviewer_id),
        sync_url=url_for("coordinator.pool_calendar_sync", interviewer_id=interviewer_id),
        whose="their",
    )


@bp.app_template_global("busy_conflicts")
def busy_conflicts(loop_id: int | None = None):
    """Confirmed upcoming interviews whose interviewer is now busy (the overview's and a loop page's flags)."""
    return list_busy_conflicts(get_session(), now=utcnow(), loop_id=loop_id)


@bp.route("/interviewers/<int:interviewer_id>/calendar", methods=["POST"])
def pool_calendar_save(interviewer_id: int):
    _person_or_404(interviewer_id)
    if calendar_panel.save(interviewer_id, current_user.id):
        return _back(interviewer_id)
    page = current_app.view_functions["coordinator.pool_view"](interviewer_id=interviewer_id)
    return (page[0] if isinstance(page, tuple) else page), 400


@bp.route("/interviewers/<int:interviewer_id>/calendar/remove", methods=["POST"])
def pool_calendar_remove(interviewer_id: int):
    _person_or_404(interviewer_id)
    calendar_panel.remove(interviewer_id, current_user.id)
    return _back(interviewer_id)


@bp.route("/interviewers/<int:interviewer_id>/calendar/sync", methods=["POST"])
def pool_calendar_sync(interviewer_id: int):
    _person_or_404(interviewer_id)
    calendar_panel.sync(interviewer_id, current_user.id)
    return _back(interviewer_id)
