"""Coordinator pages for a proposal's trainee seats: drop a trainee from a round, or seat one who is free.

The proposal stays in its signed token: each POST reads it, asks the service for the edited proposal and
sends the coordinator back to the schedule page with the new token. A form that does not check out (a token
not signed by the app, a round or person not in the proposal) changes nothing and says so in one sentence.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import flash, redirect, request, url_for

from planner.core.errors import PlannerError
from planner.db import utcnow
from planner.services import proposal_trainees, scheduling
from planner.web.coordinator.forms_loops import ConfirmForm, TraineeSeatForm
from planner.web.coordinator.proposal_pages import (
    EXPIRED,
    current_proposal,
    loop_detail,
    proposal_from_token,
    proposal_token,
    render_proposal,
    unless_draft,
)
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session


@bp.route("/loops/<int:loop_id>/schedule/trainees")
def loop_trainees(loop_id: int):
    """The proposal with, below a round, the trainees who could take its empty trainee seat."""
    detail = loop_detail(loop_id)
    if (done := unless_draft(detail)) is not None:
        return done
    interviews = current_proposal(loop_id)
    if interviews is None:
        flash(EXPIRED, "error")
        return redirect(url_for("coordinator.loop_schedule", loop_id=loop_id))
    session = get_session()
    round_key = request.args.get("round", "")
    try:
        options = proposal_trainees.trainee_options(session, loop_id, interviews, round_key, now=utcnow())
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(url_for("coordinator.loop_schedule", loop_id=loop_id, p=proposal_token(loop_id, interviews)))
    proposal = scheduling.resume(session, loop_id, interviews, now=utcnow())
    return render_proposal(detail, proposal, ConfirmForm(), trainees={"round": round_key, "options": options})


@bp.route("/loops/<int:loop_id>/schedule/trainees/drop", methods=["POST"])
def loop_trainee_drop(loop_id: int):
    """Take a trainee out of a round of the proposal."""
    return _edit(loop_id, lambda session, interviews, form: proposal_trainees.drop_trainee(
        session, loop_id, interviews, form.round.data, form.trainee.data),
        "{name} no longer sits in '{round}' as a trainee; the round keeps its assessors and time.")


@bp.route("/loops/<int:loop_id>/schedule/trainees/add", methods=["POST"])
def loop_trainee_add(loop_id: int):
    """Seat a free trainee in a round's empty trainee seat."""
    return _edit(loop_id, lambda session, interviews, form: proposal_trainees.add_trainee(
        session, loop_id, interviews, form.round.data, form.trainee.data, now=utcnow()),
        "{name} joins '{round}' as a trainee; every rule still holds.")


def _edit(loop_id: int, change: Callable, done: str):
    detail = loop_detail(loop_id)
    if (finished := unless_draft(detail)) is not None:
        return finished
    form = TraineeSeatForm()
    interviews = proposal_from_token(loop_id, form.proposal.data)
    if interviews is None:
        flash(EXPIRED, "error")
        return redirect(url_for("coordinator.loop_schedule", loop_id=loop_id))
    unchanged = url_for("coordinator.loop_schedule", loop_id=loop_id, p=proposal_token(loop_id, interviews))
    if not form.validate_on_submit():
        flash("The page had expired; press the button again." if "csrf_token" in form.errors else
              "That trainee seat is not in the proposal; nothing was changed.", "error")
        return redirect(unchanged)
    try:
        result = change(get_session(), interviews, form)
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(unchanged)
    flash(done.format(name=result.name, round=result.round_name), "success")
    return redirect(url_for("coordinator.loop_schedule", loop_id=loop_id, p=proposal_token(loop_id, result.interviews),
                            _anchor=f"round-{form.round.data}"))
