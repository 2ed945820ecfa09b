"""Gaps, risks and round warnings as plain sentences, and their order."""

from planner.core.coverage import (
    BenchEntry,
    CompetencyReq,
    RoundCompetency,
    RoundPlan,
    SeatRules,
    compute_coverage,
)

MENTORING = CompetencyReq("mentoring", "Mentoring", "leadership")
PRESILICON = CompetencyReq("pre-silicon-feedback", "Pre-silicon feedback", "technical")
PYTHON = CompetencyReq("python", "Python", "technical", "nice-to-have")


def make_round(key: str, *items: tuple[str, str], minutes: int = 60, **extra) -> RoundPlan:
    """A round from (slug, focus) pairs."""
    return RoundPlan(
        key, key, "technical", minutes, competencies=tuple(RoundCompetency(*i) for i in items), **extra
    )


def codes(coverage) -> list[str]:
    """Issue codes in shown order."""
    return [issue.code for issue in coverage.issues]


def test_thin_must_have_sentence_names_rounds_and_requirement():
    """A thin must-have is critical and says how many rounds assess it and how many are required."""
    coverage = compute_coverage([MENTORING], [make_round("Bar raiser", ("mentoring", "primary"))])
    (issue,) = coverage.issues
    assert issue.severity == "critical"
    assert issue.message == "Mentoring is assessed by one round ('Bar raiser'); two are required."


def test_gap_must_have_is_critical_and_gap_nice_to_have_warns():
    """A gap is critical for a must-have and a warning for a nice-to-have."""
    coverage = compute_coverage([PYTHON, MENTORING], [])
    assert [(i.competency, i.severity) for i in coverage.issues] == [
        ("mentoring", "critical"),
        ("python", "warning"),
    ]
    assert coverage.issues[0].message == "Mentoring is not assessed by any round; two are required."
    assert coverage.issues[1].message == "Python is not assessed by any round; one is required."


def test_over_is_a_notice_that_counts_spare_rounds():
    """Over-coverage is a notice saying how many rounds could assess something else."""
    rounds = [make_round(f"r{i}", ("python", "primary")) for i in range(4)]
    (issue,) = compute_coverage([PYTHON], rounds).issues
    assert (issue.severity, issue.code) == ("notice", "over")
    assert "three could assess other competencies" in issue.message


def test_no_bench_is_not_covered_and_is_critical_for_must_have():
    """Rounds exist but nobody is qualified: status no-assessor (not ok), a critical no-bench risk is raised."""
    rounds = [make_round("a", ("mentoring", "primary")), make_round("b", ("mentoring", "primary"))]
    coverage = compute_coverage([MENTORING], rounds, {"mentoring": BenchEntry("mentoring", 0, 1)})
    row = coverage.competency("mentoring")
    assert row.status == "no-assessor"
    assert coverage.status == "no-assessor"
    assert row.risks == ("no-bench",)
    assert coverage.issues[0].severity == "critical"
    assert coverage.issues[0].message == (
        "No interviewer is qualified in Mentoring (one interviewer in training), "
        "so no round can assess it yet."
    )


def test_thin_bench_when_fewer_qualified_than_rounds():
    """One qualified person cannot hold two rounds of one loop, so a thin-bench risk is raised."""
    rounds = [
        make_round("a", ("pre-silicon-feedback", "primary")),
        make_round("b", ("pre-silicon-feedback", "primary")),
    ]
    coverage = compute_coverage(
        [PRESILICON], rounds, {"pre-silicon-feedback": BenchEntry("pre-silicon-feedback", 1, 0)}
    )
    assert codes(coverage) == ["thin-bench"]
    assert coverage.issues[0].message.startswith("Only one interviewer is qualified in Pre-silicon feedback;")


def test_shallow_bench_when_qualified_equals_rounds_and_none_when_deeper():
    """Exactly as many qualified as rounds is a notice; one more clears it."""
    rounds = [make_round("a", ("mentoring", "primary")), make_round("b", ("mentoring", "primary"))]
    shallow = compute_coverage([MENTORING], rounds, {"mentoring": BenchEntry("mentoring", 2, 0)})
    deep = compute_coverage([MENTORING], rounds, {"mentoring": BenchEntry("mentoring", 3, 0)})
    assert [(i.code, i.severity) for i in shallow.issues] == [("shallow-bench", "notice")]
    assert deep.issues == ()


