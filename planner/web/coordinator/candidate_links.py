"""The coordinator's side of candidate self-scheduling: send a loop's link by email, copy it, revoke it.

A link's secret is stored only as a hash, so its address can be shown once: right after it is made
(carried to the next page in the session, then dropped). Making another link revokes the previous one.
"""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, session, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import HiddenField
from wtforms.validators import AnyOf

from planner.core.errors import NotFound, PlannerError
from planner.db import utcnow
from planner.models import Loop
from planner.services import candidate_links
from planner.web.candidate.settings import company
from planner.web.candidate.tokens import link_url
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.mail_settings import mail_settings

_FRESH = "candidate_link_url"


class LinkForm(FlaskForm):
    action = HiddenField(validators=[AnyOf(["send", "copy"], message="Choose to send or to copy the link.")])


class RevokeForm(FlaskForm):
    pass


@bp.app_context_processor
def _link_status():
    def candidate_link_status(loop_id: int):
        """The loop's most recent link and whether it works, for the loop page's panel."""
        link = candidate_links.latest_link(get_session(), loop_id)
        if link is None:
            return None
        now = utcnow()
        state = "revoked" if link.revoked_at else ("expired" if link.expires_at <= now else "live")
        return {"link": link, "state": state}

    return {"candidate_link_status": candidate_link_status}


def _loop(loop_id: int) -> Loop:
    loop = get_session().get(Loop, loop_id)
    if loop is None:
        abort(404)
    return loop


@bp.route("/loops/<int:loop_id>/candidate-link")
def candidate_link(loop_id: int):
    loop = _loop(loop_id)
    fresh = session.pop(_FRESH, None)
    url = fresh["url"] if isinstance(fresh, dict) and fresh.get("loop") == loop_id else None
    status = {"link": candidate_links.latest_link(get_session(), loop_id), "now": utcnow()}
    return render_template("coordinator/loops/candidate_link.html", loop=loop, url=url, status=status,
                           send_form=LinkForm(action="send"), copy_form=LinkForm(action="copy"),
                           revoke_form=RevokeForm(), days=current_app.config.get("CANDIDATE_LINK_DAYS", 7))


@bp.route("/loops/<int:loop_id>/candidate-link", methods=["POST"])
def candidate_link_issue(loop_id: int):
    _loop(loop_id)
    form = LinkForm()
    if not form.validate_on_submit():
        flash("Choose to send the link or to copy it.", "error")
        return redirect(url_for(".candidate_link", loop_id=loop_id))
    send = form.action.data == "send"
    try:
        issued = candidate_links.issue_link(
            get_session(), loop_id, actor_id=current_user.id, now=utcnow(),
            lifetime_days=float(current_app.config.get("CANDIDATE_LINK_DAYS") or 7), send=send, url_of=link_url,
            settings=mail_settings(), company=company())
    except NotFound:
        abort(404)
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(url_for(".candidate_link", loop_id=loop_id))
    session[_FRESH] = {"loop": loop_id, "url": link_url(issued)}
    loop = get_session().get(Loop, loop_id)
    flash(f"Link emailed to {loop.candidate.email} (see the outbox); any earlier link no longer works." if send
          else "Here is the new link; any earlier link no longer works.", "success")
    return redirect(url_for(".candidate_link", loop_id=loop_id))


@bp.route("/loops/<int:loop_id>/candidate-link/revoke", methods=["POST"])
def candidate_link_revoke(loop_id: int):
    _loop(loop_id)
    if not RevokeForm().validate_on_submit():
        flash("The form had expired; try again.", "error")
        return redirect(url_for(".candidate_link", loop_id=loop_id))
    try:
        candidate_links.revoke_link(get_session(), loop_id, actor_id=current_user.id, now=utcnow())
    except PlannerError as exc:
        flash(str(exc), "error")
    else:
        flash("The link no longer works.", "success")
    return redirect(url_for(".candidate_link", loop_id=loop_id))
