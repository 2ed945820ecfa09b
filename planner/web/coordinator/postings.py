"""Coordinator pages for postings: list, create/edit (text pasted or uploaded), and the competency panel."""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user

from planner.core.errors import NotFound, PlannerError
from planner.core.prose import plural
from planner.queries import postings as posting_queries
from planner.services import postings as posting_services
from planner.services import runner_ups
from planner.services.posting_text import MAX_UPLOAD_BYTES, PostingFields, text_from_upload
from planner.web import paging
from planner.web.coordinator.forms_postings import AddCompetencyForm, EmptyForm, PostingForm, SelectionForm
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.form_errors import show_error
from planner.web.pagecache import cached_page

STATE_LABELS = {
    "accept": "accepted",
    "reject": "rejected",
    "restore": "moved back to suggestions",
    "save": "saved",
}


@bp.route("/postings")
@cached_page
def postings_list():
    search = request.args.get("q", "").strip()[:200]
    status = request.args.get("status", "")
    status = status if status in posting_queries.STATUSES else ""
    session = get_session()
    counts = posting_queries.count_by_status(session)
    # Hundreds of postings are shown a page at a time (POSTINGS_PAGE_SIZE), the search and status kept.
    if search:
        matching = posting_queries.count_postings(session, search=search, status=status)
    else:
        matching = counts[status] if status else sum(counts.values())
    pager = paging.pager(matching, current_app.config["POSTINGS_PAGE_SIZE"])
    rows = posting_queries.list_postings(session, search=search, status=status, limit=pager["size"],
                                         offset=pager["offset"])
    return render_template(
        "coordinator/postings/list.html",
        rows=rows,
        pager=pager,
        counts=counts,
        search=search,
        status=status,
        total=sum(counts.values()),
    )


def _fields(form: PostingForm) -> PostingFields:
    """The form's values, the text taken from the uploaded file when one was sent."""
    upload = form.upload.data
    text = form.text.data or ""
    if upload is not None and getattr(upload, "filename", ""):
        text = text_from_upload(
            upload.filename, upload.read(MAX_UPLOAD_BYTES + 1)
        )
    return PostingFields(
        title=form.title.data or "",
        text=text,
        team=form.team.data or "",
        location=form.location.data or "",
        level=form.level.data or "",
        hiring_manager=form.hiring_manager.data or "",
        status=form.status.data or "",
    )


@bp.route("/postings/new", methods=["GET", "POST"])
def posting_new():
    form = PostingForm()
    if form.validate_on_submit():
        try:
            posting = posting_services.create_posting(get_session(), _fields(form), actor_id=current_user.id)
        except PlannerError as exc:
            show_error(form, exc)
        else:
            count = len(posting.competencies)
            flash(
                f"Posting saved. {plural(count, 'competency')} suggested from the text: accept or reject each below.",
                "success",
            )
            return redirect(url_for("coordinator.posting_view", posting_id=posting.id))
    status = 400 if request.method == "POST" else 200
    return render_template("coordinator/postings/form.html", form=form, posting=None), status


@bp.route("/postings/<int:posting_id>/edit", methods=["GET", "POST"])
def posting_edit(posting_id: int):
    posting = posting_queries.get_posting(get_session(), posting_id)
    if posting is None:
        abort(404)
    form = PostingForm(obj=posting if request.method == "GET" else None)
    if request.method == "GET":
        form.status.data = posting.status.value
    if form.validate_on_submit():
        try:
            posting_services.update_posting(
                get_session(), posting_id, _fields(form), actor_id=current_user.id
            )
        except PlannerError as exc:
            get_session().rollback()
            show_error(form, exc)
        else:
            flash(
                "Posting saved. Suggestions follow the text; your accepted and rejected choices are kept.",
                "success",
            )
            return redirect(url_for("coordinator.posting_view", posting_id=posting_id))
    status = 400 if request.method == "POST" else 200
    return render_template("coordinator/postings/form.html", form=form, posting=posting), status


@bp.route("/postings/<int:posting_id>")
@cached_page
def posting_view(posting_id: int):
    return _render_view(posting_id)


