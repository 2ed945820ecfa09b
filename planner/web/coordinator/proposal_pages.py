"""What the proposal pages share: the signed proposal token, the loop they show and how they render it.

A proposal travels between requests in a signed token (itsdangerous with the app's SECRET_KEY); it is
only a suggestion: confirming re-checks every rule inside the transaction.
"""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from itsdangerous import BadSignature, URLSafeSerializer

from planner.db import utcnow
from planner.queries import loops as loop_queries
from planner.services import scheduling
from planner.services.scheduling_problem import loop_rounds, takes_trainee
from planner.web.dbsession import get_session

#: Said when a proposal's token is missing, tampered with or from another loop.
EXPIRED = "The proposal had expired; here is a fresh one."


def proposal_signer() -> URLSafeSerializer:
    """The signer of proposal tokens, for one loop or a hiring event's batch."""
    return URLSafeSerializer(current_app.secret_key, salt="loop-proposal")


def proposal_token(loop_id: int, interviews: list[dict]) -> str:
    """The signed token of one loop's proposal."""
    return proposal_signer().dumps({"loop": loop_id, "interviews": interviews})


def proposal_from_token(loop_id: int, token: str | None) -> list[dict] | None:
    """The proposal in ``token``; None when it is missing, not signed by the app, or another loop's."""
    if not token:
        return None
    try:
        data = proposal_signer().loads(token)
    except BadSignature:
        return None
    return data["interviews"] if isinstance(data, dict) and data.get("loop") == loop_id else None


def loop_detail(loop_id: int):
    """The loop a proposal page shows; 404 when there is none."""
    detail = loop_queries.get_loop_detail(get_session(), loop_id)
    if detail is None:
        abort(404)
    return detail


def unless_draft(detail):
    """A redirect to the loop when it is no longer a draft (scheduled in another tab, or the Back button after
    confirming); None for a draft. Said as what happened, not as an error."""
    status = detail.loop.status.value
    if status == "draft":
        return None
    flash(
        f"{detail.loop.candidate.name}'s loop is already {status}; "
        + ("change it from its interviews below." if status == "scheduled" else "it cannot be scheduled again."),
        "info",
    )
    return redirect(url_for("coordinator.loop_view", loop_id=detail.loop.id))


def current_proposal(loop_id: int) -> list[dict] | None:
    """The proposal in the request (re-solved when absent or tampered with); None when there is none."""
    interviews = proposal_from_token(loop_id, request.values.get("p"))
    if interviews is not None:
        return interviews
    return None


def render_proposal(detail, proposal, form, *, swap=None, moves=None, trainees=None, status: int = 200):
    session = get_session()
    plan = loop_rounds(session, detail.loop).rounds
    names = {k: r["name"] for k, r in plan.items()}
    token = proposal_token(detail.loop.id, proposal.interviews) if proposal.scheduled else ""
    form.proposal.data = token
    issues = scheduling.check(session, detail.loop.id, proposal.interviews, now=utcnow()) \
        if proposal.scheduled else []
    rounds = loop_queries.proposal_rounds(session, proposal.interviews, names)
    return render_template("coordinator/loops/schedule.html", d=detail, loop=detail.loop, proposal=proposal,
                           rounds=rounds, token=token, form=form, swap=swap, moves=moves, issues=issues,
                           names=names, trainees=trainees,
                           trainee_rounds={k for k, r in plan.items() if takes_trainee(r)}), status
