"""What an interviewer may change about themselves: their working hours, days and time zone.

Caps stay with the coordinator: they spread the load fairly across the pool and decide how often a person
is asked, a staffing decision for whoever balances everyone's week (an interviewer who needs fewer
interviews asks the coordinator, who sees the whole pool). Busy time an interviewer imports from their own
calendar goes through the coordinator's own import (:func:`planner.services.pool.import_busy_ics`).

The checks and the audit entry are those of the coordinator's edit (:func:`update_interviewer`), with the
interviewer's login as the actor.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from planner.models import Interviewer
from planner.queries.pool import get_interviewer
from planner.services.pool.people import InterviewerInput, update_interviewer

#: The profile fields an interviewer may set on their own page.
SELF_FIELDS = ("timezone", "work_start", "work_end", "work_days")


def update_own_hours(session: Session, interviewer_id: int, *, timezone: str, work_start: str, work_end: str,
                     work_days: Sequence[str], actor_id: int | None) -> Interviewer:
    """Set an interviewer's own zone, working hours and days (everything else kept as it is); commit.

    :raise NotFound: no such interviewer.
    :raise FieldErrors: every field that breaks a rule (unknown zone, end before start, no day).
    """
    person = get_interviewer(session, interviewer_id)
    data = InterviewerInput(
        name=person.name, email=person.email, team=person.team or "", timezone=timezone,
        work_start=work_start, work_end=work_end, work_days=list(work_days),
        max_per_day=person.max_per_day, max_per_week=person.max_per_week, user_id=person.user_id)
    return update_interviewer(session, interviewer_id, data, actor_id=actor_id)
