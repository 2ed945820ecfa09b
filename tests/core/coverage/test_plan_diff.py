"""diff_plans: what changed between two plan versions, in plain sentences."""

import pytest

from planner.core.coverage import Change, RoundCompetency, RoundPlan, SeatRules, diff_plans
from planner.core.errors import ValidationFailed

CODING = RoundPlan("coding", "Coding", "technical", 45, 1, (RoundCompetency("compiler-design"),))
BAR = RoundPlan("bar", "Bar raiser", "bar-raiser", 60, 1, (RoundCompetency("mentoring", "secondary"),))
HM = RoundPlan("hm", "Hiring manager", "hiring-manager", 45, 1, (RoundCompetency("customer-ownership"),))
NAMES = {"mentoring": "Mentoring", "compiler-design": "Compiler design"}


def messages(changes: list[Change]) -> list[str]:
    """The sentences of the changes."""
    return [str(change) for change in changes]


def test_identical_plans_have_no_changes():
    """Comparing a plan with itself yields nothing."""
    assert diff_plans([CODING, BAR], [CODING, BAR]) == []


def test_added_and_removed_rounds():
    """A new key is added, a missing key is removed; removals come first."""
    design = RoundPlan("design", "System design", "design", 60)
    changes = diff_plans([CODING, BAR], [CODING, design])
    assert messages(changes) == ["Round 'Bar raiser' removed", "Round 'System design' added (60 min)"]
    assert [c.kind for c in changes] == ["removed", "added"]


def test_duration_and_rename_matched_by_key():
    """Same key, new name and duration: one rename and one duration change, not remove plus add."""
    new = RoundPlan("coding", "Compiler deep-dive", "technical", 60, 1, CODING.competencies)
    assert messages(diff_plans([CODING], [new])) == [
        "Round 'Coding' renamed to 'Compiler deep-dive'",
        "Round 'Compiler deep-dive' duration 45 -> 60 min",
    ]


def test_focus_change_and_competency_edits_use_names():
    """Focus moves and competency additions/removals are phrased with display names."""
    new_bar = RoundPlan(
        "bar",
        "Bar raiser",
        "bar-raiser",
        60,
        2,
        (RoundCompetency("mentoring", "primary"), RoundCompetency("compiler-design", "secondary")),
    )
    new_coding = RoundPlan("coding", "Coding", "technical", 45, 1, ())
    changes = diff_plans([CODING, BAR], [new_coding, new_bar], names=NAMES)
    assert messages(changes) == [
        "Compiler design removed from 'Coding'",
        "Round 'Bar raiser' interviewers 1 -> 2",
        "Mentoring moved from secondary to primary in 'Bar raiser'",
        "Compiler design added to 'Bar raiser' as secondary focus",
    ]


def test_kind_questions_and_seat_rules_changes():
    """Kind, focus questions and seat rules each produce a sentence."""
    new = RoundPlan(
        "coding",
        "Coding",
        "design",
        45,
        1,
        CODING.competencies,
        ("Walk me through a pass",),
        SeatRules(min_outside_team=1, max_trainees=0),
    )
    assert [c.kind for c in diff_plans([CODING], [new])] == ["kind", "questions", "seat-rules", "seat-rules"]
    assert "focus questions changed (one added, no removed)" in messages(diff_plans([CODING], [new]))[1]


def test_moved_round_is_the_only_one_reported():
    """Moving the last round first reports that round only, not every round that shifted."""
    changes = diff_plans([CODING, BAR, HM], [HM, CODING, BAR])
    assert messages(changes) == ["Round 'Hiring manager' moved from position 3 to 1"]


def test_insertion_does_not_count_as_reordering():
    """Adding a round at the front shifts positions but moves nothing."""
    screen = RoundPlan("screen", "Phone screen", "screen", 30)
    assert [c.kind for c in diff_plans([CODING, BAR], [screen, CODING, BAR])] == ["added"]


def test_repeated_keys_are_refused():
    """Versions with a repeated key cannot be matched round by round."""
    with pytest.raises(ValidationFailed, match="new plan repeats a round key"):
        diff_plans([CODING], [CODING, CODING])
