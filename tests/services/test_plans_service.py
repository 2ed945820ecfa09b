"""The round editor's use cases: add, edit, reorder, remove, suggest, publish versions."""

from __future__ import annotations

import pytest
from coverage_builders import add_round, interviewer, posting
from sqlalchemy import func, select

from planner.core.errors import Conflict, NotFound, ValidationFailed
from planner.models import AuditEntry, Candidate, Loop, LoopStatus, PlanVersion, Round
from planner.queries.coverage import get_posting_coverage
from planner.services import coverage, plans

MUST = ("must-have", 2)
NICE = ("nice-to-have", 1)


def _names(db, posting_id) -> list[str]:
    return list(db.scalars(select(Round.name).where(Round.posting_id == posting_id)
                           .order_by(Round.position, Round.id)))


def _data(comps, name="Systems", **extra) -> plans.RoundInput:
    values = {"kind": "technical", "minutes": 60, "interviewers": 1,
              "competencies": {comps["t-a"].id: "primary"}} | extra
    return plans.RoundInput(name=name, **values)


def test_add_round_appends_with_competencies_questions_and_seat_rules(db):
    """A new round goes last, keeps its focus per competency, its questions and its seat rules."""
    row, comps = posting(db, {"t-a": MUST, "t-b": NICE})
    plans.add_round(db, row.id, _data(comps, "First"), actor_id=None)
    added = plans.add_round(db, row.id, _data(
        comps, "  Second   round ", competencies={comps["t-a"].id: "primary", comps["t-b"].id: "secondary"},
        focus_questions=["Why?", "  ", "How?"], interviewers=2, min_outside_team=1, max_trainees=0),
        actor_id=None)
    assert _names(db, row.id) == ["First", "Second round"]
    assert added.focus_questions == ["Why?", "How?"]
    assert (added.interviewers, added.min_outside_team, added.max_trainees) == (2, 1, 0)
    assert {rc.competency_id: rc.focus.value for rc in added.competencies} == {
        comps["t-a"].id: "primary", comps["t-b"].id: "secondary"}
    assert db.scalar(select(func.count(AuditEntry.id)).where(AuditEntry.action == "round_added")) == 2


@pytest.mark.parametrize(("extra", "message"), [
    ({"name": "   "}, "Give the round a name"),
    ({"kind": "lunch"}, "not a round kind"),
    ({"minutes": 5}, "between 10 and 480 minutes"),
    ({"interviewers": 0}, "between 1 and 6 interviewers"),
    ({"interviewers": 1, "min_outside_team": 2}, "cannot exceed"),
    ({"max_trainees": 2}, "at most one trainee"),
    ({"focus_questions": ["x" * 501]}, "under 500 characters"),
    ({"competencies": {999999: "primary"}}, "competencies the posting has accepted"),
    ({"competencies": {"bad": "tertiary"}}, "competencies the posting has accepted"),
])
def test_bad_round_input_is_refused_and_changes_nothing(db, extra, message):
    """Each broken rule gets one clear sentence and no round is written."""
    row, comps = posting(db, {"t-a": MUST})
    values = dict(extra)
    data = _data(comps, values.pop("name", "Systems"), **values)
    with pytest.raises(ValidationFailed, match=message):
        plans.add_round(db, row.id, data, actor_id=None)
    assert _names(db, row.id) == []


def test_round_names_are_unique_per_posting_case_insensitively(db):
    """A second round named like the first (ignoring case) is refused; renaming a round to itself is fine."""
    row, comps = posting(db, {"t-a": MUST})
    first = plans.add_round(db, row.id, _data(comps, "Deep dive"), actor_id=None)
    with pytest.raises(ValidationFailed, match="already has a round named 'deep DIVE'"):
        plans.add_round(db, row.id, _data(comps, "deep DIVE"), actor_id=None)
    plans.update_round(db, row.id, first.id, _data(comps, "Deep dive", minutes=45), actor_id=None)
    assert first.minutes == 45


