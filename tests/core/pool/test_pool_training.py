"""Training ladder: shadow -> reverse-shadow -> qualified, with a configurable policy."""

from __future__ import annotations

import pytest

from planner.core.pool import (
    NotReadyForPromotion,
    TrainingLevel,
    TrainingPolicy,
    UnknownTrainingLevel,
    counts_as_assessor,
    next_level,
    promote,
    training_progress,
)
from planner.core.pool.training import InvalidTrainingPolicy


def test_next_level_walks_the_ladder():
    """shadow -> reverse-shadow -> qualified -> None."""
    assert next_level("shadow") is TrainingLevel.REVERSE_SHADOW
    assert next_level(TrainingLevel.REVERSE_SHADOW) is TrainingLevel.QUALIFIED
    assert next_level("qualified") is None


def test_only_qualified_counts_as_assessor():
    """Shadows and reverse-shadows are trainees, not assessors."""
    assert [counts_as_assessor(level) for level in TrainingLevel] == [False, False, True]


def test_shadow_not_ready_after_one_of_two():
    """One completed shadow of the default two is not enough."""
    progress = training_progress("shadow", completed_shadow=1, completed_reverse=0)
    assert (progress.done, progress.needed, progress.ready) == (1, 2, False)
    assert progress.sentence == "1 of 2 shadow interviews completed; 1 more before reverse-shadow."


def test_shadow_ready_after_two():
    """Two completed shadows make a shadow ready for reverse-shadow."""
    progress = training_progress("shadow", 2, 0)
    assert progress.ready
    assert progress.next_level is TrainingLevel.REVERSE_SHADOW
    assert progress.sentence == "Ready to move up to reverse-shadow: 2 shadow interviews completed."


def test_reverse_shadow_counts_only_reverse_shadows():
    """Shadows done earlier do not count towards qualification."""
    assert not training_progress("reverse-shadow", completed_shadow=5, completed_reverse=0).ready
    assert training_progress("reverse-shadow", completed_shadow=2, completed_reverse=1).ready


def test_policy_thresholds_are_parameters():
    """A stricter policy asks for more interviews."""
    policy = TrainingPolicy(shadows_for_reverse_shadow=3, reverse_shadows_for_qualified=2)
    assert not training_progress("shadow", 2, 0, policy).ready
    assert training_progress("reverse-shadow", 0, 2, policy).needed == 2


def test_qualified_has_no_next_step():
    """Qualified is the top of the ladder and is never 'ready'."""
    progress = training_progress("qualified", 9, 9)
    assert (progress.next_level, progress.ready) == (None, False)


def test_promote_moves_up_one_level_when_ready():
    """Promotion returns the next level."""
    assert promote("shadow", 2, 0) is TrainingLevel.REVERSE_SHADOW
    assert promote("reverse-shadow", 2, 1) is TrainingLevel.QUALIFIED


@pytest.mark.parametrize(
    ("level", "shadow", "reverse"), [("shadow", 1, 0), ("reverse-shadow", 2, 0), ("qualified", 3, 1)]
)
def test_promote_refuses_when_not_ready(level, shadow, reverse):
    """Promotion before the policy is met, or past qualified, is refused."""
    with pytest.raises(NotReadyForPromotion):
        promote(level, shadow, reverse)


def test_unknown_level_and_bad_policy_are_refused():
    """Typos in levels and negative thresholds get clear errors."""
    with pytest.raises(UnknownTrainingLevel, match="'expert' is not a training level"):
        training_progress("expert", 0, 0)
    with pytest.raises(InvalidTrainingPolicy):
        TrainingPolicy(shadows_for_reverse_shadow=-1)
