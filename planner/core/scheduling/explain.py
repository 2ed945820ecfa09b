"""Plain-words reasons for unscheduled loops, and the nearest fixes a coordinator could make."""

from __future__ import annotations

from planner.core.scheduling.problem import LoopPlan


def explain_unscheduled(problem, calendars, ledger, pools, loop_id: str) -> LoopPlan:
    """An unscheduled plan for ``loop_id`` carrying a reason and fixes."""
    return LoopPlan(loop_id, reason="no schedule found")
