"""Coordinator pages for an interviewer's busy time: blocks added and deleted by hand, calendar imports."""

from __future__ import annotations

from flask import abort, flash, redirect, request, url_for
from flask_login import current_user

from planner.core.errors import NotFound, PlannerError, ValidationFailed
from planner.core.pool import CalendarImportError
from planner.core.prose import plural
from planner.db import utcnow
from planner.queries import pool as pool_queries
from planner.services import pool as pool_service
from planner.web.coordinator.forms_pool import (
    BusyBlockForm,
    CalendarImportForm,
)
from planner.web.coordinator.pool import back_to_detail, render_detail
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.form_errors import field_named_by


@bp.route("/interviewers/<int:interviewer_id>/busy", methods=["POST"])
def pool_busy_add(interviewer_id: int):
    session = get_session()
    form = BusyBlockForm()
    if form.validate_on_submit():
        try:
            block = pool_service.add_busy_block(
                session,
                interviewer_id,
                form.start.data,
                form.end.data,
                form.summary.data or "",
                actor_id=current_user.id,
            )
        except NotFound:
            abort(404)
        except ValidationFailed as exc:
            session.rollback()
            form.end.errors.append(str(exc))
        else:
            flash("Busy block added.", "success")
            week = pool_queries.local_monday(
                block.start, pool_queries.get_interviewer(session, interviewer_id).timezone
            )
            return redirect(
                url_for("coordinator.pool_view", interviewer_id=interviewer_id, week=week.isoformat())
                + "#busy"
            )
    return render_detail(interviewer_id, status=400, busy_form=form)


@bp.route("/interviewers/<int:interviewer_id>/busy/<int:block_id>/delete", methods=["POST"])
def pool_busy_delete(interviewer_id: int, block_id: int):
    try:
        pool_service.delete_busy_block(get_session(), interviewer_id, block_id, actor_id=current_user.id)
    except PlannerError as exc:
        flash(str(exc), "error")
    else:
        flash("Busy block deleted.", "success")
    return back_to_detail(interviewer_id, "busy")


@bp.route("/interviewers/<int:interviewer_id>/import", methods=["POST"])
def pool_busy_import(interviewer_id: int):
    session = get_session()
    form = CalendarImportForm()
    if form.validate_on_submit():
        upload = form.calendar.data
        name = form.source_name.data or (upload.filename or "").rsplit("/", 1)[-1] or "Calendar"
        try:
            result = pool_service.import_busy_ics(
                session,
                interviewer_id,
                upload.read(),
                name,
                now=utcnow(),
                horizon_days=form.horizon_days.data,
                actor_id=current_user.id,
            )
        except NotFound:
            abort(404)
        except CalendarImportError as exc:
            session.rollback()
            form.calendar.errors.append(f"Nothing was imported: {exc}")
        except ValidationFailed as exc:
            session.rollback()
            target = field_named_by(form, exc) or form.calendar
            target.errors.append(str(exc))
        else:
            label = result.source.removeprefix(pool_service.IMPORT_PREFIX)
            replaced = f" (replacing {result.replaced} from the previous import)" if result.replaced else ""
            flash(
                f"Imported {plural(result.imported, 'busy block')} from '{label}'"
                f"{replaced}.",
                "success",
            )
            return back_to_detail(interviewer_id, "busy")
    return render_detail(interviewer_id, status=400, import_form=form)


@bp.route("/interviewers/<int:interviewer_id>/imports/remove", methods=["POST"])
def pool_import_remove(interviewer_id: int):
    source = request.form.get("source", "")
    try:
        removed = pool_service.remove_import(get_session(), interviewer_id, source, actor_id=current_user.id)
    except PlannerError as exc:
        flash(str(exc), "error")
    else:
        flash(f"Removed {plural(removed, 'imported block')}.", "success")
    return back_to_detail(interviewer_id, "busy")
