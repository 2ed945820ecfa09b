"""The candidate's link: pick a time (or give windows), see the itinerary, move or cancel it.

No login: the signed token in the URL is the key. A token that is tampered with, expired, revoked or
replaced gets the same page and a 404, whatever the reason, and says nothing about any loop. Responses
are private (no caching, no indexing) and send no Referer, so the token never leaves in a header when the
candidate follows the video link.
"""

from __future__ import annotations

from datetime import datetime

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

from planner.core.errors import Conflict, PlannerError
from planner.db import utcnow
from planner.models import CandidateLink, Loop
from planner.queries.candidate_page import by_local_day, get_candidate_page
from planner.services import candidate_booking as booking
from planner.services.candidate_links import resolve
from planner.services.candidate_offers import get_offers
from planner.services.loops import WindowInput
from planner.web.candidate.forms import AvailabilityForm, CancelForm, PickForm, TimezoneForm
from planner.web.candidate.settings import company, offer_settings
from planner.web.candidate.tokens import parse_token
from planner.web.dbsession import get_session
from planner.web.mail_settings import mail_settings

bp = Blueprint("candidate", __name__, url_prefix="/c")

_PRIVATE = {"Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow",
            "Referrer-Policy": "no-referrer"}


@bp.after_request
def _private(response: Response) -> Response:
    response.headers.update(_PRIVATE)
    return response


def _link(token: str) -> tuple[CandidateLink, int, str]:
    """The working link of ``token``, or the one 'link does not work' page (404)."""
    parsed = parse_token(token)
    link = resolve(get_session(), *parsed, utcnow()) if parsed else None
    if link is None:
        abort(make_response(render_template("candidate/gone.html"), 404))
    return link, parsed[0], parsed[1]


def _parse_start(text: str | None) -> datetime:
    try:
        moment = datetime.fromisoformat((text or "").strip().replace("Z", "+00:00"))
    except ValueError:
        raise PlannerError("Choose one of the times offered.") from None
    if moment.tzinfo is None:
        raise PlannerError("Choose one of the times offered.")
    return moment


def _render(token: str, link: CandidateLink, *, status: int = 200, error: str | None = None, pick=None,
            availability=None, move: bool = False):
    session = get_session()
    session.expire_all()  # a failed change was rolled back: show the rows as they are now
    page = get_candidate_page(session, link.loop_id)
    loop = session.get(Loop, link.loop_id)
    settings = offer_settings()
    now = utcnow()
    zone_form = TimezoneForm(timezone=page.timezone, formdata=None)
    context = {"token": token, "page": page, "company": company(), "zone_form": zone_form, "error": error,
               "detect_zone": link.timezone_confirmed_at is None,
               "notice_hours": settings.notice.total_seconds() / 3600,
               "pick_form": pick or PickForm(formdata=None), "now": now}
    if page.booked:
        first = page.first_start()
        context["changeable"] = first is not None and first - settings.notice > now
        context["cancel_form"] = CancelForm(formdata=None)
        context["days"] = by_local_day(get_offers(session, loop, link.offer_horizon, now=now,
                                                  settings=settings).times, page.timezone) \
            if move and context["changeable"] else None
        return render_template("candidate/booked.html", **context), status
    if page.status in ("cancelled", "completed"):
        return render_template("candidate/closed.html", **context), status
    offers = get_offers(session, loop, link.offer_horizon, now=now, settings=settings)
    context["days"] = by_local_day(offers.times, page.timezone)
    context["availability"] = availability or AvailabilityForm(formdata=None)
    context["split"] = loop.max_gap_minutes is None and settings.split_days > 1
    context["horizon_days"] = settings.horizon_days
    return render_template("candidate/page.html", **context), status


@bp.route("/<token>")
def page(token: str):
    link, _id, _secret = _link(token)
    return _render(token, link, move=request.args.get("move") == "1")


@bp.route("/<token>/timezone", methods=["POST"])
def timezone_set(token: str):
    link, link_id, secret = _link(token)
    form = TimezoneForm()
    if not form.validate_on_submit():
        return _render(token, link, status=400, error="Choose your time zone from the list.")
    try:
        booking.set_timezone(get_session(), link_id, secret, form.timezone.data, now=utcnow(),
                             detected=form.detected.data == "1")
    except PlannerError as exc:
        return _render(token, link, status=400, error=str(exc))
    return redirect(url_for(".page", token=token), code=303)


@bp.route("/<token>/book", methods=["POST"])
def book(token: str):
    link, link_id, secret = _link(token)
    form = PickForm()
    try:
        if not form.validate_on_submit():
            raise PlannerError("Choose one of the times offered.")
        booking.book(get_session(), link_id, secret, _parse_start(form.start.data), now=utcnow(),
                     settings=offer_settings(), mail=mail_settings())
    except Conflict as exc:
        return _render(token, link, status=409, error=str(exc))
    except PlannerError as exc:
        return _render(token, link, status=400, error=str(exc))
    flash("Your interviews are booked. The invitations are on their way to you and the interviewers.", "success")
    return redirect(url_for(".page", token=token), code=303)


@bp.route("/<token>/availability", methods=["POST"])
def availability(token: str):
    link, link_id, secret = _link(token)
    form = AvailabilityForm()
    if not form.validate_on_submit():
        return _render(token, link, status=400, error="Please correct the highlighted windows.", availability=form)
    windows = [WindowInput(e.form.day.data, e.form.start.data, e.form.end.data)
               for e in form.windows.entries if e.form.day.data is not None]
    try:
        booking.submit_availability(get_session(), link_id, secret, windows, now=utcnow())
    except PlannerError as exc:
        return _render(token, link, status=400, error=str(exc), availability=form)
    flash("Thank you: the recruiting team will schedule your interviews within these times.", "success")
    return redirect(url_for(".page", token=token), code=303)


@bp.route("/<token>/reschedule", methods=["POST"])
def reschedule(token: str):
    link, link_id, secret = _link(token)
    form = PickForm()
    try:
        if not form.validate_on_submit():
            raise PlannerError("Choose one of the times offered.")
        booking.reschedule(get_session(), link_id, secret, _parse_start(form.start.data), now=utcnow(),
                           settings=offer_settings(), mail=mail_settings())
    except Conflict as exc:
        return _render(token, link, status=409, error=str(exc), move=True)
    except PlannerError as exc:
        return _render(token, link, status=400, error=str(exc), move=True)
    flash("Your interviews have moved. Updated invitations are on their way.", "success")
    return redirect(url_for(".page", token=token), code=303)


@bp.route("/<token>/cancel", methods=["POST"])
def cancel(token: str):
    link, link_id, secret = _link(token)
    form = CancelForm()
    try:
        if not form.validate_on_submit():
            raise PlannerError("Keep the note under 2,000 characters.")
        booking.cancel(get_session(), link_id, secret, form.reason.data or "", now=utcnow(),
                       settings=offer_settings(), mail=mail_settings())
    except PlannerError as exc:
        return _render(token, link, status=400, error=str(exc))
    flash("Your interviews are cancelled and everyone has been told. You can pick a new time below.", "success")
    return redirect(url_for(".page", token=token), code=303)


@bp.route("/<token>/itinerary.ics")
def itinerary_ics(token: str):
    link, _id, _secret = _link(token)
    body = booking.itinerary_ics(get_session(), link.loop_id, settings=mail_settings(), now=utcnow())
    if body is None:
        abort(make_response(render_template("candidate/gone.html", nothing_booked=True), 404))
    return Response(body, content_type="text/calendar; charset=utf-8",
                    headers={"Content-Disposition": 'attachment; filename="interviews.ics"'})
