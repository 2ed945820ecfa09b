"""Candidates, their loops, and the interviews (with seats) that make a loop."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import JSON, CheckConstraint, ForeignKey, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from planner.db import Base, utcnow
from planner.models._types import enum_column

if TYPE_CHECKING:
    from planner.models.people import Interviewer


class LoopStatus(enum.Enum):
    DRAFT = "draft"
    SCHEDULED = "scheduled"
    COMPLETED = "completed"
    CANCELLED = "cancelled"


class InterviewStatus(enum.Enum):
    SCHEDULED = "scheduled"
    COMPLETED = "completed"
    CANCELLED = "cancelled"


class SeatRole(enum.Enum):
    ASSESSOR = "assessor"
    TRAINEE = "trainee"


class SeatStatus(enum.Enum):
    ACTIVE = "active"
    REMOVED = "removed"


class PartStat(enum.Enum):
    """An interviewer's answer to an interview invite (iTIP PARTSTAT, RFC 5545 section 3.2.12)."""

    ACCEPTED = "accepted"
    TENTATIVE = "tentative"
    DECLINED = "declined"
    NEEDS_ACTION = "needs-action"


class Candidate(Base):
    __tablename__ = "candidates"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    email: Mapped[str] = mapped_column(String(254))
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Loop(Base):
    """One candidate going through one posting's plan."""

    __tablename__ = "loops"

    id: Mapped[int] = mapped_column(primary_key=True)
    posting_id: Mapped[int] = mapped_column(ForeignKey("postings.id", ondelete="CASCADE"), index=True)
    candidate_id: Mapped[int] = mapped_column(ForeignKey("candidates.id"), index=True)
    plan_version_id: Mapped[int | None] = mapped_column(ForeignKey("plan_versions.id"))
    status: Mapped[LoopStatus] = mapped_column(enum_column(LoopStatus, "loop_status"), default=LoopStatus.DRAFT)
    hiring_team: Mapped[str] = mapped_column(String(120), default="")
    max_gap_minutes: Mapped[int | None]
    #: The coordinator lets the scheduler put the rounds in any order; by default they keep the plan's order.
    rounds_any_order: Mapped[bool] = mapped_column(default=False, server_default=false())
    location: Mapped[str] = mapped_column(String(200), default="")
    video_url: Mapped[str] = mapped_column(String(500), default="")
    #: Written reason when the coordinator schedules despite an uncovered must-have.
    coverage_override: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    candidate: Mapped[Candidate] = relationship()
    windows: Mapped[list[LoopWindow]] = relationship(
        back_populates="loop", cascade="all, delete-orphan", order_by="LoopWindow.start"
    )
    interviews: Mapped[list[Interview]] = relationship(
        back_populates="loop", cascade="all, delete-orphan", order_by="Interview.start"
    )


class LoopWindow(Base):
    """A span when the candidate can interview."""

    __tablename__ = "loop_windows"
    __table_args__ = (CheckConstraint('"end" > start', name="end_after_start"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    loop_id: Mapped[int] = mapped_column(ForeignKey("loops.id", ondelete="CASCADE"), index=True)
    start: Mapped[datetime]
    end: Mapped[datetime]

    loop: Mapped[Loop] = relationship(back_populates="windows")


class Interview(Base):
    """One round of one loop at one time; its UID and SEQUENCE are the calendar identity."""

    __tablename__ = "interviews"
    __table_args__ = (CheckConstraint('"end" > start', name="end_after_start"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    loop_id: Mapped[int] = mapped_column(ForeignKey("loops.id", ondelete="CASCADE"), index=True)
    #: The round as it was in the loop's plan version (rounds may be edited later).
    round_key: Mapped[str] = mapped_column(String(32))
    round_name: Mapped[str] = mapped_column(String(120))
    round_detail: Mapped[dict] = mapped_column(JSON, default=dict)
    start: Mapped[datetime] = mapped_column(index=True)
    end: Mapped[datetime]
    location: Mapped[str] = mapped_column(String(200), default="")
    video_url: Mapped[str] = mapped_column(String(500), default="")
    uid: Mapped[str] = mapped_column(String(200), unique=True)
    sequence: Mapped[int] = mapped_column(default=0)
    status: Mapped[InterviewStatus] = mapped_column(
        enum_column(InterviewStatus, "interview_status"), default=InterviewStatus.SCHEDULED
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    loop: Mapped[Loop] = relationship(back_populates="interviews")
    seats: Mapped[list[Seat]] = relationship(back_populates="interview", cascade="all, delete-orphan")


class Seat(Base):
    """A person in an interview, as assessor or trainee."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("interview_id", "interviewer_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    interview_id: Mapped[int] = mapped_column(ForeignKey("interviews.id", ondelete="CASCADE"), index=True)
    interviewer_id: Mapped[int] = mapped_column(ForeignKey("interviewers.id"), index=True)
    role: Mapped[SeatRole] = mapped_column(enum_column(SeatRole, "seat_role"))
    #: Training level the trainee held when seated (progress counts completed seats per level).
    training_level: Mapped[str | None] = mapped_column(String(32))
    status: Mapped[SeatStatus] = mapped_column(enum_column(SeatStatus, "seat_status"), default=SeatStatus.ACTIVE)
    #: The person's last answer to the invite (None until they answer), when they gave it, what they wrote,
    #: and how it came in: "mail" (their calendar's reply), "upload" (a coordinator's upload) or "app".
    partstat: Mapped[PartStat | None] = mapped_column(enum_column(PartStat, "partstat"))
    partstat_at: Mapped[datetime | None]
    partstat_comment: Mapped[str] = mapped_column(Text, default="", server_default="")
    partstat_via: Mapped[str | None] = mapped_column(String(16))

    interview: Mapped[Interview] = relationship(back_populates="seats")
    interviewer: Mapped[Interviewer] = relationship()
