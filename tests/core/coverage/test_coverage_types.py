"""Validation of the coverage value types and bench counting."""

import pytest

from planner.core.coverage import CompetencyReq, RoundCompetency, RoundPlan, build_bench
from planner.core.errors import ValidationFailed


def test_required_defaults_by_priority():
    """Must-haves default to two rounds, nice-to-haves to one."""
    assert CompetencyReq("a", "A", "technical").required == 2
    assert CompetencyReq("b", "B", "technical", "nice-to-have").required == 1


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"category": "social"}, "category 'social'"),
        ({"priority": "optional"}, "priority 'optional'"),
        ({"required": 0}, "at least one round"),
    ],
)
def test_bad_competency_is_refused(kwargs, fragment):
    """Unknown category or priority, and zero required rounds, are refused with a sentence."""
    fields = {"slug": "a", "name": "A", "category": "technical", **kwargs}
    with pytest.raises(ValidationFailed, match=fragment):
        CompetencyReq(**fields)


def test_round_rejects_duplicate_competency_and_bad_kind():
    """A round cannot list a competency twice or use an unknown kind."""
    with pytest.raises(ValidationFailed, match="more than once"):
        RoundPlan(
            "r", "R", "technical", 45, competencies=(RoundCompetency("a"), RoundCompetency("a", "secondary"))
        )
    with pytest.raises(ValidationFailed, match="kind 'lunch'"):
        RoundPlan("r", "R", "lunch", 45)


def test_round_focus_must_be_primary_or_secondary():
    """Focus is primary or secondary only."""
    with pytest.raises(ValidationFailed, match="Focus 'tertiary'"):
        RoundCompetency("a", "tertiary")


def test_build_bench_counts_qualified_and_training_separately():
    """Only 'qualified' counts as an assessor; shadow and reverse-shadow count as in training."""
    bench = build_bench(
        [
            {"mentoring": "qualified", "python": "shadow"},
            {"mentoring": "reverse-shadow"},
            {"mentoring": "qualified"},
        ]
    )
    assert (bench["mentoring"].qualified, bench["mentoring"].in_training) == (2, 1)
    assert (bench["python"].qualified, bench["python"].in_training) == (0, 1)


def test_build_bench_refuses_unknown_level():
    """A level outside the training ladder is an input error."""
    with pytest.raises(ValidationFailed, match="Level 'expert'"):
        build_bench([{"mentoring": "expert"}])