def test_competency_not_accepted_by_the_posting_is_refused(db):
    """A competency accepted by another posting cannot be assessed by this one's rounds."""
    row, comps = posting(db, {"t-a": MUST})
    _, other = posting(db, {"t-other": MUST}, title="Other")
    with pytest.raises(ValidationFailed, match="accepted"):
        plans.add_round(db, row.id, _data(comps, competencies={other["t-other"].id: "primary"}),
                        actor_id=None)


def test_update_round_replaces_fields_and_focus_but_keeps_key(db):
    """Editing changes name, focus and questions; the key (identity across versions) stays."""
    row, comps = posting(db, {"t-a": MUST, "t-b": NICE})
    item = plans.add_round(db, row.id, _data(comps, "Old"), actor_id=None)
    key = item.key
    plans.update_round(db, row.id, item.id, _data(
        comps, "New", competencies={comps["t-a"].id: "secondary", comps["t-b"].id: "primary"},
        focus_questions=["Q1"]), actor_id=None)
    db.expire_all()
    item = db.get(Round, item.id)
    assert (item.name, item.key, item.focus_questions) == ("New", key, ["Q1"])
    assert {rc.competency_id: rc.focus.value for rc in item.competencies} == {
        comps["t-a"].id: "secondary", comps["t-b"].id: "primary"}


def test_move_and_remove_rounds(db):
    """Rounds move up and down one place; moving past either end is refused; removal renumbers."""
    row, comps = posting(db, {"t-a": MUST})
    a, b, c = (plans.add_round(db, row.id, _data(comps, name), actor_id=None) for name in "ABC")
    plans.move_round(db, row.id, c.id, "up", actor_id=None)
    assert _names(db, row.id) == ["A", "C", "B"]
    with pytest.raises(ValidationFailed, match="'A' is already the first round"):
        plans.move_round(db, row.id, a.id, "up", actor_id=None)
    with pytest.raises(ValidationFailed, match="already the last round"):
        plans.move_round(db, row.id, b.id, "down", actor_id=None)
    assert plans.remove_round(db, row.id, a.id, actor_id=None) == "A"
    assert _names(db, row.id) == ["C", "B"]
    assert sorted(db.scalars(select(Round.position).where(Round.posting_id == row.id))) == [0, 1]


def test_round_of_another_posting_is_not_found(db):
    """Editing, moving or removing a round through the wrong posting is NotFound and changes nothing."""
    row, comps = posting(db, {"t-a": MUST})
    other, _ = posting(db, {"t-a": MUST}, title="Other")
    item = plans.add_round(db, row.id, _data(comps, "Mine"), actor_id=None)
    with pytest.raises(NotFound):
        plans.remove_round(db, other.id, item.id, actor_id=None)
    with pytest.raises(NotFound):
        plans.move_round(db, other.id, item.id, "up", actor_id=None)
    assert _names(db, row.id) == ["Mine"]


def test_suggestion_covers_every_must_have_within_budget(db):
    """Applying a suggestion gives every must-have its required rounds and stays within the budget."""
    needs = {"t-compiler": MUST, "t-silicon": MUST, "t-customer": MUST, "t-mentor": ("must-have", 3),
             "t-extra": NICE}
    row, comps = posting(db, needs, categories={"t-customer": "behavioural", "t-mentor": "leadership"})
    for slug in needs:
        for index in range(4):
            interviewer(db, f"{slug}{index}@example.com", {comps[slug]: "qualified"})
    rounds = plans.apply_suggestion(db, row.id, 300, replace=False, actor_id=None)
    assert sum(r.minutes for r in rounds) <= 300
    cov = coverage.posting_coverage(db, row.id)
    for slug in ("t-compiler", "t-silicon", "t-customer", "t-mentor"):
        assert cov.competency(slug).status == "ok", slug
    assert cov.competency("t-mentor").count == 3


