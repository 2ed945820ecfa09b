"""Coordinator pages for the competency library: browse, add, edit, retire and restore."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_login import current_user

from planner.core.errors import NotFound, PlannerError
from planner.db import utcnow
from planner.queries import competencies as library_queries
from planner.services import competencies as library_services
from planner.services.competencies import CompetencyFields
from planner.web.coordinator.forms_competencies import CompetencyForm
from planner.web.coordinator.forms_postings import EmptyForm
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.form_errors import show_error
from planner.web.pagecache import cached_page


def _fields(form: CompetencyForm) -> CompetencyFields:
    return CompetencyFields(
        name=form.name.data or "",
        category=form.category.data or "",
        description=form.description.data or "",
        rubric_strong=form.rubric_strong.data or "",
        rubric_weak=form.rubric_weak.data or "",
        phrases=form.phrases.data or "",
    )


@bp.route("/competencies")
@cached_page
def competencies_list():
    search = request.args.get("q", "").strip()[:200]
    page = library_queries.list_library(get_session(), search=search)
    return render_template(
        "coordinator/competencies/list.html", page=page, search=search, action_form=EmptyForm()
    )


@bp.route("/competencies/new", methods=["GET", "POST"])
def competency_new():
    form = CompetencyForm()
    if form.validate_on_submit():
        try:
            competency = library_services.create_competency(
                get_session(), form.slug.data or "", _fields(form), actor_id=current_user.id
            )
        except PlannerError as exc:
            show_error(form, exc)
        else:
            flash(
                f"{competency.name} added to the library; "
                "new postings and re-run suggestions will look for it.",
                "success",
            )
            return redirect(url_for("coordinator.competencies_list", _anchor=f"c-{competency.id}"))
    status = 400 if request.method == "POST" else 200
    return render_template("coordinator/competencies/form.html", form=form, competency=None, usage=0), status


@bp.route("/competencies/<int:competency_id>/edit", methods=["GET", "POST"])
def competency_edit(competency_id: int):
    session = get_session()
    try:
        competency = library_services.get_competency(session, competency_id)
    except NotFound:
        abort(404)
    form = CompetencyForm(obj=competency if request.method == "GET" else None)
    if request.method == "GET":
        form.category.data = competency.category.value
        form.phrases.data = "\n".join(competency.phrases or ())
    if form.validate_on_submit():
        try:
            library_services.update_competency(
                session, competency_id, _fields(form), actor_id=current_user.id
            )
        except PlannerError as exc:
            session.rollback()
            show_error(form, exc)
        else:
            flash(f"{competency.name} saved.", "success")
            return redirect(url_for("coordinator.competencies_list", _anchor=f"c-{competency_id}"))
    status = 400 if request.method == "POST" else 200
    usage = library_queries.get_usage(session, competency_id)
    return render_template(
        "coordinator/competencies/form.html",
        form=form,
        competency=competency,
        usage=usage,
        action_form=EmptyForm(),
    ), status


@bp.route("/competencies/<int:competency_id>/retire", methods=["POST"])
def competency_retire(competency_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        competency = library_services.retire_competency(
            get_session(), competency_id, now=utcnow(), actor_id=current_user.id
        )
    except NotFound:
        abort(404)
    except PlannerError as exc:
        flash(str(exc), "info")
        return redirect(url_for("coordinator.competencies_list"))
    flash(
        f"{competency.name} retired: postings that use it keep it, but it is no longer suggested or offered.",
        "success",
    )
    return redirect(url_for("coordinator.competencies_list", _anchor="retired"))


@bp.route("/competencies/<int:competency_id>/restore", methods=["POST"])
def competency_restore(competency_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        competency = library_services.restore_competency(
            get_session(), competency_id, actor_id=current_user.id
        )
    except NotFound:
        abort(404)
    except PlannerError as exc:
        flash(str(exc), "info")
        return redirect(url_for("coordinator.competencies_list"))
    flash(f"{competency.name} restored to the library.", "success")
    return redirect(url_for("coordinator.competencies_list", _anchor=f"c-{competency.id}"))