def _render_view(posting_id: int, card_error: tuple[int, str] | None = None):
    """The posting page; ``card_error`` (selection id, sentence) is shown in that card, which gets focus.

    A refused card decision is answered on the page itself (400) rather than by a redirect to the
    card's anchor, where the flashed sentence at the top of the page would be out of sight.
    """
    page = posting_queries.get_posting_page(get_session(), posting_id)
    if page is None:
        abort(404)
    add_form = AddCompetencyForm()
    body = render_template(
        "coordinator/postings/view.html",
        page=page,
        posting=page.posting,
        add_form=add_form,
        action_form=EmptyForm(),
        active_tab="posting",
        card_error=card_error,
    )
    return (body, 400) if card_error else body


def _back(posting_id: int, anchor: str = ""):
    return redirect(
        url_for("coordinator.posting_view", posting_id=posting_id) + (f"#{anchor}" if anchor else "")
    )


@bp.route("/postings/<int:posting_id>/competencies/<int:selection_id>", methods=["POST"])
def posting_competency_update(posting_id: int, selection_id: int):
    form = SelectionForm()
    if not form.validate_on_submit():
        if form.required_coverage.errors:
            message = "Required coverage must be a whole number of rounds, 1 or more."
        else:
            message = "Choose accept, reject or save, and a priority."
        return _render_view(posting_id, (selection_id, message))
    try:
        selection = posting_services.decide_competency(
            get_session(),
            posting_id,
            selection_id,
            decision=form.decision.data,
            priority=form.priority.data,
            required_coverage=form.required_coverage.data,
            actor_id=current_user.id,
        )
    except NotFound as exc:
        if posting_queries.get_posting(get_session(), posting_id) is None:
            abort(404)
        flash(str(exc), "error")
        return _back(posting_id)
    except PlannerError as exc:
        get_session().rollback()
        return _render_view(posting_id, (selection_id, str(exc)))
    flash(f"{selection.competency.name} {STATE_LABELS[form.decision.data]}.", "success")
    return _back(posting_id, f"sel-{selection_id}")


@bp.route("/postings/<int:posting_id>/competencies", methods=["POST"])
def posting_competency_add(posting_id: int):
    form = AddCompetencyForm()
    if not form.validate_on_submit():
        flash("Choose a competency from the library and a whole number of rounds.", "error")
        return _back(posting_id, "add")
    try:
        selection = posting_services.add_competency(
            get_session(),
            posting_id,
            form.competency_id.data,
            priority=form.priority.data,
            required_coverage=form.required_coverage.data,
            actor_id=current_user.id,
        )
    except NotFound as exc:
        if posting_queries.get_posting(get_session(), posting_id) is None:
            abort(404)
        flash(str(exc), "error")
        return _back(posting_id, "add")
    except PlannerError as exc:
        flash(str(exc), "error")
        return _back(posting_id, "add")
    found = len(selection.evidence)
    where = f" with {plural(found, 'sentence')} of evidence" if found else ""
    flash(f"{selection.competency.name} added as {selection.priority.value}{where}.", "success")
    return _back(posting_id, f"sel-{selection.id}")


@bp.route("/postings/<int:posting_id>/accept-all", methods=["POST"])
def posting_suggestions_accept(posting_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        count = posting_services.accept_all_suggestions(get_session(), posting_id, actor_id=current_user.id)
    except NotFound:
        abort(404)
    if count:
        flash(f"Accepted {plural(count, 'suggested competency')}.", "success")
    else:
        flash("There were no suggestions waiting for a decision.", "info")
    return _back(posting_id, "accepted")


@bp.route("/postings/<int:posting_id>/extract", methods=["POST"])
def posting_suggestions_refresh(posting_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        count = posting_services.refresh_suggestions(get_session(), posting_id, actor_id=current_user.id)
    except NotFound:
        abort(404)
    flash(
        f"Suggestions refreshed against the current library: the text supports {plural(count, 'competency')}; "
        "your decisions are kept.",
        "success",
    )
    return _back(posting_id)


@bp.route("/postings/<int:posting_id>/competencies/<int:selection_id>/switch", methods=["POST"])
def posting_competency_switch(posting_id: int, selection_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        selection = runner_ups.switch_to_runner_up(
            get_session(), posting_id, selection_id, actor_id=current_user.id
        )
    except NotFound as exc:
        if posting_queries.get_posting(get_session(), posting_id) is None:
            abort(404)
        flash(str(exc), "error")
        return _back(posting_id)
    except PlannerError as exc:
        get_session().rollback()
        return _render_view(posting_id, (selection_id, str(exc)))
    flash(
        f"Switched to {selection.competency.name}, with the same evidence; "
        f"{selection.runner_up.name} is offered back as also close.",
        "success",
    )
    return _back(posting_id, f"sel-{selection_id}")
