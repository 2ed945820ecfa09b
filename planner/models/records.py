"""What happens around interviews: scorecards, the outbox of calendar messages, the audit trail."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import JSON, CheckConstraint, ForeignKey, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from planner.db import Base, utcnow
from planner.models._types import enum_column


class Scorecard(Base):
    """One interviewer's verdict on one interview; hidden from others until they submit theirs."""

    __tablename__ = "scorecards"
    __table_args__ = (UniqueConstraint("interview_id", "interviewer_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    interview_id: Mapped[int] = mapped_column(ForeignKey("interviews.id", ondelete="CASCADE"), index=True)
    interviewer_id: Mapped[int] = mapped_column(ForeignKey("interviewers.id"), index=True)
    notes: Mapped[str] = mapped_column(Text, default="")
    submitted_at: Mapped[datetime | None]

    ratings: Mapped[list[Rating]] = relationship(back_populates="scorecard", cascade="all, delete-orphan")


class Rating(Base):
    __tablename__ = "ratings"
    __table_args__ = (CheckConstraint("score BETWEEN 1 AND 4", name="score_range"),)

    scorecard_id: Mapped[int] = mapped_column(ForeignKey("scorecards.id", ondelete="CASCADE"), primary_key=True)
    competency_id: Mapped[int] = mapped_column(ForeignKey("competencies.id"), primary_key=True)
    score: Mapped[int]

    scorecard: Mapped[Scorecard] = relationship(back_populates="ratings")


class OutboxState(enum.Enum):
    PENDING = "pending"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"


class OutboxMessage(Base):
    """An email to deliver, written in the same transaction as the change it announces.

    Calendar messages (invites, updates, cancellations) carry their .ics and an iTIP method; a plain
    email (a reminder) has no .ics, an empty method, and names its sender.
    """

    __tablename__ = "outbox_messages"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: RFC 5322 Message-ID, fixed when the row is written so a resend after a crash is recognisable.
    message_id: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(32))
    method: Mapped[str] = mapped_column(String(16))
    recipient_email: Mapped[str] = mapped_column(String(254))
    recipient_name: Mapped[str] = mapped_column(String(120), default="")
    subject: Mapped[str] = mapped_column(String(300))
    body_text: Mapped[str] = mapped_column(Text, default="")
    body_html: Mapped[str] = mapped_column(Text, default="")
    ics: Mapped[bytes | None] = mapped_column(LargeBinary)
    #: From of a plain email (a calendar message is sent from its ORGANIZER instead).
    sender_email: Mapped[str | None] = mapped_column(String(254))
    sender_name: Mapped[str | None] = mapped_column(String(120))
    interview_id: Mapped[int | None] = mapped_column(ForeignKey("interviews.id", ondelete="SET NULL"), index=True)
    loop_id: Mapped[int | None] = mapped_column(ForeignKey("loops.id", ondelete="SET NULL"), index=True)
    sequence: Mapped[int] = mapped_column(default=0)
    state: Mapped[OutboxState] = mapped_column(
        enum_column(OutboxState, "outbox_state"), default=OutboxState.PENDING, index=True
    )
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    last_error: Mapped[str] = mapped_column(Text, default="")
    locked_by: Mapped[str | None] = mapped_column(String(120))
    locked_at: Mapped[datetime | None]
    sent_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    @property
    def is_calendar(self) -> bool:
        """True for an iMIP calendar message, False for a plain email."""
        return self.ics is not None


class AuditEntry(Base):
    """Who changed what, when, and why."""

    __tablename__ = "audit_entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    action: Mapped[str] = mapped_column(String(64))
    entity: Mapped[str] = mapped_column(String(64))
    entity_id: Mapped[int | None]
    #: The loop and the interviewer the change concerns, when there is one: the audit page filters on them.
    #: Plain integers, not foreign keys, so an entry outlives what it describes.
    loop_id: Mapped[int | None] = mapped_column(index=True)
    interviewer_id: Mapped[int | None] = mapped_column(index=True)
    reason: Mapped[str] = mapped_column(Text, default="")
    details: Mapped[dict] = mapped_column(JSON, default=dict)
