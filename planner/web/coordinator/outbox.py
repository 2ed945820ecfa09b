"""Coordinator pages for the outbox: what is waiting, sent or failed (and why), by loop, resend, downloads."""

from __future__ import annotations

import re

from flask import Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user

from planner.core.errors import PlannerError
from planner.db import utcnow
from planner.models import OutboxState
from planner.queries.outbox import LoopChoice, count_by_state, get_message, list_messages, loop_choices
from planner.services.outbox import SmtpSettings, eml_bytes, resend
from planner.web.coordinator.forms_outbox import OutboxFilterForm
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.pagecache import cached_page

TABS = ("all", "pending", "sending", "sent", "failed")
#: Loop ids beyond this are not looked up (no loop has one; SQLite cannot even bind some of them).
MAX_ID = 2**31 - 1


@bp.route("/outbox")
@cached_page
def outbox_list():
    state = request.args.get("state", "all")
    if state not in TABS:
        state = "all"
    session = get_session()
    form, rows, loop = _loop_filter(session)
    loop_id = loop.id if loop else None
    counts = count_by_state(session, loop_id=loop_id)
    counts["all"] = sum(counts.values())
    size = max(1, int(current_app.config["OUTBOX_PAGE_SIZE"]))
    pages = max(1, -(-counts[state] // size))
    # A page number that is not a number, or past the end, shows the nearest real page.
    page = min(max(request.args.get("page", 1, type=int) or 1, 1), pages)
    messages = list_messages(
        session, None if state == "all" else state, loop_id=loop_id, limit=size, offset=(page - 1) * size
    )
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
        form=form,
        filter_loop=loop,
        loops={row.id: row for row in rows},
    )


def _loop_filter(session) -> tuple[OutboxFilterForm, list[LoopChoice], LoopChoice | None]:
    """The loop filter form, the loops it offers and the one it selects. An unknown or malformed loop is said
    once, beside the filter, and the page lists every loop's messages instead."""
    args = request.args.copy()
    if not args.get("loop"):
        args.pop("loop", None)
    raw = args.get("loop", "")
    number = int(raw) if re.fullmatch(r"[0-9]{1,18}", raw) else None
    rows = loop_choices(session, also=number if number and number <= MAX_ID else None)
    form = OutboxFilterForm(args)
    form.loop.choices = [(0, "Every loop"), *((row.id, row.label) for row in rows)]
    if form.validate() and form.loop.data:
        return form, rows, next(row for row in rows if row.id == form.loop.data)
    if form.loop.errors:
        form.loop.errors = [
            f"There is no loop #{number}; showing the messages of every loop."
            if number
            else "That is not a loop number; showing the messages of every loop."
        ]
        form.loop.data = 0
    return form, rows, None


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
        url_for(
            ".outbox_list",
            state=request.args.get("state", "all"),
            page=request.args.get("page", 1, type=int),
            loop=request.args.get("loop", type=int),
        )
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
    if not message.is_calendar:
        abort(404)  # a plain email (a reminder) has no calendar object
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
