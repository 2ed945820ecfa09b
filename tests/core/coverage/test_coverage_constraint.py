"""The scheduling constraint on uncovered must-haves and its override."""

import pytest

from planner.core.coverage import (
    CompetencyReq,
    RoundCompetency,
    RoundPlan,
    UncoveredMustHave,
    check_schedulable,
    compute_coverage,
    uncovered_must_haves,
)
from planner.core.errors import ValidationFailed

REQS = [
    CompetencyReq("compiler-design", "Compiler design", "technical"),
    CompetencyReq("python", "Python", "technical", "nice-to-have"),
    CompetencyReq("mentoring", "Mentoring", "leadership"),
]


def plan(*slug_lists: tuple[str, ...]) -> list[RoundPlan]:
    """One 60-minute round per tuple of primary slugs."""
    return [
        RoundPlan(
            f"r{i}", f"Round {i}", "technical", 60, competencies=tuple(RoundCompetency(s) for s in slugs)
        )
        for i, slugs in enumerate(slug_lists)
    ]


def test_uncovered_lists_gap_and_thin_must_haves_in_posting_order():
    """Thin and gap must-haves are uncovered; an uncovered nice-to-have is not."""
    coverage = compute_coverage(REQS, plan(("mentoring",)))
    assert uncovered_must_haves(coverage) == ["compiler-design", "mentoring"]


def test_fully_covered_plan_is_schedulable_without_reason():
    """With every must-have at its required coverage, no reason is needed and nothing is waived."""
    coverage = compute_coverage(
        REQS, plan(("compiler-design", "mentoring"), ("compiler-design", "mentoring"))
    )
    assert uncovered_must_haves(coverage) == []
    assert check_schedulable(coverage) == []


@pytest.mark.parametrize("reason", [None, "", "   \n"])
def test_uncovered_plan_refused_without_written_reason(reason):
    """No reason, or only whitespace, refuses scheduling with the gap in the sentence."""
    coverage = compute_coverage(REQS, plan(("compiler-design",), ("compiler-design",)))
    with pytest.raises(UncoveredMustHave, match="Mentoring is not assessed by any round") as caught:
        check_schedulable(coverage, reason)
    assert caught.value.slugs == ["mentoring"]
    assert isinstance(caught.value, ValidationFailed)


def test_written_reason_overrides_and_returns_waived_slugs():
    """A written reason lets scheduling go ahead and reports what it waives for the audit."""
    coverage = compute_coverage(REQS, plan(("compiler-design",)))
    assert check_schedulable(coverage, "Hiring manager covers mentoring in the debrief") == [
        "compiler-design",
        "mentoring",
    ]
