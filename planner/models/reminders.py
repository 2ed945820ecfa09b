"""Scorecard reminders: one row per assessor per local day, so two workers never mail the same reminder twice."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import JSON, ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from planner.db import Base, utcnow


class ScorecardReminder(Base):
    """The reminder an assessor got on one day (in their zone) about the scorecards they still owed."""

    __tablename__ = "scorecard_reminders"
    __table_args__ = (UniqueConstraint("interviewer_id", "day"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    interviewer_id: Mapped[int] = mapped_column(ForeignKey("interviewers.id", ondelete="CASCADE"))
    #: The assessor's local date the reminder belongs to: at most one a day.
    day: Mapped[date]
    #: The interviews whose scorecards were overdue, as listed in the email.
    interview_ids: Mapped[list] = mapped_column(JSON, default=list)
    outbox_message_id: Mapped[int | None] = mapped_column(ForeignKey("outbox_messages.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
