"""The interviewer's own answer to an upcoming interview: accept, or decline with a reason."""

from __future__ import annotations

from flask import abort, flash, redirect, url_for
from flask_login import current_user

from planner.core.errors import NotFound, ValidationFailed
from planner.db import utcnow
from planner.queries.my_interviews import interviewer_for_user
from planner.services.answers import answer_invite
from planner.web.dbsession import get_session
from planner.web.interviewer.forms import AnswerForm
from planner.web.interviewer.views import bp


@bp.route("/interviews/<int:interview_id>/answer", methods=["POST"])
def interview_answer(interview_id: int):
    session = get_session()
    me = interviewer_for_user(session, current_user.id)
    if me is None:
        abort(404)
    form = AnswerForm()
    back = url_for(".home") + f"#interview-{interview_id}"
    if not form.validate_on_submit():
        flash(" ".join(form.answer.errors or form.reason.errors) or "Choose accept or decline.", "error")
        return redirect(back)
    try:
        seat = answer_invite(session, me.id, interview_id, form.answer.data, form.reason.data, actor_id=current_user.id,
                             now=utcnow())
    except NotFound:
        abort(404)
    except ValidationFailed as exc:
        flash(str(exc), "error")
        return redirect(back)
    name = seat.interview.round_name
    flash(f"You declined '{name}'. The coordinator is told and will find someone else." if form.answer.data ==
          "declined" else f"You accepted '{name}'.", "success")
    return redirect(back)
