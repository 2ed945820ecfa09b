"""The scheduling constraint: no loop on a plan with an uncovered must-have, unless overridden.

The service records the override in the audit log; this module only decides whether scheduling may
go ahead and says why not.
"""

from __future__ import annotations

from planner.core.coverage.report import GAP, THIN, Coverage
from planner.core.coverage.types import MUST_HAVE
from planner.core.errors import ValidationFailed


class UncoveredMustHave(ValidationFailed):
    """A loop was about to be scheduled on a plan that leaves a must-have below its required coverage."""

    def __init__(self, message: str, slugs: list[str]) -> None:
        super().__init__(message)
        self.slugs = slugs


def uncovered_must_haves(coverage: Coverage) -> list[str]:
    """Slugs of must-haves assessed by fewer rounds than required (status gap or thin), in posting order.

    Bench depth is deliberately not part of this check: missing people show up as an unschedulable
    round with a reason, while this constraint is about the plan itself.
    """
    return [
        item.slug
        for item in coverage.competencies
        if item.priority == MUST_HAVE and item.status in (GAP, THIN)
    ]


def check_schedulable(coverage: Coverage, override_reason: str | None = None) -> list[str]:
    """Allow scheduling only when every must-have is covered or a written reason overrides the gap.

    :param override_reason: the coordinator's reason; blank or whitespace does not count as written.
    :return: the slugs the override waives (empty when nothing was uncovered), for the audit entry.
    :raise UncoveredMustHave: when a must-have is uncovered and no reason was written.
    """
    uncovered = uncovered_must_haves(coverage)
    if not uncovered or (override_reason and override_reason.strip()):
        return uncovered
    shortfalls = [issue for issue in coverage.issues if issue.code in (GAP, THIN)]
    details = " ".join(issue.message for issue in shortfalls if issue.competency in uncovered)
    raise UncoveredMustHave(
        f"This loop cannot be scheduled yet: {details} Add rounds, or override with a written reason.",
        uncovered,
    )
