"""Coordinator pages for an interviewer's qualifications: add, change the level, remove, promote."""

from __future__ import annotations

from flask import flash, redirect, url_for
from flask_login import current_user

from planner.core.errors import NotFound, PlannerError, ValidationFailed
from planner.db import utcnow
from planner.queries import pool as pool_queries
from planner.services import pool as pool_service
from planner.web.coordinator.forms_pool import (
    PromoteForm,
    QualificationAddForm,
    QualificationLevelForm,
    choices,
)
from planner.web.coordinator.pool import back_to_detail
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session


@bp.route("/interviewers/<int:interviewer_id>/qualifications", methods=["POST"])
def pool_qualification_add(interviewer_id: int):
    session = get_session()
    form = QualificationAddForm()
    form.competency_id.choices = choices(pool_queries.list_competency_choices(session))
    if not form.validate_on_submit():
        flash("Pick a competency and a level to add.", "error")
        return back_to_detail(interviewer_id, "qualifications")
    try:
        qualification = pool_service.set_qualification(
            session,
            interviewer_id,
            form.competency_id.data,
            form.level.data,
            actor_id=current_user.id,
            now=utcnow(),
        )
    except NotFound as exc:
        flash(str(exc), "error")
    except ValidationFailed as exc:
        session.rollback()
        flash(str(exc), "error")
    else:
        name = next((c.label for c in form.competency_id.choices if c.value == qualification.competency_id), "")
        flash(f"{qualification.interviewer.name}: {name} added at level {qualification.level.value}.", "success")
    return back_to_detail(interviewer_id, "qualifications")


@bp.route("/interviewers/<int:interviewer_id>/qualifications/<int:competency_id>", methods=["POST"])
def pool_qualification_update(interviewer_id: int, competency_id: int):
    form = QualificationLevelForm()
    if not form.validate_on_submit():
        flash("Choose shadow, reverse-shadow or qualified.", "error")
        return back_to_detail(interviewer_id, "qualifications")
    try:
        pool_service.set_qualification(
            get_session(),
            interviewer_id,
            competency_id,
            form.level.data,
            actor_id=current_user.id,
            now=utcnow(),
        )
    except PlannerError as exc:
        flash(str(exc), "error")
    else:
        flash(f"Level changed to {form.level.data}.", "success")
    return back_to_detail(interviewer_id, "qualifications")


@bp.route("/interviewers/<int:interviewer_id>/qualifications/<int:competency_id>/remove", methods=["POST"])
def pool_qualification_remove(interviewer_id: int, competency_id: int):
    try:
        pool_service.remove_qualification(
            get_session(), interviewer_id, competency_id, actor_id=current_user.id
        )
    except PlannerError as exc:
        flash(str(exc), "error")
    else:
        flash("Qualification removed.", "success")
    return back_to_detail(interviewer_id, "qualifications")


@bp.route("/interviewers/<int:interviewer_id>/qualifications/<int:competency_id>/promote", methods=["POST"])
def pool_promote(interviewer_id: int, competency_id: int):
    form = PromoteForm()
    back_to_list = form.back.data == "list"
    if not form.validate_on_submit():
        flash("The reason is limited to 500 characters.", "error")
    else:
        try:
            qualification = pool_service.promote_qualification(
                get_session(),
                interviewer_id,
                competency_id,
                actor_id=current_user.id,
                now=utcnow(),
                reason=form.reason.data or "",
            )
        except PlannerError as exc:
            flash(str(exc), "error")
        else:
            person = qualification.interviewer
            flash(f"Promoted {person.name} to {qualification.level.value}.", "success")
    if back_to_list:
        return redirect(url_for("coordinator.pool_list"))
    return back_to_detail(interviewer_id, "qualifications")
