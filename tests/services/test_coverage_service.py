"""Coverage built from the database: statuses, warnings, bench depth, the demo, and the override."""

from __future__ import annotations

import pytest
from coverage_builders import add_round, interviewer, posting
from sqlalchemy import func, select

from planner.core.coverage import UncoveredMustHave
from planner.db import utcnow
from planner.models import AuditEntry, Candidate, Loop, Posting, Round
from planner.services import coverage, plans
from planner.services.demo import load_demo

MUST = ("must-have", 2)
NICE = ("nice-to-have", 1)


def _status(cov, slug):
    return cov.competency(slug).status


def test_each_status_gap_thin_ok_over(db):
    """Zero rounds is a gap, fewer than required thin, required (+1) ok, beyond that over."""
    row, comps = posting(db, {"t-gap": MUST, "t-thin": MUST, "t-ok": MUST, "t-over": NICE})
    add_round(db, row, comps, "One", {"t-thin": "primary", "t-ok": "primary", "t-over": "primary"})
    add_round(db, row, comps, "Two", {"t-ok": "primary", "t-over": "secondary"}, position=1)
    add_round(db, row, comps, "Three", {"t-over": "secondary"}, position=2)
    interviewer(db, "ok@example.com", {comps["t-ok"]: "qualified", comps["t-over"]: "qualified"})
    cov = coverage.posting_coverage(db, row.id)
    assert [_status(cov, s) for s in ("t-gap", "t-thin", "t-ok", "t-over")] == ["gap", "thin", "ok", "over"]
    assert cov.status == "gap"
    messages = [issue.message for issue in cov.issues]
    assert "T gap is not assessed by any round; two are required." in messages
    assert "T thin is assessed by one round ('One'); two are required." in messages


def test_round_warnings_short_overloaded_secondary_only_and_seat_rules(db):
    """Per-round warnings: too little time per primary, too many primaries, seat rules, secondary-only."""
    needs = {f"t-c{i}": NICE for i in range(4)} | {"t-side": NICE}
    row, comps = posting(db, needs)
    add_round(db, row, comps, "Crowded", {f"t-c{i}": "primary" for i in range(4)}, minutes=40,
              interviewers=1, min_outside_team=2)
    add_round(db, row, comps, "Aside", {"t-side": "secondary"}, position=1)
    cov = coverage.posting_coverage(db, row.id)
    codes = {issue.code for issue in cov.issues}
    assert {"short-round", "overloaded-round", "seat-rules", "secondary-only", "no-primary"} <= codes
    crowded = cov.rounds[0]
    assert "Round 'Crowded' gives 10 minutes to each of its four primary competencies; allow at least 15." \
        in crowded.warnings


def test_bench_counts_only_active_qualified_people(db):
    """Bench depth counts active qualified interviewers; trainees are counted apart, inactive people not."""
    row, comps = posting(db, {"t-deep": MUST, "t-shallow": MUST, "t-none": MUST})
    add_round(db, row, comps, "A", {"t-deep": "primary", "t-shallow": "primary", "t-none": "primary"})
    add_round(db, row, comps, "B", {"t-deep": "primary", "t-shallow": "primary", "t-none": "primary"},
              position=1)
    for index in range(3):
        interviewer(db, f"deep{index}@example.com", {comps["t-deep"]: "qualified"})
    interviewer(db, "s1@example.com", {comps["t-shallow"]: "qualified"})
    interviewer(db, "s2@example.com", {comps["t-shallow"]: "qualified"})
    interviewer(db, "gone@example.com", {comps["t-none"]: "qualified"}, active=False)
    interviewer(db, "learner@example.com", {comps["t-none"]: "shadow"})
    cov = coverage.posting_coverage(db, row.id)
    assert (cov.competency("t-deep").bench_qualified, cov.competency("t-none").bench_qualified) == (3, 0)
    assert cov.competency("t-none").bench_in_training == 1
    codes = {(issue.competency, issue.code) for issue in cov.issues}
    assert ("t-none", "no-bench") in codes
    assert ("t-shallow", "shallow-bench") in codes
    assert not any(slug == "t-deep" for slug, _ in codes)


def test_demo_covers_the_four_must_haves_and_removing_a_round_thins_them(db):
    """The demo plan covers its four must-haves; removing the bar raiser makes two of them thin at once."""
    load_demo(db, now=utcnow())
    posting_id = db.scalar(select(Posting.id))
    must = ("compiler-design", "customer-ownership", "pre-silicon-feedback", "mentoring")
    cov = coverage.posting_coverage(db, posting_id)
    assert {slug: _status(cov, slug) for slug in must} == dict.fromkeys(must, "ok")
    bar = db.scalar(select(Round).where(Round.posting_id == posting_id, Round.name == "Bar raiser"))
    plans.remove_round(db, posting_id, bar.id, actor_id=None)
    cov = coverage.posting_coverage(db, posting_id)
    assert _status(cov, "mentoring") == "thin"
    assert _status(cov, "customer-ownership") == "thin"
    assert _status(cov, "compiler-design") == "ok"


def test_unknown_posting_and_version_are_not_found(db):
    """Asking for coverage of a missing posting or a version of another posting says so."""
    from planner.core.errors import NotFound

    with pytest.raises(NotFound, match="no posting #999999"):
        coverage.posting_coverage(db, 999999)
    row, _ = posting(db, {"t-a": MUST})
    with pytest.raises(NotFound, match="no plan version"):
        coverage.posting_coverage(db, row.id, version_id=999999)


def _loop_on(db, row) -> Loop:
    candidate = Candidate(name="Kim", email="kim@example.com")
    loop = Loop(posting_id=row.id, candidate=candidate)
    db.add(loop)
    db.flush()
    return loop


