"""Coordinator pages for loops: list, new loop, one loop, its schedule proposal (swap, move, confirm), batch.

The proposal's trainee seats (drop one, seat one) are edited in :mod:`.proposal_trainees`; the signed
proposal token and the proposal page they share are in :mod:`.proposal_pages`.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user
from itsdangerous import BadSignature

from planner.core.coverage import UncoveredMustHave
from planner.core.errors import Conflict, FieldError, NotFound, PlannerError
from planner.core.prose import plural
from planner.db import utcnow
from planner.models import Posting
from planner.queries import loops as loop_queries
from planner.services import loops as loop_services
from planner.services import scheduling
from planner.services.loops import LoopInput, WindowInput
from planner.services.scheduling_problem import get_loops, loop_rounds
from planner.web import paging
from planner.web.coordinator.forms_loops import CancelForm, ConfirmForm, LoopForm, LoopWindowsForm
from planner.web.coordinator.proposal_pages import (
    EXPIRED,
    current_proposal,
    loop_detail,
    proposal_from_token,
    proposal_signer,
    proposal_token,
    render_proposal,
    unless_draft,
)
from planner.web.coordinator.replies import loop_replies
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.form_errors import show_error
from planner.web.mail_settings import mail_settings
from planner.web.pagecache import cached_page


def _batch_token(posting_id: int, proposals: dict[int, list[dict]]) -> str:
    return proposal_signer().dumps({"posting": posting_id, "loops": {str(k): v for k, v in proposals.items()}})


def _windows(form) -> list[WindowInput]:
    rows = []
    for entry in form.windows.entries:
        day, start, end = entry.form.day.data, entry.form.start.data, entry.form.end.data
        if day is None:
            continue
        if start is None or end is None:
            raise FieldError("windows", f"Give a start and an end time for {day:%a %d %b %Y}.")
        rows.append(WindowInput(day, start, end))
    return rows


@bp.route("/loops")
@cached_page
def loops_list():
    session = get_session()
    status = request.args.get("status", "")
    status = status if status in loop_queries.STATUSES else ""
    posting_id = request.args.get("posting", type=int)
    counts = loop_queries.count_by_status(session, posting_id=posting_id)
    # Thousands of loops are shown a page at a time (LOOPS_PAGE_SIZE), the filters kept across pages.
    pager = paging.pager(counts[status] if status else sum(counts.values()), current_app.config["LOOPS_PAGE_SIZE"])
    rows = loop_queries.list_loops(session, now=utcnow(), posting_id=posting_id, status=status,
                                   limit=pager["size"], offset=pager["offset"])
    return render_template("coordinator/loops/list.html", rows=rows, status=status, posting_id=posting_id,
                           counts=counts, pager=pager, postings=loop_queries.posting_choices(session))


@bp.route("/postings/<int:posting_id>/loops")
@cached_page
def posting_loops(posting_id: int):
    session = get_session()
    posting = _posting(posting_id)
    rows = loop_queries.list_loops(session, now=utcnow(), posting_id=posting_id)
    return render_template("coordinator/loops/posting.html", posting=posting, rows=rows,
                           counts=loop_queries.count_by_status(session, posting_id=posting_id))


def _posting(posting_id: int):
    posting = get_session().get(Posting, posting_id)
    if posting is None:
        abort(404)
    return posting


@bp.route("/postings/<int:posting_id>/loops/schedule")
def posting_loops_schedule(posting_id: int):
    session = get_session()
    posting = _posting(posting_id)
    try:
        proposals = scheduling.propose_batch(session, posting_id, now=utcnow())
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(url_for("coordinator.posting_loops", posting_id=posting_id))
    return _render_batch(posting, proposals, ConfirmForm())


def _render_batch(posting, proposals, form, status: int = 200):
    session = get_session()
    loops = {loop.id: loop for loop in get_loops(session, [p.loop_id for p in proposals])}
    names = {}
    for loop in loops.values():
        names.update({k: r["name"] for k, r in loop_rounds(session, loop).rounds.items()})
    scheduled = {p.loop_id: p.interviews for p in proposals if p.scheduled}
    form.proposal.data = _batch_token(posting.id, scheduled)
    views = {p.loop_id: loop_queries.proposal_rounds(session, p.interviews, names) for p in proposals}
    uncovered = sorted({name for p in proposals for name in p.uncovered_names})
    return render_template("coordinator/loops/batch.html", posting=posting, proposals=proposals, loops=loops,
                           views=views, form=form, uncovered=uncovered, scheduled=len(scheduled)), status


@bp.route("/postings/<int:posting_id>/loops/confirm", methods=["POST"])
def posting_loops_confirm(posting_id: int):
    _posting(posting_id)
    form = ConfirmForm()
    try:
        data = proposal_signer().loads(form.proposal.data or "")
    except BadSignature:
        data = None
    if not form.validate_on_submit() or not isinstance(data, dict) or data.get("posting") != posting_id:
        flash(EXPIRED, "error")
        return redirect(url_for("coordinator.posting_loops_schedule", posting_id=posting_id))
    proposals = {int(k): v for k, v in data["loops"].items()}
    try:
        created = scheduling.confirm_many(get_session(), proposals, actor_id=current_user.id, now=utcnow(),
                                          settings=mail_settings(), override_reason=form.override_reason.data)
    except UncoveredMustHave as exc:
        flash(str(exc), "error")
        return redirect(url_for("coordinator.posting_loops_schedule", posting_id=posting_id))
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(url_for("coordinator.posting_loops_schedule", posting_id=posting_id))
    loops, interviews = len(created), sum(len(v) for v in created.values())
    flash(f"Scheduled {plural(loops, 'loop')} ({plural(interviews, 'interview')}); "
          "invites are on their way.", "success")
    return redirect(url_for("coordinator.posting_loops", posting_id=posting_id))


@bp.route("/loops/new", methods=["GET", "POST"])
def loop_new():
    session = get_session()
    form = LoopForm()
    windows_error = ""
    form.posting_id.choices = loop_queries.posting_choices(session)
    if request.method == "GET" and request.args.get("posting", type=int):
        form.posting_id.data = request.args.get("posting", type=int)
    if form.validate_on_submit():
        try:
            data = LoopInput(
                candidate_name=form.candidate_name.data, candidate_email=form.candidate_email.data,
                candidate_timezone=form.candidate_timezone.data, windows=_windows(form),
                hiring_team=form.hiring_team.data or "", max_gap_minutes=form.max_gap_minutes.data,
                location=form.location.data or "", video_url=form.video_url.data or "",
                rounds_any_order=bool(form.rounds_any_order.data))
            loop = loop_services.create_loop(session, form.posting_id.data, data, actor_id=current_user.id,
                                             now=utcnow())
        except PlannerError as exc:
            windows_error = _show_error(form, exc)
        else:
            flash(f"Loop created for {loop.candidate.name}. "
                  + ("Press Schedule to propose interviews." if loop.windows else
                     "Send them a link to pick a time, or add windows and press Schedule."), "success")
            return redirect(url_for("coordinator.loop_view", loop_id=loop.id))
    status = 400 if request.method == "POST" else 200
    return render_template("coordinator/loops/new.html", form=form, windows_error=windows_error), status


@bp.route("/loops/<int:loop_id>")
@cached_page
def loop_view(loop_id: int):
    detail = loop_detail(loop_id)
    session = get_session()
    messages = loop_queries.loop_messages(session, loop_id) if detail.loop.status.value != "draft" else []
    total = loop_queries.count_loop_messages(session, loop_id) if messages else 0
    return render_template("coordinator/loops/view.html", d=detail, loop=detail.loop,
                           cancel_form=CancelForm(), messages=messages, message_total=total, now=utcnow(),
                           replies=loop_replies(loop_id) if detail.loop.status.value == "scheduled" else None)


@bp.route("/loops/<int:loop_id>/windows", methods=["GET", "POST"])
def loop_windows(loop_id: int):
    detail = loop_detail(loop_id)
    form = LoopWindowsForm()
    windows_error = ""
    if request.method == "GET":
        _fill_windows(form, detail.loop)
        form.max_gap_minutes.data = detail.loop.max_gap_minutes
        form.rounds_any_order.data = detail.loop.rounds_any_order
    elif form.validate_on_submit():
        try:
            loop_services.update_windows(get_session(), loop_id, _windows(form), actor_id=current_user.id,
                                         now=utcnow(), max_gap_minutes=form.max_gap_minutes.data,
                                         rounds_any_order=bool(form.rounds_any_order.data))
        except PlannerError as exc:
            windows_error = _show_error(form, exc)
        else:
            flash("Windows, break and round order saved.", "success")
            return redirect(url_for("coordinator.loop_view", loop_id=loop_id))
    status = 400 if request.method == "POST" else 200
    return render_template("coordinator/loops/windows.html", form=form, loop=detail.loop,
                           windows_error=windows_error), status


def _show_error(form, exc: PlannerError) -> str:
    """A service error under the field it names; one about the windows is returned, for the windows' own
    box (a list of rows has no single field to hold it); anything else is flashed."""
    if getattr(exc, "field", None) == "windows":
        return str(exc)
    show_error(form, exc)
    return ""


def _fill_windows(form, loop) -> None:
    zone = ZoneInfo(loop.candidate.timezone)
    while len(form.windows.entries) < max(len(loop.windows) + 1, 5):
        form.windows.append_entry()
    for entry, window in zip(form.windows.entries, loop.windows, strict=False):
        start, end = window.start.astimezone(zone), window.end.astimezone(zone)
        entry.form.day.data, entry.form.start.data = start.date(), start.time()
        entry.form.end.data = end.time()


@bp.route("/loops/<int:loop_id>/cancel", methods=["POST"])
def loop_cancel(loop_id: int):
    form = CancelForm()
    if not form.validate_on_submit():
        flash("Say why the loop is cancelled.", "error")
        return redirect(url_for("coordinator.loop_view", loop_id=loop_id))
    try:
        count = loop_services.cancel_loop(get_session(), loop_id, form.reason.data, actor_id=current_user.id,
                                          now=utcnow(), settings=mail_settings())
    except NotFound:
        abort(404)
    except PlannerError as exc:
        flash(str(exc), "error")
    else:
        flash(f"Loop cancelled; {plural(count, 'interview')} cancelled and the people told.", "success")
    return redirect(url_for("coordinator.loop_view", loop_id=loop_id))


# -- the proposal --------------------------------------------------------------------------------


@bp.route("/loops/<int:loop_id>/schedule")
def loop_schedule(loop_id: int):
    detail = loop_detail(loop_id)
    if (done := unless_draft(detail)) is not None:
        return done
    session = get_session()
    interviews = current_proposal(loop_id)
    try:
        if interviews is not None:
            proposal = scheduling.resume(session, loop_id, interviews, now=utcnow())
        else:
            proposal = scheduling.propose(session, loop_id, now=utcnow())
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(url_for("coordinator.loop_view", loop_id=loop_id))
    return render_proposal(detail, proposal, ConfirmForm())


@bp.route("/loops/<int:loop_id>/schedule/swap")
def loop_swap(loop_id: int):
    detail = loop_detail(loop_id)
    if (done := unless_draft(detail)) is not None:
        return done
    interviews = current_proposal(loop_id)
    round_key = request.args.get("round", "")
    leaving = request.args.get("leaving", type=int)
    if interviews is None or leaving is None:
        flash(EXPIRED, "error")
        return redirect(url_for("coordinator.loop_schedule", loop_id=loop_id))
    session = get_session()
    try:
        options = scheduling.substitutes(session, loop_id, interviews, round_key, leaving, now=utcnow())
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(url_for("coordinator.loop_schedule", loop_id=loop_id, p=proposal_token(loop_id, interviews)))
    proposal = scheduling.resume(session, loop_id, interviews, now=utcnow())
    swap = {"round": round_key, "leaving": leaving,
            "options": [(o, proposal_token(loop_id, o.interviews)) for o in options]}
    return render_proposal(detail, proposal, ConfirmForm(), swap=swap)


@bp.route("/loops/<int:loop_id>/schedule/move")
def loop_move(loop_id: int):
    detail = loop_detail(loop_id)
    if (done := unless_draft(detail)) is not None:
        return done
    interviews = current_proposal(loop_id)
    round_key = request.args.get("round", "")
    if interviews is None:
        flash(EXPIRED, "error")
        return redirect(url_for("coordinator.loop_schedule", loop_id=loop_id))
    session = get_session()
    start = request.args.get("start")
    try:
        if start:
            moved = scheduling.move(session, loop_id, interviews, round_key, _parse_start(start),
                                    now=utcnow())
            flash("Round moved; every rule still holds.", "success")
            return redirect(url_for("coordinator.loop_schedule", loop_id=loop_id, p=proposal_token(loop_id, moved)))
        options = scheduling.move_options(session, loop_id, interviews, round_key, now=utcnow())
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(url_for("coordinator.loop_schedule", loop_id=loop_id, p=proposal_token(loop_id, interviews)))
    proposal = scheduling.resume(session, loop_id, interviews, now=utcnow())
    return render_proposal(detail, proposal, ConfirmForm(), moves={"round": round_key, "options": options})


def _parse_start(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise PlannerError("That start time is not valid; pick one from the list.") from None
    if moment.tzinfo is None:
        raise PlannerError("That start time has no zone; pick one from the list.")
    return moment


@bp.route("/loops/<int:loop_id>/schedule/confirm", methods=["POST"])
def loop_confirm(loop_id: int):
    detail = loop_detail(loop_id)
    if (done := unless_draft(detail)) is not None:
        return done
    form = ConfirmForm()
    interviews = proposal_from_token(loop_id, form.proposal.data)
    if not form.validate_on_submit() or interviews is None:
        flash(EXPIRED, "error")
        return redirect(url_for("coordinator.loop_schedule", loop_id=loop_id))
    session = get_session()
    try:
        created = scheduling.confirm(session, loop_id, interviews, actor_id=current_user.id, now=utcnow(),
                                     settings=mail_settings(), override_reason=form.override_reason.data)
    except UncoveredMustHave as exc:
        form.override_reason.errors = [str(exc)]
        session.rollback()
        proposal = scheduling.resume(session, loop_id, interviews, now=utcnow())
        return render_proposal(loop_detail(loop_id), proposal, form, status=400)
    except Conflict as exc:
        flash(f"Conflict: {exc}", "error")
        return redirect(url_for("coordinator.loop_schedule", loop_id=loop_id))
    except PlannerError as exc:
        flash(str(exc), "error")
        return redirect(url_for("coordinator.loop_view", loop_id=loop_id))
    flash(f"Scheduled {plural(len(created), 'interview')} for {detail.loop.candidate.name}; invites are on their "
          "way.",
          "success")
    return redirect(url_for("coordinator.loop_view", loop_id=loop_id))


# The proposal's trainee seats and the pages that fix a scheduled loop register their routes on the same blueprint.
from planner.web.coordinator import changes as _changes  # noqa: E402, F401
from planner.web.coordinator import proposal_trainees as _trainees  # noqa: E402, F401
from planner.web.coordinator import rebook as _rebook  # noqa: E402, F401
