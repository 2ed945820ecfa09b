"""Coordinator pages for the interviewer pool: the list, a new or edited profile, (de)activation and the
profile page; its qualifications are in ``pool_qualifications``, its busy time in ``pool_busy``."""

from __future__ import annotations

from datetime import date

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user

from planner.core.errors import NotFound, ValidationFailed
from planner.core.prose import plural
from planner.core.timezones import known_timezones
from planner.db import utcnow
from planner.queries import pool as pool_queries
from planner.services import pool as pool_service
from planner.web import paging
from planner.web.coordinator.forms_pool import (
    BusyBlockForm,
    CalendarImportForm,
    InterviewerForm,
    PoolFilterForm,
    PromoteForm,
    QualificationAddForm,
    QualificationLevelForm,
    choices,
)
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.form_errors import field_named_by
from planner.web.pagecache import cached_page

# ---------------------------------------------------------------------------------- list


@bp.route("/interviewers")
@cached_page
def pool_list():
    session = get_session()
    form = PoolFilterForm(request.args)
    form.competency.choices = choices([(0, "Any competency"), *pool_queries.list_competency_choices(session)])
    form.team.choices = choices([("", "Any team"), *((t, t) for t in pool_queries.list_teams(session))])
    form.validate()  # unknown choices are reported on the field and ignored below
    # A pool of thousands is shown a page at a time (POOL_PAGE_SIZE people), filters kept across pages.
    size = max(int(current_app.config.get("POOL_PAGE_SIZE", 50)), 1)
    number = max(request.args.get("page", 1, type=int) or 1, 1)
    filters = {
        "competency_id": form.competency.data if not form.competency.errors else None,
        "level": form.level.data if not form.level.errors else None,
        "team": form.team.data if not form.team.errors else None,
        "search": form.q.data if not form.q.errors else None,
        "include_inactive": bool(form.inactive.data),
    }
    page = pool_queries.list_pool(session, now=utcnow(), limit=size, offset=(number - 1) * size, **filters)
    pager = paging.pager(page.total, size)  # the total comes with the page, so the pager follows it
    if pager["page"] != number:  # past the last page (the pool shrank): show the last one
        page = pool_queries.list_pool(session, now=utcnow(), limit=size, offset=pager["offset"], **filters)
    filtered = any(request.args.get(k) for k in ("q", "competency", "level", "team"))
    return render_template(
        "coordinator/pool/list.html", page=page, form=form, filtered=filtered, promote_form=PromoteForm(),
        pager=pager,
    )


# ---------------------------------------------------------------------------------- create / edit


def _service_input(form: InterviewerForm) -> pool_service.InterviewerInput:
    return pool_service.InterviewerInput(
        name=form.name.data or "",
        email=form.email.data or "",
        team=form.team.data or "",
        timezone=(form.timezone.data or "").strip(),
        work_start=(form.work_start.data or "").strip(),
        work_end=(form.work_end.data or "").strip(),
        work_days=list(form.work_days.data or []),
        max_per_day=form.max_per_day.data,
        max_per_week=form.max_per_week.data,
        user_id=form.user_id.data or None,
    )


def _prepare(form: InterviewerForm, interviewer_id: int | None) -> None:
    form.user_id.choices = choices(
        [(0, "No login"), *pool_queries.list_login_choices(get_session(), interviewer_id)]
    )


def _apply_error(form: InterviewerForm, exc: ValidationFailed) -> None:
    """Each field a service error names gets its sentence (all of them when several fields are wrong)."""
    for error in getattr(exc, "errors", None) or [exc]:
        field = field_named_by(form, error)
        (field.errors if field is not None else form.form_errors).append(str(error))


def _validate(form: InterviewerForm, interviewer_id: int | None) -> bool:
    """The form's own checks; when they fail, the service's checks too, so every wrong field is named at once
    (a field the form already refused keeps the form's sentence)."""
    if form.validate_on_submit():
        return True
    if form.is_submitted():
        for error in pool_service.check_interviewer(get_session(), _service_input(form), interviewer_id):
            field = field_named_by(form, error)
            if field is not None and not field.errors:
                field.errors.append(str(error))
    return False


