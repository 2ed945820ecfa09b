"""Overdue scorecards on the coordinator's overview, as a partial with its own query.

The overview template includes ``coordinator/_overdue_scorecards.html``, which calls
``overdue_scorecards()``: the query runs only on pages that include the partial.
"""

from __future__ import annotations

from flask import current_app

from planner.core.errors import PlannerError
from planner.core.reminders import overdue_by
from planner.db import utcnow
from planner.queries.scorecards_due import OverdueList, get_overdue_scorecards
from planner.services.reminders import ReminderSettings
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session


def overdue_scorecards() -> OverdueList:
    """The most overdue scorecards and their total, by the configured deadline (24 h when it is unreadable)."""
    try:
        due_hours = ReminderSettings.from_mapping(current_app.config).due_hours
    except PlannerError:
        due_hours = ReminderSettings().due_hours
    return get_overdue_scorecards(get_session(), now=utcnow(), due_hours=due_hours)


@bp.context_processor
def _overdue_context() -> dict:
    return {"overdue_scorecards": overdue_scorecards}


@bp.app_template_filter("overdue_by")
def overdue_by_filter(delta) -> str:
    """How late, in words ("5 hours", "1 day 3 hours")."""
    return overdue_by(delta)
