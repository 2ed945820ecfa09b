"""The round editor: a posting's loop plan, its live coverage, suggestions and published versions."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_login import current_user

from planner.core.errors import Conflict, NotFound, PlannerError, ValidationFailed
from planner.models import Posting
from planner.queries import plan_editor as plan_editor_queries
from planner.services import plans
from planner.web.coordinator.forms_plans import (
    KIND_LABELS,
    ApplySuggestionForm,
    MoveForm,
    PublishForm,
    SuggestForm,
    round_form_class,
)
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.pagecache import cached_page


def _posting(posting_id: int) -> Posting:
    # Already in the session's identity map from the query: no extra SQL.
    return get_session().get(Posting, posting_id)


def _editor(posting_id: int):
    try:
        return plan_editor_queries.get_plan_editor(get_session(), posting_id)
    except NotFound:
        abort(404)


def _round_input(form) -> plans.RoundInput:
    return plans.RoundInput(
        name=form.name.data or "", kind=form.kind.data, minutes=form.minutes.data,
        interviewers=form.interviewers.data, competencies=form.chosen_competencies(),
        focus_questions=form.questions(), min_outside_team=form.min_outside_team.data,
        max_trainees=int(form.max_trainees.data or 0))


def _render_editor(editor, round_form=None, status: int = 200):
    round_form = round_form or round_form_class(editor.competencies)(formdata=None)
    return render_template(
        "coordinator/plans/edit.html", editor=editor, view=editor.posting, coverage=editor.posting.coverage,
        round_form=round_form, suggest_form=SuggestForm(formdata=None),
        publish_form=PublishForm(formdata=None),
        kind_labels=KIND_LABELS, active_tab="plan", posting_id=editor.posting.id,
        posting=_posting(editor.posting.id),
    ), status


@bp.route("/postings/<int:posting_id>/plan")
@cached_page
def plan_edit(posting_id: int):
    return _render_editor(_editor(posting_id))


@bp.route("/postings/<int:posting_id>/plan/rounds", methods=["POST"])
def round_add(posting_id: int):
    editor = _editor(posting_id)
    form = round_form_class(editor.competencies)()
    if not form.validate_on_submit():
        return _render_editor(editor, form, 400)
    try:
        round_ = plans.add_round(get_session(), posting_id, _round_input(form), actor_id=current_user.id)
    except ValidationFailed as exc:
        form.name.errors.append(str(exc))
        return _render_editor(_editor(posting_id), form, 400)
    flash(f"Round '{round_.name}' added; coverage updated.", "success")
    return redirect(url_for(".plan_edit", posting_id=posting_id) + f"#round-{round_.id}")


def _prefill(form, item) -> None:
    form.name.data = item.name
    form.kind.data = item.kind
    form.minutes.data = item.minutes
    form.interviewers.data = item.interviewers
    form.min_outside_team.data = item.min_outside_team
    form.max_trainees.data = str(min(item.max_trainees, 1))
    form.focus_questions.data = "\n".join(item.focus_questions)
    focus = {competency_id: level for competency_id, _, level in item.competencies}
    for field in form.competency_fields():
        field.data = focus.get(int(field.name.removeprefix("focus_c")), "")


@bp.route("/postings/<int:posting_id>/plan/rounds/<int:round_id>/edit", methods=["GET", "POST"])
def round_edit(posting_id: int, round_id: int):
    editor = _editor(posting_id)
    item = next((r for r in editor.rounds if r.id == round_id), None)
    if item is None:
        abort(404)
    form_class = round_form_class(editor.competencies)
    status = 200
    if request.method == "GET":
        form = form_class(formdata=None)
        _prefill(form, item)
    else:
        form = form_class()
        if form.validate_on_submit():
            try:
                plans.update_round(get_session(), posting_id, round_id, _round_input(form),
                                   actor_id=current_user.id)
            except NotFound:
                abort(404)
            except ValidationFailed as exc:
                form.name.errors.append(str(exc))
            else:
                flash(f"Round '{form.name.data.strip()}' saved; coverage updated.", "success")
                return redirect(url_for(".plan_edit", posting_id=posting_id) + f"#round-{round_id}")
        status = 400
    return render_template("coordinator/plans/round_edit.html", editor=editor, view=editor.posting,
                           item=item, form=form, kind_labels=KIND_LABELS, active_tab="plan",
                           posting_id=posting_id, posting=_posting(posting_id)), status


@bp.route("/postings/<int:posting_id>/plan/rounds/<int:round_id>/move", methods=["POST"])
def round_move(posting_id: int, round_id: int):
    form = MoveForm()
    if not form.validate_on_submit():
        flash("A round moves up or down.", "error")
        return redirect(url_for(".plan_edit", posting_id=posting_id))
    try:
        plans.move_round(get_session(), posting_id, round_id, form.direction.data, actor_id=current_user.id)
    except NotFound:
        abort(404)
    except ValidationFailed as exc:
        flash(str(exc), "error")
    return redirect(url_for(".plan_edit", posting_id=posting_id) + f"#round-{round_id}")


@bp.route("/postings/<int:posting_id>/plan/rounds/<int:round_id>/delete", methods=["POST"])
def round_delete(posting_id: int, round_id: int):
    try:
        name = plans.remove_round(get_session(), posting_id, round_id, actor_id=current_user.id)
    except NotFound:
        abort(404)
    flash(f"Round '{name}' removed from the working plan; published versions keep it.", "success")
    return redirect(url_for(".plan_edit", posting_id=posting_id))


@bp.route("/postings/<int:posting_id>/plan/suggest")
def plan_suggest(posting_id: int):
    editor = _editor(posting_id)
    form = SuggestForm(request.args, meta={"csrf": False})
    suggestion, error = None, None
    if form.validate():
        try:
            suggestion = plan_editor_queries.get_suggestion(get_session(), posting_id, form.budget.data)
        except PlannerError as exc:
            error = str(exc)
    apply_form = ApplySuggestionForm(formdata=None, budget=form.budget.data,
                                     replace="yes" if editor.rounds else "")
    return render_template("coordinator/plans/suggest.html", editor=editor, view=editor.posting, form=form,
                           suggestion=suggestion, error=error, apply_form=apply_form, kind_labels=KIND_LABELS,
                           active_tab="plan", posting_id=posting_id,
                           posting=_posting(posting_id)), 200 if error is None else 400


@bp.route("/postings/<int:posting_id>/plan/suggest", methods=["POST"])
def plan_suggest_apply(posting_id: int):
    form = ApplySuggestionForm()
    if not form.validate_on_submit():
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
        return redirect(url_for(".plan_edit", posting_id=posting_id))
    try:
        rounds = plans.apply_suggestion(get_session(), posting_id, form.budget.data,
                                        replace=form.replace.data == "yes", actor_id=current_user.id)
    except NotFound:
        abort(404)
    except (ValidationFailed, Conflict) as exc:
        flash(str(exc), "error")
        return redirect(url_for(".plan_suggest", posting_id=posting_id, budget=form.budget.data))
    flash(f"The plan now has the {len(rounds)} suggested rounds; review them and publish a version.",
          "success")
    return redirect(url_for(".plan_edit", posting_id=posting_id))


@bp.route("/postings/<int:posting_id>/plan/publish", methods=["POST"])
def plan_publish(posting_id: int):
    form = PublishForm()
    if not form.validate_on_submit():
        flash("Keep the version note under 500 characters.", "error")
        return redirect(url_for(".plan_edit", posting_id=posting_id))
    try:
        version = plans.publish_plan(get_session(), posting_id, actor_id=current_user.id,
                                     note=form.note.data or "")
    except NotFound:
        abort(404)
    except ValidationFailed as exc:
        flash(str(exc), "error")
        return redirect(url_for(".plan_edit", posting_id=posting_id))
    flash(f"Version {version.number} published; loops scheduled from now on use it.", "success")
    return redirect(url_for(".plan_edit", posting_id=posting_id) + "#versions")
