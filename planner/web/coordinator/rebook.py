"""Coordinator page that books a cancelled round again (the fix offered when a cancellation leaves a
competency short of its required rounds)."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_login import current_user

from planner.core.errors import Conflict, NotFound, PlannerError
from planner.db import utcnow
from planner.services import rebook
from planner.services.loop_state import get_interview
from planner.web.coordinator.forms_changes import RebookForm
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.mail_settings import mail_settings


@bp.route("/interviews/<int:interview_id>/rebook", methods=["GET", "POST"])
def interview_rebook(interview_id: int):
    session = get_session()
    form = RebookForm()
    chosen = request.form.get("option", "")
    if form.validate_on_submit():
        try:
            start, assessors, trainees = rebook.parse_option(chosen)
            created = rebook.rebook_round(session, interview_id, start=start, interviewers=assessors,
                                          trainees=trainees, reason=form.reason.data, actor_id=current_user.id,
                                          now=utcnow(), settings=mail_settings())
        except NotFound:
            abort(404)
        except Conflict as exc:
            flash(str(exc), "error")
        except PlannerError as exc:
            flash(str(exc), "error")
        else:
            flash(f"'{created.round_name}' booked again; the panel and the candidate get the invites.", "success")
            return redirect(url_for("coordinator.loop_view", loop_id=created.loop_id))
        session.rollback()
    try:
        proposal = rebook.rebook_options(session, interview_id, now=utcnow())
    except NotFound:
        abort(404)
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(url_for("coordinator.loop_view", loop_id=get_interview(session, interview_id).loop_id))
    people = rebook.people_of(session, proposal)
    status = 400 if request.method == "POST" else 200
    return render_template("coordinator/loops/rebook.html", p=proposal, interview=proposal.interview,
                           loop=proposal.interview.loop, form=form, people=people, chosen=chosen), status