def _audits(db) -> int:
    return db.scalar(select(func.count(AuditEntry.id)).where(AuditEntry.action == "coverage_override"))


def test_override_refused_without_a_written_reason(db):
    """An uncovered must-have blocks scheduling without a reason (blank is none); nothing is audited."""
    row, comps = posting(db, {"t-a": MUST})
    add_round(db, row, comps, "Only", {"t-a": "primary"})
    loop = _loop_on(db, row)
    for reason in (None, "", "   "):
        with pytest.raises(UncoveredMustHave, match="T a is assessed by one round"):
            coverage.require_coverage_or_override(db, loop, reason=reason, actor_id=None)
    assert _audits(db) == 0
    assert loop.coverage_override is None


def test_override_with_reason_is_audited_on_the_loop(db, make_user):
    """With a written reason the check passes, the loop keeps the reason and an audit entry records it."""
    user = make_user(email="coord@example.com")
    row, comps = posting(db, {"t-a": MUST, "t-b": NICE})
    add_round(db, row, comps, "Only", {"t-a": "primary", "t-b": "primary"})
    plans.publish_plan(db, row.id, actor_id=user.id)
    loop = _loop_on(db, row)
    waived = coverage.require_coverage_or_override(db, loop, reason=" Senior referral; second round onsite ",
                                                   actor_id=user.id)
    assert waived == ["t-a"]
    assert loop.coverage_override == "Senior referral; second round onsite"
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "coverage_override"))
    assert (entry.entity, entry.entity_id, entry.actor_id) == ("loop", loop.id, user.id)
    assert entry.reason == "Senior referral; second round onsite"
    assert entry.details["uncovered"] == ["t-a"]
    assert entry.details["plan_version_id"] == plans.latest_version(db, row.id).id


def test_covered_plan_needs_no_override_and_writes_nothing(db):
    """A plan covering every must-have passes without a reason and leaves no audit entry."""
    row, comps = posting(db, {"t-a": MUST})
    add_round(db, row, comps, "One", {"t-a": "primary"})
    add_round(db, row, comps, "Two", {"t-a": "primary"}, position=1)
    assert coverage.require_coverage_or_override(db, row, reason=None) == []
    assert _audits(db) == 0


def test_override_checks_the_loops_own_version_not_later_edits(db):
    """A loop keeps its covering version after the plan lost a round; a loop on the new version is blocked."""
    row, comps = posting(db, {"t-a": MUST})
    add_round(db, row, comps, "One", {"t-a": "primary"})
    second = add_round(db, row, comps, "Two", {"t-a": "primary"}, position=1)
    first_version = plans.publish_plan(db, row.id, actor_id=None)
    plans.remove_round(db, row.id, second.id, actor_id=None)
    plans.publish_plan(db, row.id, actor_id=None)
    old_loop = _loop_on(db, row)
    old_loop.plan_version_id = first_version.id
    assert coverage.require_coverage_or_override(db, old_loop) == []
    new_loop = Loop(posting_id=row.id, candidate=Candidate(name="Sam", email="sam@example.com"))
    db.add(new_loop)
    db.flush()
    with pytest.raises(UncoveredMustHave):
        coverage.require_coverage_or_override(db, new_loop)


def test_round_nobody_can_staff_is_a_critical_issue_from_the_pool(db):
    """Both competencies have qualified people, but nobody holds them together for a one-seat round."""
    row, comps = posting(db, {"t-rel": ("must-have", 1), "t-sec": ("must-have", 1)})
    add_round(db, row, comps, "Deep dive", {"t-rel": "primary", "t-sec": "primary"})
    interviewer(db, "rel@example.com", {comps["t-rel"]: "qualified"})
    interviewer(db, "sec@example.com", {comps["t-sec"]: "qualified", comps["t-rel"]: "shadow"})
    cov = coverage.posting_coverage(db, row.id)
    assert cov.status == "ok"  # every competency has its rounds ...
    check = cov.rounds[0]
    assert (check.staffable, check.panelists) == (False, 0)  # ... yet nobody can sit alone in the round
    assert [issue.message for issue in cov.issues if issue.code == "unstaffable-round"] == [
        "Nobody can staff 'Deep dive': no one is qualified in T rel and T sec together, and it has one "
        "interviewer. Split the round, add an interviewer seat, or qualify someone in both."]
    interviewer(db, "both@example.com", {comps["t-rel"]: "qualified", comps["t-sec"]: "qualified"})
    interviewer(db, "gone@example.com", {comps["t-rel"]: "qualified", comps["t-sec"]: "qualified"}, active=False)
    check = coverage.posting_coverage(db, row.id).rounds[0]
    assert (check.staffable, check.panelists) == (True, 1)  # inactive people cannot be booked


def test_suggestion_does_not_ask_one_interviewer_for_a_pair_nobody_holds(db):
    """The suggester gets per-person qualifications: no one-seat round on a pair nobody holds together."""
    row, comps = posting(db, {"t-rel": MUST, "t-sec": MUST})
    for index in range(2):
        interviewer(db, f"rel{index}@example.com", {comps["t-rel"]: "qualified"})
        interviewer(db, f"sec{index}@example.com", {comps["t-sec"]: "qualified"})
    rounds = plans.suggested_rounds(db, row.id, 180)
    assert rounds and not any(
        {"t-rel", "t-sec"} <= set(r.primary_slugs) and r.interviewers == 1 for r in rounds)
    plans.apply_suggestion(db, row.id, 180, replace=True, actor_id=None)
    assert coverage.posting_coverage(db, row.id).unstaffable_rounds == ()
