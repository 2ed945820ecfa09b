"""Read side of the competency library page: entries grouped by category, with how many postings use each."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from planner.core.library import CATEGORIES
from planner.models import Competency, PostingCompetency, SelectionState


@dataclass(frozen=True, slots=True)
class LibraryEntry:
    competency: Competency
    postings: int

    @property
    def strong_phrases(self) -> list[str]:
        return [p for p in self.competency.phrases or () if not p.startswith("~")]

    @property
    def supporting_phrases(self) -> list[str]:
        return [p[1:].strip() for p in self.competency.phrases or () if p.startswith("~")]


@dataclass(frozen=True, slots=True)
class LibraryPage:
    groups: list[tuple[str, list[LibraryEntry]]]
    retired: list[LibraryEntry]
    total: int
    shown: int


def usage_counts(session: Session) -> dict[int, int]:
    """Competency id -> number of postings that accepted it."""
    return dict(
        session.execute(
            select(PostingCompetency.competency_id, func.count(func.distinct(PostingCompetency.posting_id)))
            .where(PostingCompetency.state == SelectionState.ACCEPTED)
            .group_by(PostingCompetency.competency_id)
        ).all()
    )


def _matches(competency: Competency, words: list[str]) -> bool:
    haystack = " ".join(
        [competency.name, competency.slug, competency.description, " ".join(competency.phrases or ())]
    ).lower()
    return all(word in haystack for word in words)


def list_library(session: Session, *, search: str = "") -> LibraryPage:
    """Active entries grouped by category (library order), retired ones apart; two queries."""
    competencies = session.scalars(select(Competency).order_by(Competency.name)).all()
    counts = usage_counts(session)
    words = search.lower().split()
    entries = [LibraryEntry(c, counts.get(c.id, 0)) for c in competencies if _matches(c, words)]
    groups = [
        (
            category,
            [
                e
                for e in entries
                if e.competency.category.value == category and e.competency.retired_at is None
            ],
        )
        for category in CATEGORIES
    ]
    retired = [e for e in entries if e.competency.retired_at is not None]
    return LibraryPage(
        groups=[(c, items) for c, items in groups if items],
        retired=retired,
        total=len(competencies),
        shown=len(entries),
    )


def get_usage(session: Session, competency_id: int) -> int:
    """How many postings accepted this competency."""
    return (
        session.scalar(
            select(func.count(func.distinct(PostingCompetency.posting_id))).where(
                PostingCompetency.competency_id == competency_id,
                PostingCompetency.state == SelectionState.ACCEPTED,
            )
        )
        or 0
    )
