"""Coordinator pages for calendar answers: the inbox, uploading an answer, proposed new times, the decline flags.

The loop page shows this module's partial (``coordinator/loops/_replies.html``); :func:`loop_replies` builds
what it needs. The overview's partial reads ``planner.queries.replies.get_replies_overview``.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user

from planner.core.errors import Conflict, NotFound, PlannerError
from planner.core.inbound import InboundLimits
from planner.db import utcnow
from planner.models import InboundOutcome, Loop
from planner.queries.replies import (
    INBOX_TABS,
    Decline,
    Proposal,
    list_declines,
    list_inbox,
    list_proposals,
)
from planner.services import answers, replacements
from planner.services.mailbox import ImapSettings
from planner.services.replacements import ReplacementOptions
from planner.services.replies import process_message
from planner.web.coordinator.forms_replies import ReplyUploadForm
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.mail_settings import mail_settings

#: Substitutes shown beside a decline on the loop page; the replace page lists them all.
SHOWN_SUBSTITUTES = 3
#: Of a file larger than the cap, only this much is read (its headers name the sender on the inbox).
HEADER_BYTES = 65536


@dataclass
class FlaggedDecline:
    """A decline on the loop page, with the replacement service's ranked options (None when it cannot say)."""

    decline: Decline
    options: ReplacementOptions | None
    problem: str = ""


@dataclass
class LoopReplies:
    """What the loop page's answers section shows."""

    declines: list[FlaggedDecline]
    proposals: list[Proposal]
    form: ReplyUploadForm
    shown: int = SHOWN_SUBSTITUTES


def loop_replies(loop_id: int) -> LoopReplies:
    """Declines (with ranked substitutes) and open proposed times of one loop, and the upload form."""
    session, now = get_session(), utcnow()
    flagged = []
    for decline in list_declines(session, now=now, loop_id=loop_id):
        try:
            options = replacements.replacement_options(session, decline.interview_id, decline.interviewer_id,
                                                       now=now)
        except PlannerError as exc:
            flagged.append(FlaggedDecline(decline, None, str(exc)))
        else:
            flagged.append(FlaggedDecline(decline, options))
    return LoopReplies(flagged, list_proposals(session, now=now, loop_id=loop_id), ReplyUploadForm())


def _limits() -> InboundLimits:
    return InboundLimits(max_bytes=ImapSettings.from_mapping(current_app.config).max_bytes)


@bp.route("/inbox")
def inbox_list():
    tab = request.args.get("outcome", "all")
    tab = tab if tab in INBOX_TABS else "all"
    size = max(1, int(current_app.config.get("INBOX_PAGE_SIZE") or 50))
    inbox = list_inbox(get_session(), tab=tab, page=request.args.get("page", 1, type=int) or 1, size=size)
    imap = ImapSettings.from_mapping(current_app.config)
    return render_template("coordinator/replies/inbox.html", inbox=inbox, tab=tab, tabs=INBOX_TABS, imap=imap)


def _read_upload(storage, limits: InboundLimits) -> tuple[bytes, int | None]:
    """The uploaded bytes, or only the first of them and the full size when it is over the cap."""
    stream = storage.stream
    stream.seek(0, 2)
    size = stream.tell()
    stream.seek(0)
    if size > limits.max_bytes:
        return stream.read(HEADER_BYTES), size
    return stream.read(), None


@bp.route("/loops/<int:loop_id>/replies", methods=["POST"])
def reply_upload(loop_id: int):
    session = get_session()
    if session.get(Loop, loop_id) is None:
        abort(404)
    form = ReplyUploadForm()
    back = url_for("coordinator.loop_view", loop_id=loop_id) + "#answers"
    if not form.validate_on_submit():
        flash(" ".join(form.reply.errors) or "Choose the .eml or .ics file of the answer.", "error")
        return redirect(back)
    limits = _limits()
    raw, declared = _read_upload(form.reply.data, limits)
    row = process_message(session, raw, source="upload", now=utcnow(), actor_id=current_user.id, loop_id=loop_id,
                          limits=limits, declared_size=declared)
    if row.outcome in (InboundOutcome.APPLIED, InboundOutcome.COUNTER):
        flash(f"Recorded: {row.reason}", "success")
    elif row.outcome == InboundOutcome.STALE:
        flash(f"Kept, but it changes nothing: {row.reason}", "warning")
    else:
        flash(f"Not recorded. {row.reason}", "error")
    return redirect(back)


def _counter_back() -> str:
    target = request.form.get("next", "")
    # Only our own pages: a path on this site, never another host.
    return target if target.startswith("/coordinator/") and "//" not in target else url_for("coordinator.inbox_list")


@bp.route("/inbox/<int:inbound_id>/move", methods=["POST"])
def counter_move(inbound_id: int):
    try:
        interview = answers.move_to_counter(get_session(), inbound_id, actor_id=current_user.id, now=utcnow(),
                                            settings=mail_settings())
    except NotFound:
        abort(404)
    except Conflict as exc:
        flash(f"Conflict: {exc}", "error")
    except PlannerError as exc:
        flash(str(exc), "error")
    else:
        flash(f"'{interview.round_name}' moved to the proposed time; the panel and the candidate get the update.",
              "success")
    return redirect(_counter_back())


@bp.route("/inbox/<int:inbound_id>/dismiss", methods=["POST"])
def counter_dismiss(inbound_id: int):
    try:
        answers.dismiss_counter(get_session(), inbound_id, actor_id=current_user.id, now=utcnow())
    except NotFound:
        abort(404)
    except PlannerError as exc:
        flash(str(exc), "error")
    else:
        flash("Proposal dismissed; the interview keeps its time.", "success")
    return redirect(_counter_back())
