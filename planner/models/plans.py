"""A posting's loop plan: rounds, what each assesses, and published versions."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import JSON, CheckConstraint, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from planner.db import Base, utcnow
from planner.models._types import enum_column


class RoundKind(enum.Enum):
    SCREEN = "screen"
    TECHNICAL = "technical"
    DESIGN = "design"
    BEHAVIOURAL = "behavioural"
    BAR_RAISER = "bar-raiser"
    HIRING_MANAGER = "hiring-manager"


class Focus(enum.Enum):
    PRIMARY = "primary"
    SECONDARY = "secondary"


class Round(Base):
    """A round of the posting's working plan; publishing copies the plan into a PlanVersion."""

    __tablename__ = "rounds"
    __table_args__ = (
        CheckConstraint("minutes > 0", name="minutes_positive"),
        CheckConstraint("interviewers >= 1", name="interviewers_positive"),
        CheckConstraint("min_outside_team >= 0", name="min_outside_team_nonnegative"),
        CheckConstraint("max_trainees >= 0", name="max_trainees_nonnegative"),
        UniqueConstraint("posting_id", "key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    posting_id: Mapped[int] = mapped_column(ForeignKey("postings.id", ondelete="CASCADE"), index=True)
    #: Stable identity across edits and versions (diffs match rounds by it).
    key: Mapped[str] = mapped_column(String(32))
    position: Mapped[int] = mapped_column(default=0)
    name: Mapped[str] = mapped_column(String(120))
    kind: Mapped[RoundKind] = mapped_column(enum_column(RoundKind, "round_kind"))
    minutes: Mapped[int] = mapped_column(default=60)
    interviewers: Mapped[int] = mapped_column(default=1)
    #: The interview kit, one question per item.
    focus_questions: Mapped[list] = mapped_column(JSON, default=list)
    min_outside_team: Mapped[int] = mapped_column(default=0)
    max_trainees: Mapped[int] = mapped_column(default=1)

    competencies: Mapped[list[RoundCompetency]] = relationship(
        back_populates="round", cascade="all, delete-orphan"
    )


class RoundCompetency(Base):
    __tablename__ = "round_competencies"

    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True)
    competency_id: Mapped[int] = mapped_column(ForeignKey("competencies.id"), primary_key=True, index=True)
    focus: Mapped[Focus] = mapped_column(enum_column(Focus, "focus"), default=Focus.PRIMARY)

    round: Mapped[Round] = relationship(back_populates="competencies")


class PlanVersion(Base):
    """A published, frozen copy of a plan; loops point at the version they were scheduled with."""

    __tablename__ = "plan_versions"
    __table_args__ = (UniqueConstraint("posting_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    posting_id: Mapped[int] = mapped_column(ForeignKey("postings.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    #: The rounds as published: [{key, name, kind, minutes, interviewers, competencies: [...], ...}].
    snapshot: Mapped[list] = mapped_column(JSON)
    note: Mapped[str] = mapped_column(Text, default="")
    published_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    published_at: Mapped[datetime] = mapped_column(default=utcnow)
