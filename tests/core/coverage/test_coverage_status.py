"""Coverage statuses, the matrix and the bench columns of compute_coverage."""

import pytest

from planner.core.coverage import (
    BenchEntry,
    CompetencyReq,
    RoundCompetency,
    RoundPlan,
    compute_coverage,
    coverage_status,
    matrix_csv,
    matrix_rows,
    worst_status,
)
from planner.core.errors import ValidationFailed

MENTORING = CompetencyReq("mentoring", "Mentoring", "leadership")
PYTHON = CompetencyReq("python", "Python", "technical", "nice-to-have")


def make_round(key: str, *slugs: str, focus: str = "primary", minutes: int = 60) -> RoundPlan:
    """A round assessing ``slugs`` with one focus."""
    return RoundPlan(
        key, key.title(), "technical", minutes, 1, tuple(RoundCompetency(s, focus) for s in slugs)
    )


def rounds_assessing(slug: str, count: int) -> list[RoundPlan]:
    """``count`` rounds each assessing ``slug`` as primary."""
    return [make_round(f"r{i}", slug) for i in range(count)]


@pytest.mark.parametrize(
    ("count", "expected"), [(0, "gap"), (1, "thin"), (2, "ok"), (3, "ok"), (4, "over"), (7, "over")]
)
def test_must_have_status_by_round_count(count, expected):
    """A must-have (required 2) is gap at 0, thin at 1, ok at 2-3 and over from 4 rounds."""
    coverage = compute_coverage([MENTORING], rounds_assessing("mentoring", count))
    assert coverage.competency("mentoring").status == expected
    assert coverage.competency("mentoring").count == count


@pytest.mark.parametrize(("count", "expected"), [(0, "gap"), (1, "ok"), (2, "ok"), (3, "over")])
def test_nice_to_have_status_by_round_count(count, expected):
    """A nice-to-have (required 1) is never thin: gap at 0, ok at 1-2, over from 3."""
    assert (
        compute_coverage([PYTHON], rounds_assessing("python", count)).competency("python").status == expected
    )


def test_custom_required_coverage_drives_thin():
    """An explicit required coverage of 3 makes two rounds thin."""
    req = CompetencyReq("design", "System design", "technical", "must-have", 3)
    assert compute_coverage([req], rounds_assessing("design", 2)).competency("design").status == "thin"


def test_secondary_focus_counts_as_assessing():
    """A round with a secondary focus counts toward coverage."""
    rounds = [make_round("a", "mentoring"), make_round("b", "mentoring", focus="secondary")]
    row = compute_coverage([MENTORING], rounds).competency("mentoring")
    assert (row.status, row.count, row.primary_count) == ("ok", 2, 1)


def test_coverage_status_function_matches_documented_bounds():
    """coverage_status uses ok for required and required+1 and over beyond."""
    assert [coverage_status(n, 3) for n in range(6)] == ["gap", "thin", "thin", "ok", "ok", "over"]


def test_overall_status_is_worst_of_competencies():
    """One gap among ok competencies makes the plan's status gap."""
    coverage = compute_coverage([MENTORING, PYTHON], rounds_assessing("mentoring", 2))
    assert coverage.status == "gap"
    assert worst_status(["ok", "over", "thin"]) == "thin"
    assert worst_status([]) == "ok"


def test_matrix_cells_line_up_with_rounds():
    """Matrix rows hold primary/secondary/None per round in plan order."""
    rounds = [
        make_round("a", "mentoring"),
        make_round("b", "python"),
        make_round("c", "mentoring", focus="secondary"),
    ]
    coverage = compute_coverage([MENTORING, PYTHON], rounds)
    assert [row.cells for row in coverage.matrix] == [("primary", None, "secondary"), (None, "primary", None)]
    assert coverage.competency("mentoring").round_names == ("A", "C")


def test_bench_depth_is_reported_and_missing_slug_counts_as_zero():
    """Bench columns come from the bench mapping; a slug absent from it has nobody qualified."""
    bench = {"mentoring": BenchEntry("mentoring", 4, 2)}
    coverage = compute_coverage([MENTORING, PYTHON], rounds_assessing("mentoring", 2), bench)
    assert (
        coverage.competency("mentoring").bench_qualified,
        coverage.competency("mentoring").bench_in_training,
    ) == (4, 2)
    assert coverage.competency("python").bench_qualified == 0


def test_no_bench_given_leaves_bench_unknown():
    """Without a bench the depth is None and no bench risk is raised."""
    coverage = compute_coverage([MENTORING], rounds_assessing("mentoring", 2))
    assert coverage.competency("mentoring").bench_qualified is None
    assert coverage.issues == ()


def test_duplicate_round_keys_are_rejected():
    """Two rounds with one key cannot be told apart, so the engine refuses them."""
    with pytest.raises(ValidationFailed, match="round key 'r0'"):
        compute_coverage([MENTORING], [make_round("r0", "mentoring"), make_round("r0", "python")])


def test_matrix_rows_have_header_and_one_row_per_competency():
    """The CSV rows start with a header naming every round, then one row per competency."""
    coverage = compute_coverage([MENTORING, PYTHON], [make_round("a", "mentoring")], {})
    rows = matrix_rows(coverage)
    assert rows[0][-1] == "A"
    assert rows[1] == ["Mentoring", "mentoring", "must-have", "2", "1", "thin", "0", "0", "primary"]
    assert rows[2][-1] == ""
    assert matrix_csv(coverage).splitlines()[1].startswith("Mentoring,mentoring,must-have,2,1,thin")


def test_as_dict_is_json_ready():
    """as_dict exposes status, totals, competencies with count, and issues."""
    coverage = compute_coverage([MENTORING], [make_round("a", "mentoring", minutes=45)])
    data = coverage.as_dict()
    assert data["status"] == "thin"
    assert data["total_minutes"] == 45
    assert data["competencies"][0]["count"] == 1
    assert data["gaps_and_risks"][0]["code"] == "thin"
