"""The interviewer blueprint: my interviews, scorecards, .ics downloads and the calendar feed link."""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user

from planner.core.errors import Conflict, NotFound, ValidationFailed
from planner.db import utcnow
from planner.queries.my_interviews import get_scorecard_sheet, interviewer_for_user, list_my_interviews
from planner.queries.replies import my_answers
from planner.services.feeds import InterviewCancelled, interview_download, rotate_feed_token
from planner.services.scorecards import RATING_LABELS, ScorecardInput, save_scorecard
from planner.web.dbsession import get_session
from planner.web.filters import local, local_time
from planner.web.interviewer.forms import ScorecardForm
from planner.web.mail_settings import mail_settings
from planner.web.pagecache import cached_page
from planner.web.roles import restrict_blueprint

bp = Blueprint("interviewer", __name__, url_prefix="/interviewer")
restrict_blueprint(bp, "interviewer")


def feed_links(token: str) -> dict[str, str]:
    """The feed's https (or configured scheme) and webcal:// URLs."""
    url = mail_settings().base_url + url_for("feeds.feed_ics", token=token)
    return {"https": url, "webcal": "webcal://" + url.split("://", 1)[-1]}


@bp.route("/")
@cached_page
def home():
    session = get_session()
    me = interviewer_for_user(session, current_user.id)
    if me is None:
        return render_template("interviewer/home.html", me=None)
    upcoming, past = list_my_interviews(session, me.id, utcnow())
    return render_template(
        "interviewer/home.html",
        me=me,
        upcoming=upcoming,
        past=past,
        links=feed_links(me.feed_token),
        when=_when,
        answers=my_answers(session, me.id),
    )


def _when(item, timezone: str) -> str:
    """The interview's date and times in ``timezone``, in the date format every page uses."""
    return f"{local(item.start, timezone or 'UTC')}–{local_time(item.end, timezone or 'UTC')}"


@bp.route("/interviews/<int:interview_id>.ics")
def interview_ics(interview_id: int):
    session = get_session()
    me = interviewer_for_user(session, current_user.id)
    if me is None:
        abort(404)
    try:
        ics, interview = interview_download(session, me.id, interview_id, settings=mail_settings(), now=utcnow())
    except InterviewCancelled as exc:
        # 410 Gone and a page, no file: see interview_download for why no calendar file is served.
        when = _when(exc.interview, me.timezone)
        message = (f"The {exc.interview.round_name} interview on {when} was cancelled, so there is nothing to add "
                   "to your calendar. The cancellation reached you by email and your calendar feed shows it as "
                   "cancelled; if you added this interview to your calendar yourself, delete it there.")
        return render_template("errors/error.html", code=410, title="Interview cancelled", message=message), 410
    except NotFound:
        abort(404)
    filename = f"interview-{interview.id}-{interview.start:%Y%m%d}.ics"
    return Response(
        ics,
        content_type="text/calendar; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@bp.route("/feed/rotate", methods=["POST"])
def feed_rotate():
    session = get_session()
    me = interviewer_for_user(session, current_user.id)
    if me is None:
        abort(404)
    rotate_feed_token(session, me.id, actor_id=current_user.id)
    flash(
        "Your feed has a new link. The old link no longer works; subscribe again with the new one.", "success"
    )
    return redirect(url_for(".home") + "#feed")


def _my_id() -> int:
    me = interviewer_for_user(get_session(), current_user.id)
    if me is None:
        abort(404)
    return me.id


def _sheet(me_id: int, interview_id: int):
    try:
        return get_scorecard_sheet(get_session(), me_id, interview_id, utcnow())
    except NotFound:
        abort(404)


@bp.route("/interviews/<int:interview_id>/scorecard", methods=["GET", "POST"])
def scorecard_edit(interview_id: int):
    me_id = _my_id()
    sheet = _sheet(me_id, interview_id)
    form = ScorecardForm()
    entered = None
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        entered = form.ratings(request.form)
        submit = bool(form.submit_card.data)
        try:
            save_scorecard(get_session(), me_id, interview_id, ScorecardInput(entered, form.notes.data or ""),
                           submit=submit, now=utcnow(), actor_id=current_user.id)
        except (ValidationFailed, Conflict) as exc:
            flash(str(exc), "error")
            code = 409 if isinstance(exc, Conflict) else 400
            return _render_sheet(_sheet(me_id, interview_id), form, entered), code
        flash("Scorecard submitted. You can now read the rest of the panel's scorecards." if submit
              else "Draft saved. Only you can see it until you submit.", "success")
        return redirect(url_for(".scorecard_edit", interview_id=interview_id))
    if sheet.mine is not None:
        form.notes.data = sheet.mine.notes
    return _render_sheet(sheet, form, None)


def _render_sheet(sheet, form: ScorecardForm, entered: dict[str, str] | None):
    current = dict(sheet.mine.ratings) if sheet.mine else {}
    if entered is not None:
        current = {slug: entered.get(slug, "") for slug in {c.slug for c in sheet.competencies}}
    return render_template("interviewer/scorecard.html", sheet=sheet, form=form, labels=RATING_LABELS,
                           current={k: str(v) for k, v in current.items()}, when=_when)
