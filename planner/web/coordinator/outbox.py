"""Coordinator pages for the outbox: what is waiting, sent or failed (and why), resend, downloads."""

from __future__ import annotations

from flask import Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user

from planner.core.errors import PlannerError
from planner.db import utcnow
from planner.models import OutboxState
from planner.queries.outbox import count_by_state, get_message, list_messages
from planner.services.outbox import SmtpSettings, eml_bytes, resend
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session

TABS = ("all", "pending", "sending", "sent", "failed")


@bp.route("/outbox")
def outbox_list():
    state = request.args.get("state", "all")
    if state not in TABS:
        state = "all"
    session = get_session()
    counts = count_by_state(session)
    counts["all"] = sum(counts.values())
    size = max(1, int(current_app.config["OUTBOX_PAGE_SIZE"]))
    pages = max(1, -(-counts[state] // size))
    # A page number that is not a number, or past the end, shows the nearest real page.
    page = min(max(request.args.get("page", 1, type=int) or 1, 1), pages)
    messages = list_messages(session, None if state == "all" else state, limit=size, offset=(page - 1) * size)
    smtp = SmtpSettings.from_mapping(current_app.config)
    return render_template(
        "coordinator/outbox/list.html",
        messages=messages,
        counts=counts,
        state=state,
        tabs=TABS,
        smtp=smtp,
        now=utcnow(),
        page=page,
        pages=pages,
        first_shown=(page - 1) * size + 1,
    )


def _message_or_404(message_id: int):
    message = get_message(get_session(), message_id)
    if message is None:
        abort(404)
    return message


@bp.route("/outbox/<int:message_id>/resend", methods=["POST"])
def outbox_resend(message_id: int):
    try:
        message = resend(get_session(), message_id, actor_id=current_user.id, now=utcnow())
    except PlannerError as exc:
        flash(str(exc), "error")
    else:
        flash(f"Queued again for {message.recipient_email}.", "success")
    return redirect(
        url_for(".outbox_list", state=request.args.get("state", "all"), page=request.args.get("page", 1, type=int))
    )


@bp.route("/outbox/<int:message_id>.eml")
def outbox_eml(message_id: int):
    message = _message_or_404(message_id)
    return Response(
        eml_bytes(message),
        mimetype="message/rfc822",
        headers={"Content-Disposition": f'attachment; filename="outbox-{message.id}.eml"'},
    )


@bp.route("/outbox/<int:message_id>.ics")
def outbox_ics(message_id: int):
    message = _message_or_404(message_id)
    name = f"outbox-{message.id}-{message.method.lower()}.ics"
    return Response(
        message.ics,
        content_type="text/calendar; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.app_template_filter("outbox_badge")
def outbox_badge(state: OutboxState) -> str:
    return {"pending": "badge-info", "sending": "badge-warn", "sent": "badge-ok", "failed": "badge-bad"}.get(
        state.value, ""
    )
