"""Coordinator pages that fix a scheduled loop: replace an interviewer, reschedule, cancel or re-place one interview.

A proposed new plan travels to the confirm POST in a signed token; it is only a suggestion: the
service re-checks every rule inside its transaction.
"""

from __future__ import annotations

from datetime import datetime

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user
from itsdangerous import BadSignature, URLSafeSerializer
from wtforms.fields.choices import SelectChoice

from planner.core.errors import Conflict, NotFound, PlannerError
from planner.core.prose import plural
from planner.db import utcnow
from planner.services import changes, replacements
from planner.services.loop_state import get_interview
from planner.web.coordinator.forms_changes import CancelInterviewForm, PlaceForm, ReplaceForm, RescheduleForm
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.mail_settings import mail_settings


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key, salt="interview-replan")


def _interview(interview_id: int):
    try:
        return get_interview(get_session(), interview_id)
    except NotFound:
        abort(404)


def _back(interview) -> str:
    return url_for("coordinator.loop_view", loop_id=interview.loop_id)


@bp.route("/interviews/<int:interview_id>/replace", methods=["GET", "POST"])
def interview_replace(interview_id: int):
    interview = _interview(interview_id)
    leaving = request.values.get("leaving", type=int)
    if leaving is None:
        abort(404)
    form = ReplaceForm()
    session = get_session()
    if request.method == "POST":
        if form.validate_on_submit():
            choice = request.form.get("joining", "")
            try:
                plan = None
                if choice == "plan":
                    data = _signer().loads(form.plan.data or "")
                    if data.get("interview") != interview_id or data.get("leaving") != leaving:
                        raise BadSignature("another interview")
                    plan = data["plan"]
                joining = int(choice) if choice.isdigit() else None
                if choice not in ("plan", "drop") and joining is None:
                    raise PlannerError("Pick who takes the seat.")
                replacements.replace_interviewer(session, interview_id, leaving, joining_id=joining, plan=plan,
                                                 reason=form.reason.data, actor_id=current_user.id, now=utcnow(),
                                                 settings=mail_settings())
            except BadSignature:
                flash("That new plan had expired; here is a fresh one.", "error")
            except Conflict as exc:
                flash(f"Conflict: {exc}", "error")
            except NotFound:
                abort(404)
            except PlannerError as exc:
                flash(str(exc), "error")
            else:
                flash("Panel changed; the person taken off gets a cancellation and the panel the update.",
                      "success")
                return redirect(_back(interview))
        session.rollback()
    try:
        options = replacements.replacement_options(session, interview_id, leaving, now=utcnow())
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(_back(interview))
    token = ""
    if options.new_plan:
        token = _signer().dumps({"interview": interview_id, "leaving": leaving,
                                 "plan": [c.as_dict() for c in options.new_plan]})
    form.plan.data = token
    status = 400 if request.method == "POST" else 200
    return render_template("coordinator/loops/replace.html", o=options, interview=options.interview,
                           loop=options.interview.loop, form=form, leaving=leaving), status


@bp.route("/interviews/<int:interview_id>/reschedule", methods=["GET", "POST"])
def interview_reschedule(interview_id: int):
    interview = _interview(interview_id)
    session = get_session()
    try:
        starts = changes.reschedule_options(session, interview_id, now=utcnow())
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(_back(interview))
    form = RescheduleForm()
    form.start.choices = [SelectChoice(s.isoformat(), s.isoformat()) for s in starts]
    if form.validate_on_submit():
        try:
            changes.reschedule_interview(session, interview_id, datetime.fromisoformat(form.start.data),
                                         reason=form.reason.data, actor_id=current_user.id, now=utcnow(),
                                         settings=mail_settings())
        except PlannerError as exc:
            flash(str(exc), "error")
            return redirect(url_for("coordinator.interview_reschedule", interview_id=interview_id))
        flash(f"'{interview.round_name}' moved; the panel and the candidate get the update.", "success")
        return redirect(_back(interview))
    status = 400 if request.method == "POST" else 200
    return render_template("coordinator/loops/reschedule.html", interview=interview, loop=interview.loop,
                           starts=starts, form=form), status


@bp.route("/interviews/<int:interview_id>/cancel", methods=["POST"])
def interview_cancel(interview_id: int):
    interview = _interview(interview_id)
    form = CancelInterviewForm()
    if not form.validate_on_submit():
        flash("Say why the interview is cancelled.", "error")
        return redirect(_back(interview))
    try:
        changes.cancel_interview(get_session(), interview_id, form.reason.data, actor_id=current_user.id,
                                 now=utcnow(), settings=mail_settings())
    except PlannerError as exc:
        flash(str(exc), "error")
    else:
        flash(f"'{interview.round_name}' cancelled; the panel and the candidate get a cancellation.", "success")
    return redirect(_back(interview))


@bp.route("/interviews/<int:interview_id>/place", methods=["GET", "POST"])
def interview_place(interview_id: int):
    interview = _interview(interview_id)
    form = PlaceForm()
    if request.method == "GET":
        form.location.data, form.video_url.data = interview.location, interview.video_url
    elif form.validate_on_submit():
        try:
            count = changes.update_place(get_session(), interview_id, location=form.location.data,
                                         video_url=form.video_url.data, whole_loop=form.scope.data == "loop",
                                         reason=form.reason.data, actor_id=current_user.id, now=utcnow(),
                                         settings=mail_settings())
        except PlannerError as exc:
            form.video_url.errors = [*form.video_url.errors, str(exc)]
        else:
            flash(f"Place saved; {plural(count, 'interview')} updated for everyone invited.",
                  "success")
            return redirect(_back(interview))
    status = 400 if request.method == "POST" else 200
    return render_template("coordinator/loops/place.html", interview=interview, loop=interview.loop,
                           form=form), status
