"""The interviewer pool: people, their qualifications, and their busy time."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from planner.db import Base, utcnow
from planner.models._types import enum_column


class TrainingLevel(enum.Enum):
    SHADOW = "shadow"
    REVERSE_SHADOW = "reverse-shadow"
    QUALIFIED = "qualified"


class Interviewer(Base):
    __tablename__ = "interviewers"
    __table_args__ = (
        CheckConstraint("max_per_day >= 0", name="max_per_day_nonnegative"),
        CheckConstraint("max_per_week >= 0", name="max_per_week_nonnegative"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    email: Mapped[str] = mapped_column(String(254), unique=True)
    team: Mapped[str] = mapped_column(String(120), default="")
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    #: Local working hours, "HH:MM" ("24:00" allowed for the end).
    work_start: Mapped[str] = mapped_column(String(5), default="09:00")
    work_end: Mapped[str] = mapped_column(String(5), default="17:00")
    #: Working days as space-separated three-letter names ("mon tue wed thu fri").
    work_days: Mapped[str] = mapped_column(String(32), default="mon tue wed thu fri")
    max_per_day: Mapped[int] = mapped_column(default=2)
    max_per_week: Mapped[int] = mapped_column(default=5)
    active: Mapped[bool] = mapped_column(default=True)
    #: Secret part of the calendar feed URL; rotating it kills the old URL.
    feed_token: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    qualifications: Mapped[list[Qualification]] = relationship(
        back_populates="interviewer", cascade="all, delete-orphan"
    )
    busy_blocks: Mapped[list[BusyBlock]] = relationship(
        back_populates="interviewer", cascade="all, delete-orphan", order_by="BusyBlock.start"
    )


class Qualification(Base):
    __tablename__ = "qualifications"
    __table_args__ = (UniqueConstraint("interviewer_id", "competency_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    interviewer_id: Mapped[int] = mapped_column(ForeignKey("interviewers.id", ondelete="CASCADE"), index=True)
    competency_id: Mapped[int] = mapped_column(ForeignKey("competencies.id"), index=True)
    level: Mapped[TrainingLevel] = mapped_column(enum_column(TrainingLevel, "training_level"))
    since: Mapped[datetime] = mapped_column(default=utcnow)

    interviewer: Mapped[Interviewer] = relationship(back_populates="qualifications")


class BusyBlock(Base):
    """Time an interviewer cannot interview: entered by hand or imported from a calendar export."""

    __tablename__ = "busy_blocks"
    __table_args__ = (CheckConstraint('"end" > start', name="end_after_start"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    interviewer_id: Mapped[int] = mapped_column(ForeignKey("interviewers.id", ondelete="CASCADE"), index=True)
    start: Mapped[datetime]
    end: Mapped[datetime]
    summary: Mapped[str] = mapped_column(String(200), default="")
    #: "manual", or "import:<name>" so a re-import replaces the blocks of the previous one.
    source: Mapped[str] = mapped_column(String(200), default="manual", index=True)

    interviewer: Mapped[Interviewer] = relationship(back_populates="busy_blocks")
