"""Read side of an interviewer's CalDAV calendar: what the page shows (never the secret)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.models import CalendarSource


@dataclass(frozen=True)
class CalendarStatus:
    """The calendar's address, whether a password is saved, and how the last syncs went."""

    url: str
    username: str
    has_secret: bool
    last_success_at: datetime | None
    last_block_count: int
    last_failure_at: datetime | None
    last_error: str

    @property
    def failing(self) -> bool:
        """The latest attempt failed (the blocks of the last success stay in force)."""
        return bool(self.last_error) and self.last_failure_at is not None and (
            self.last_success_at is None or self.last_failure_at >= self.last_success_at)


def get_calendar_status(session: Session, interviewer_id: int) -> CalendarStatus | None:
    """The interviewer's CalDAV calendar as the page shows it, or None when none is set."""
    row = session.execute(
        select(CalendarSource.url, CalendarSource.username, CalendarSource.secret.is_not(None),
               CalendarSource.last_success_at, CalendarSource.last_block_count, CalendarSource.last_failure_at,
               CalendarSource.last_error)
        .where(CalendarSource.interviewer_id == interviewer_id)
    ).first()
    return CalendarStatus(*row) if row else None