def test_suggestion_with_too_small_budget_or_existing_plan_changes_nothing(db):
    """Too small a budget is refused with the minimum needed; an existing plan needs replace=True."""
    row, comps = posting(db, {"t-a": MUST, "t-b": MUST})
    with pytest.raises(ValidationFailed, match="A budget of 60 minutes cannot cover every must-have"):
        plans.apply_suggestion(db, row.id, 60, replace=False, actor_id=None)
    add_round(db, row, comps, "Mine", {"t-a": "primary"})
    with pytest.raises(Conflict, match="already has 1 round"):
        plans.apply_suggestion(db, row.id, 240, replace=False, actor_id=None)
    assert _names(db, row.id) == ["Mine"]
    plans.apply_suggestion(db, row.id, 240, replace=True, actor_id=None)
    assert "Mine" not in _names(db, row.id)


def test_suggestion_without_accepted_competencies_is_refused(db):
    """A posting with nothing accepted cannot get a suggestion."""
    row, _ = posting(db, {})
    with pytest.raises(ValidationFailed, match="no accepted competencies"):
        plans.apply_suggestion(db, row.id, 240, replace=True, actor_id=None)


def test_publishing_versions_freezes_snapshots_and_lists_changes(db):
    """Each publish freezes the plan; loops keep theirs; the manager view lists what changed between them."""
    row, comps = posting(db, {"t-a": MUST, "t-b": NICE})
    first = plans.add_round(db, row.id, _data(comps, "Deep dive"), actor_id=None)
    plans.add_round(db, row.id, _data(comps, "Panel"), actor_id=None)
    v1 = plans.publish_plan(db, row.id, actor_id=None, note="first")
    both = {comps["t-a"].id: "primary", comps["t-b"].id: "secondary"}
    plans.update_round(db, row.id, first.id, _data(comps, "Deep dive", minutes=45, competencies=both),
                       actor_id=None)
    v2 = plans.publish_plan(db, row.id, actor_id=None, note="shorter")
    assert (v1.number, v2.number) == (1, 2)
    assert v1.snapshot[0]["minutes"] == 60 and v2.snapshot[0]["minutes"] == 45
    view = get_posting_coverage(db, row.id)
    messages = [change.message for change in view.versions[0].changes]
    assert "Round 'Deep dive' duration 60 -> 45 min" in messages
    assert "T b added to 'Deep dive' as secondary focus" in messages
    assert view.versions[1].changes == ()


def test_publishing_moves_draft_loops_to_the_new_version_and_leaves_scheduled_ones(db):
    """A draft loop is scheduled on the plan just published; a scheduled loop keeps the version it has."""
    row, comps = posting(db, {"t-a": MUST})
    first = plans.add_round(db, row.id, _data(comps, "Deep dive"), actor_id=None)
    v1 = plans.publish_plan(db, row.id, actor_id=None)
    draft, scheduled = (
        Loop(posting_id=row.id, candidate=Candidate(name=name, email=f"{name}@cand.example"),
             plan_version_id=v1.id, status=status)
        for name, status in (("draft", LoopStatus.DRAFT), ("done", LoopStatus.SCHEDULED)))
    db.add_all([draft, scheduled])
    db.flush()
    plans.update_round(db, row.id, first.id, _data(comps, "Deep dive", minutes=45), actor_id=None)
    v2 = plans.publish_plan(db, row.id, actor_id=None)
    db.expire_all()
    assert (draft.plan_version_id, scheduled.plan_version_id) == (v2.id, v1.id)


def test_publishing_nothing_new_or_an_empty_plan_is_refused(db):
    """An empty plan, an unchanged plan, or an overlong note cannot be published; no version is written."""
    row, comps = posting(db, {"t-a": MUST})
    with pytest.raises(ValidationFailed, match="no rounds yet"):
        plans.publish_plan(db, row.id, actor_id=None)
    plans.add_round(db, row.id, _data(comps), actor_id=None)
    with pytest.raises(ValidationFailed, match="under 500 characters"):
        plans.publish_plan(db, row.id, actor_id=None, note="x" * 501)
    plans.publish_plan(db, row.id, actor_id=None)
    with pytest.raises(ValidationFailed, match="Nothing changed since version 1"):
        plans.publish_plan(db, row.id, actor_id=None)
    assert db.scalar(select(func.count(PlanVersion.id)).where(PlanVersion.posting_id == row.id)) == 1