@bp.route("/interviewers/new", methods=["GET", "POST"])
def pool_new():
    form = InterviewerForm()
    _prepare(form, None)
    if request.method == "GET" and not form.timezone.data:
        form.timezone.data = current_user.timezone or "UTC"
    if _validate(form, None):
        try:
            person = pool_service.create_interviewer(
                get_session(), _service_input(form), actor_id=current_user.id
            )
        except ValidationFailed as exc:
            _apply_error(form, exc)
        else:
            flash(f"{person.name} joined the interviewer pool. Add their qualifications next.", "success")
            return redirect(url_for("coordinator.pool_view", interviewer_id=person.id))
    return render_template(
        "coordinator/pool/form.html",
        form=form,
        person=None,
        zones=known_timezones(),
        teams=pool_queries.list_teams(get_session()),
    ), (400 if form.errors or form.form_errors else 200)


@bp.route("/interviewers/<int:interviewer_id>/edit", methods=["GET", "POST"])
def pool_edit(interviewer_id: int):
    session = get_session()
    try:
        person = pool_queries.get_interviewer(session, interviewer_id)
    except NotFound:
        abort(404)
    form = InterviewerForm(obj=person if request.method == "GET" else None)
    if request.method == "GET":
        form.work_days.data = person.work_days.split()
        form.user_id.data = person.user_id or 0
    _prepare(form, interviewer_id)
    if _validate(form, interviewer_id):
        try:
            pool_service.update_interviewer(
                session, interviewer_id, _service_input(form), actor_id=current_user.id
            )
        except ValidationFailed as exc:
            session.rollback()
            _apply_error(form, exc)
        else:
            flash(f"Saved {form.name.data.strip()}'s profile.", "success")
            return redirect(url_for("coordinator.pool_view", interviewer_id=interviewer_id))
    return render_template(
        "coordinator/pool/form.html",
        form=form,
        person=person,
        zones=known_timezones(),
        teams=pool_queries.list_teams(session),
    ), (400 if form.errors or form.form_errors else 200)


def _set_active(interviewer_id: int, active: bool):
    session = get_session()
    try:
        person = pool_service.set_active(session, interviewer_id, active, actor_id=current_user.id)
    except NotFound:
        abort(404)
    if active:
        flash(f"{person.name} is back in the pool and can be scheduled again.", "success")
    else:
        upcoming = pool_service.upcoming_seat_count(session, interviewer_id, utcnow())
        note = (
            f" They still hold {plural(upcoming, 'upcoming interview')}; reassign "
            "them from the loops page."
            if upcoming
            else ""
        )
        flash(f"{person.name} is deactivated and will not be proposed for new interviews.{note}", "success")
    return redirect(url_for("coordinator.pool_view", interviewer_id=interviewer_id))


@bp.route("/interviewers/<int:interviewer_id>/deactivate", methods=["POST"])
def pool_deactivate(interviewer_id: int):
    return _set_active(interviewer_id, False)


@bp.route("/interviewers/<int:interviewer_id>/reactivate", methods=["POST"])
def pool_reactivate(interviewer_id: int):
    return _set_active(interviewer_id, True)


# ---------------------------------------------------------------------------------- detail


def _week_arg() -> date | None:
    text = request.args.get("week", "")
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        flash(f"'{text}' is not a date; showing this week.", "warning")
        return None


def render_detail(
    interviewer_id: int,
    *,
    status: int = 200,
    busy_form: BusyBlockForm | None = None,
    import_form: CalendarImportForm | None = None,
    add_form: QualificationAddForm | None = None,
):
    session = get_session()
    try:
        detail = pool_queries.get_interviewer_detail(
            session, interviewer_id, now=utcnow(), week_start=_week_arg()
        )
    except NotFound:
        abort(404)
    add_form = add_form or QualificationAddForm(formdata=None)
    add_form.competency_id.choices = choices(detail.addable_competencies)
    return render_template(
        "coordinator/pool/view.html",
        d=detail,
        person=detail.interviewer,
        busy_form=busy_form or BusyBlockForm(formdata=None),
        import_form=import_form or CalendarImportForm(formdata=None),
        add_form=add_form,
        level_form=QualificationLevelForm(formdata=None),
        promote_form=PromoteForm(formdata=None),
    ), status


@bp.route("/interviewers/<int:interviewer_id>")
@cached_page
def pool_view(interviewer_id: int):
    return render_detail(interviewer_id)


def back_to_detail(interviewer_id: int, anchor: str = ""):
    target = url_for("coordinator.pool_view", interviewer_id=interviewer_id)
    week = request.form.get("week") or request.args.get("week")
    if week:
        target = url_for("coordinator.pool_view", interviewer_id=interviewer_id, week=week)
    return redirect(target + (f"#{anchor}" if anchor else ""))
