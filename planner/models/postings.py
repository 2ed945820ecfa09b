"""Postings, the competency library, and what each posting asks for (with evidence)."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import JSON, CheckConstraint, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from planner.db import Base, utcnow
from planner.models._types import enum_column


class PostingStatus(enum.Enum):
    DRAFT = "draft"
    OPEN = "open"
    CLOSED = "closed"


class CompetencyCategory(enum.Enum):
    TECHNICAL = "technical"
    BEHAVIOURAL = "behavioural"
    LEADERSHIP = "leadership"


class Priority(enum.Enum):
    MUST_HAVE = "must-have"
    NICE_TO_HAVE = "nice-to-have"


class SelectionState(enum.Enum):
    SUGGESTED = "suggested"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class Competency(Base):
    """A reusable library entry; retired entries stay attached to the postings that used them."""

    __tablename__ = "competencies"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(80), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    category: Mapped[CompetencyCategory] = mapped_column(enum_column(CompetencyCategory, "category"))
    description: Mapped[str] = mapped_column(Text, default="")
    rubric_strong: Mapped[str] = mapped_column(Text, default="")
    rubric_weak: Mapped[str] = mapped_column(Text, default="")
    #: Phrases and synonyms the extractor looks for, one per list item.
    phrases: Mapped[list] = mapped_column(JSON, default=list)
    retired_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Posting(Base):
    __tablename__ = "postings"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    team: Mapped[str] = mapped_column(String(120), default="")
    location: Mapped[str] = mapped_column(String(200), default="")
    level: Mapped[str] = mapped_column(String(60), default="")
    hiring_manager: Mapped[str] = mapped_column(String(120), default="")
    status: Mapped[PostingStatus] = mapped_column(
        enum_column(PostingStatus, "posting_status"), default=PostingStatus.DRAFT
    )
    text: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    competencies: Mapped[list[PostingCompetency]] = relationship(
        back_populates="posting", cascade="all, delete-orphan", order_by="PostingCompetency.id"
    )


class PostingCompetency(Base):
    """A competency a posting asks for: priority, required coverage and the sentences behind it."""

    __tablename__ = "posting_competencies"
    __table_args__ = (
        UniqueConstraint("posting_id", "competency_id"),
        CheckConstraint("required_coverage >= 1", name="required_coverage_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    posting_id: Mapped[int] = mapped_column(ForeignKey("postings.id", ondelete="CASCADE"), index=True)
    competency_id: Mapped[int] = mapped_column(ForeignKey("competencies.id"), index=True)
    priority: Mapped[Priority] = mapped_column(enum_column(Priority, "priority"), default=Priority.MUST_HAVE)
    required_coverage: Mapped[int] = mapped_column(default=2)
    state: Mapped[SelectionState] = mapped_column(
        enum_column(SelectionState, "selection_state"), default=SelectionState.SUGGESTED
    )
    #: Extractor score when it was suggested; None when the coordinator added it by hand.
    score: Mapped[float | None]
    #: The competency the extractor found next closest to this evidence (offered as a one-click switch).
    runner_up_id: Mapped[int | None] = mapped_column(
        ForeignKey("competencies.id", ondelete="SET NULL"), index=True
    )
    #: Why the runner-up is close, in a few words (from the extractor).
    runner_up_reason: Mapped[str] = mapped_column(Text, default="", server_default="")

    posting: Mapped[Posting] = relationship(back_populates="competencies")
    competency: Mapped[Competency] = relationship(foreign_keys=[competency_id])
    runner_up: Mapped[Competency | None] = relationship(foreign_keys=[runner_up_id])
    evidence: Mapped[list[Evidence]] = relationship(
        back_populates="posting_competency", cascade="all, delete-orphan", order_by="Evidence.position"
    )


class Evidence(Base):
    """One sentence of the posting that justifies a competency, with the matched spans."""

    __tablename__ = "evidence"

    id: Mapped[int] = mapped_column(primary_key=True)
    posting_competency_id: Mapped[int] = mapped_column(
        ForeignKey("posting_competencies.id", ondelete="CASCADE"), index=True
    )
    position: Mapped[int] = mapped_column(default=0)
    sentence: Mapped[str] = mapped_column(Text)
    #: Character offsets of the sentence in the posting text.
    start: Mapped[int] = mapped_column(default=0)
    end: Mapped[int] = mapped_column(default=0)
    #: [[start, end], ...] of the matched phrases, relative to the sentence.
    spans: Mapped[list] = mapped_column(JSON, default=list)

    posting_competency: Mapped[PostingCompetency] = relationship(back_populates="evidence")
