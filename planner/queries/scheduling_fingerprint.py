"""A fingerprint of everything a loop's schedule depends on, read in one query.

Counts, largest ids, sums of ids and latest change times of the tables the scheduling engine reads:
a row added, removed or replaced (a new id), or changed in place where the table keeps ``updated_at``
(interviewers' hours, caps and zone; interviews and, with them, their seats), changes the tuple. So a
cache keyed by it is invalidated by any writer -- a form, a calendar import, a sync job -- without the
writer knowing the cache exists. Busy blocks have no ``updated_at``: their latest start and end join
the counts, so a block moved in place is seen too unless it moves strictly inside the others' range.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from planner.models import (
    BusyBlock,
    Competency,
    Interview,
    Interviewer,
    Loop,
    LoopWindow,
    PlanVersion,
    Qualification,
    Seat,
    SeatStatus,
)


def _scalar(*columns):
    return [select(column).scalar_subquery() for column in columns]


def scheduling_fingerprint(session: Session, loop_id: int) -> tuple:
    """The fingerprint of the pool, every loop's seats and loop ``loop_id``'s own settings (one query)."""
    active_seats = select(func.count(Seat.id)).where(Seat.status == SeatStatus.ACTIVE).scalar_subquery()
    posting = select(Loop.posting_id).where(Loop.id == loop_id).scalar_subquery()
    columns = [
        *_scalar(func.count(BusyBlock.id), func.max(BusyBlock.id), func.sum(BusyBlock.id),
                 func.max(BusyBlock.start), func.max(BusyBlock.end), func.min(BusyBlock.start)),
        *_scalar(func.count(Interviewer.id), func.max(Interviewer.updated_at)),
        *_scalar(func.count(Qualification.id), func.max(Qualification.id), func.max(Qualification.since)),
        *_scalar(func.count(Interview.id), func.max(Interview.id), func.max(Interview.updated_at)),
        *_scalar(func.count(Seat.id), func.max(Seat.id)),
        active_seats,
        *_scalar(func.count(Competency.id), func.max(Competency.updated_at)),
        select(Loop.updated_at).where(Loop.id == loop_id).scalar_subquery(),
        select(func.count(LoopWindow.id)).where(LoopWindow.loop_id == loop_id).scalar_subquery(),
        select(func.max(LoopWindow.id)).where(LoopWindow.loop_id == loop_id).scalar_subquery(),
        select(func.max(PlanVersion.id)).where(PlanVersion.posting_id == posting).scalar_subquery(),
    ]
    row = session.execute(select(*columns)).one()
    return tuple(str(value) for value in row)
