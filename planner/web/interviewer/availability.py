"""The interviewer's own availability, on their page: working hours, days and zone, and busy time imported
from their calendar (.ics). The same services as the coordinator's pages; audited with the interviewer's
login as the actor. Caps stay with the coordinator (see :mod:`planner.services.pool.self_service`).

The section is drawn by ``interviewer/_availability.html`` from :func:`availability_section`; a refused
form is shown again on the home page, under its fields.
"""

from __future__ import annotations

from flask import abort, flash, g, redirect, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm

from planner.core.errors import NotFound, PlannerError
from planner.core.pool import CalendarImportError
from planner.core.prose import plural
from planner.core.timezones import known_timezones
from planner.db import utcnow
from planner.queries.my_interviews import interviewer_for_user
from planner.queries.pool import list_imports
from planner.services import pool as pool_service
from planner.services.pool.self_service import update_own_hours
from planner.web.coordinator.forms_pool import CalendarImportForm
from planner.web.dbsession import get_session
from planner.web.form_errors import field_named_by
from planner.web.interviewer import views
from planner.web.interviewer.forms_availability import HoursForm
from planner.web.interviewer.views import bp


def _me():
    me = interviewer_for_user(get_session(), current_user.id)
    if me is None:
        abort(404)
    return me


@bp.context_processor
def _availability_helpers():
    return {"availability_section": availability_section}


def availability_section(me) -> dict:
    """What the availability partial shows: the two forms (refused ones as posted) and the imported calendars."""
    hours = getattr(g, "hours_form", None)
    if hours is None:
        hours = HoursForm(formdata=None, obj=me)
        hours.work_days.data = me.work_days.split()
    imports = getattr(g, "import_form", None) or CalendarImportForm(formdata=None)
    return {"hours": hours, "import_form": imports, "imports": list_imports(get_session(), me.id),
            "zones": known_timezones()}


def _home_again():
    """The home page with the refused form under its fields (400)."""
    return views.home(), 400


@bp.route("/availability/hours", methods=["POST"])
def hours_update():
    me = _me()
    form = HoursForm()
    if form.validate_on_submit():
        try:
            update_own_hours(get_session(), me.id, timezone=form.timezone.data, work_start=form.work_start.data,
                             work_end=form.work_end.data, work_days=form.work_days.data or [],
                             actor_id=current_user.id)
        except PlannerError as exc:
            get_session().rollback()
            for error in getattr(exc, "errors", None) or [exc]:
                field = field_named_by(form, error) or form.work_end
                field.errors.append(str(error))
        else:
            flash("Your working hours are saved; new interviews are planned inside them.", "success")
            return redirect(url_for(".home") + "#availability")
    g.hours_form = form
    return _home_again()


@bp.route("/availability/import", methods=["POST"])
def busy_import():
    me = _me()
    form = CalendarImportForm()
    if form.validate_on_submit():
        upload = form.calendar.data
        name = form.source_name.data or getattr(upload, "filename", "") or "Calendar"
        session = get_session()
        try:
            result = pool_service.import_busy_ics(session, me.id, upload.read(), name, now=utcnow(),
                                                  horizon_days=form.horizon_days.data, actor_id=current_user.id)
        except CalendarImportError as exc:
            session.rollback()
            form.calendar.errors.append(f"Nothing was imported: {exc}")
        except PlannerError as exc:
            session.rollback()
            (field_named_by(form, exc) or form.calendar).errors.append(str(exc))
        else:
            label = result.source.removeprefix(pool_service.IMPORT_PREFIX)
            replaced = f" (replacing {result.replaced} from the previous import)" if result.replaced else ""
            flash(f"Imported {plural(result.imported, 'busy block')} from '{label}'{replaced}; no interview is "
                  "planned in them.", "success")
            return redirect(url_for(".home") + "#availability")
    g.import_form = form
    return _home_again()


@bp.route("/availability/import/remove", methods=["POST"])
def busy_import_remove():
    me = _me()
    form = FlaskForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        removed = pool_service.remove_import(get_session(), me.id, request.form.get("source", ""),
                                             actor_id=current_user.id)
    except (NotFound, PlannerError) as exc:
        flash(str(exc), "error")
    else:
        flash(f"Removed {plural(removed, 'imported block')}.", "success")
    return redirect(url_for(".home") + "#availability")