def test_secondary_only_competency_is_flagged():
    """A competency assessed only as secondary focus gets a warning naming its rounds."""
    rounds = [make_round("a", ("python", "secondary"))]
    coverage = compute_coverage([PYTHON], rounds)
    assert codes(coverage) == ["secondary-only", "no-primary"]
    assert coverage.competency("python").risks == ("secondary-only",)
    assert (
        coverage.issues[0].message
        == "Python is only a secondary focus ('a'); make it primary in at least one round."
    )
    assert coverage.round("a").warning_codes == ("no-primary",)


def test_round_with_no_competencies_warns():
    """An empty round is reported on the round and in the issue list."""
    coverage = compute_coverage([PYTHON], [make_round("Lunch"), make_round("b", ("python", "primary"))])
    assert coverage.round("Lunch").warnings == ("Round 'Lunch' assesses no competency.",)
    assert "empty-round" in codes(coverage)


def test_round_with_four_primaries_is_overloaded():
    """More than three primary competencies raises an overloaded-round warning."""
    items = [(f"c{i}", "primary") for i in range(4)]
    reqs = [CompetencyReq(f"c{i}", f"C{i}", "technical", "nice-to-have") for i in range(4)]
    check = compute_coverage(reqs, [make_round("Coding", *items, minutes=60)]).round("Coding")
    assert check.warning_codes == ("overloaded-round",)
    assert check.minutes_per_primary == 15


def test_load_warning_below_fifteen_minutes_per_primary():
    """45 minutes for four primaries (11.25 each) warns; 45 for three (15 each) does not."""
    reqs = [CompetencyReq(f"c{i}", f"C{i}", "technical", "nice-to-have") for i in range(4)]
    four = compute_coverage(
        reqs, [make_round("Coding", *[(f"c{i}", "primary") for i in range(4)], minutes=45)]
    )
    three = compute_coverage(
        reqs, [make_round("Coding", *[(f"c{i}", "primary") for i in range(3)], minutes=45)]
    )
    assert "short-round" in four.round("Coding").warning_codes
    assert "short-round" not in three.round("Coding").warning_codes
    single = compute_coverage(reqs, [make_round("Quick", ("c0", "primary"), minutes=10)]).round("Quick")
    assert single.warnings == (
        "Round 'Quick' gives 10 minutes to its primary competency; allow at least 15.",
    )


def test_secondary_competencies_do_not_count_toward_load():
    """Only primaries share a round's time: 30 minutes, one primary and three secondaries is fine."""
    reqs = [CompetencyReq(f"c{i}", f"C{i}", "technical", "nice-to-have") for i in range(4)]
    items = [("c0", "primary")] + [(f"c{i}", "secondary") for i in range(1, 4)]
    assert compute_coverage(reqs, [make_round("a", *items, minutes=30)]).round("a").warnings == ()


def test_unknown_competency_and_impossible_seat_rule_warn():
    """A slug the posting lacks, and more outside-team seats than interviewers, are round warnings."""
    plan = make_round("a", ("rust", "primary"), seat_rules=SeatRules(min_outside_team=2))
    check = compute_coverage([PYTHON], [plan]).round("a")
    assert check.warning_codes == ("unknown-competency", "seat-rules")


def test_issues_are_ordered_by_severity_then_must_haves_first():
    """Critical, then warning, then notice; within one severity must-haves come before the rest."""
    rounds = [make_round("Lunch"), *(make_round(f"p{i}", ("python", "primary")) for i in range(4))]
    coverage = compute_coverage([PYTHON, PRESILICON, MENTORING], rounds)
    assert [(i.severity, i.code, i.competency or i.round_key) for i in coverage.issues] == [
        ("critical", "gap", "pre-silicon-feedback"),
        ("critical", "gap", "mentoring"),
        ("warning", "empty-round", "Lunch"),
        ("notice", "over", "python"),
    ]
    assert coverage.gaps_and_risks == coverage.issues


def test_secondary_only_with_nobody_qualified_is_not_covered():
    """Enough rounds give it secondary focus but nobody is qualified: not ok, and the plan is not ok either."""
    rounds = [make_round("a", ("python", "secondary"), ("mentoring", "primary"))]
    bench = {"mentoring": BenchEntry("mentoring", 3, 0)}
    coverage = compute_coverage([MENTORING, PYTHON], rounds, bench)
    assert coverage.competency("python").status == "no-assessor"
    assert coverage.status == "no-assessor"
    assert "no-bench" in coverage.competency("python").risks


def test_thin_must_have_stays_thin_without_bench():
    """A must-have short of rounds stays thin with nobody qualified: the shortfall is what blocks scheduling."""
    rounds = [make_round("a", ("mentoring", "secondary"))]
    coverage = compute_coverage([MENTORING], rounds, {})
    assert coverage.competency("mentoring").status == "thin"
