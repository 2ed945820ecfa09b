"""Builders for the coverage, plan and manager tests: competencies, postings, rounds, interviewers."""

from __future__ import annotations

import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.models import (
    Competency,
    CompetencyCategory,
    Focus,
    Interviewer,
    Posting,
    PostingCompetency,
    Priority,
    Qualification,
    Round,
    RoundCompetency,
    RoundKind,
    SelectionState,
    TrainingLevel,
)


def competency(db: Session, slug: str, category: str = "technical") -> Competency:
    row = Competency(slug=slug, name=slug.replace("-", " ").capitalize(),
                     category=CompetencyCategory(category))
    db.add(row)
    db.flush()
    return row


def posting(db: Session, needs: dict[str, tuple[str, int]], title: str = "Test posting",
            categories: dict[str, str] | None = None) -> tuple[Posting, dict[str, Competency]]:
    """A posting accepting each slug with (priority, required); competencies created as needed."""
    categories = categories or {}
    row = Posting(title=title, team="core")
    db.add(row)
    db.flush()
    found = {}
    for slug, (priority, required) in needs.items():
        entry = db.scalar(select(Competency).where(Competency.slug == slug)) or competency(
            db, slug, categories.get(slug, "technical"))
        found[slug] = entry
        row.competencies.append(PostingCompetency(competency_id=entry.id, priority=Priority(priority),
                                                  required_coverage=required, state=SelectionState.ACCEPTED))
    db.flush()
    return row, found


def add_round(db: Session, posting_row: Posting, comps: dict[str, Competency], name: str,
              focus: dict[str, str], minutes: int = 60, position: int | None = None, **extra) -> Round:
    row = Round(posting_id=posting_row.id, key=secrets.token_hex(4), name=name, kind=RoundKind.TECHNICAL,
                minutes=minutes, position=position if position is not None else 0, **extra)
    for slug, level in focus.items():
        row.competencies.append(RoundCompetency(competency_id=comps[slug].id, focus=Focus(level)))
    db.add(row)
    db.flush()
    return row


def interviewer(db: Session, email: str, skills: dict[Competency, str], active: bool = True) -> Interviewer:
    row = Interviewer(name=email.split("@")[0], email=email, feed_token=secrets.token_hex(8), active=active)
    row.qualifications = [Qualification(competency_id=c.id, level=TrainingLevel(level))
                          for c, level in skills.items()]
    db.add(row)
    db.flush()
    return row


def unstaffable_round(db: Session) -> tuple[Posting, dict[str, Competency]]:
    """A posting whose one round, 'Deep dive' (one interviewer), assesses must-haves t-a and t-b, while one
    interviewer holds t-a and another t-b: each is covered, but nobody can staff the round."""
    row, comps = posting(db, {"t-a": ("must-have", 1), "t-b": ("must-have", 1)})
    add_round(db, row, comps, "Deep dive", {"t-a": "primary", "t-b": "primary"})
    interviewer(db, "a@example.com", {comps["t-a"]: "qualified"})
    interviewer(db, "b@example.com", {comps["t-b"]: "qualified"})
    return row, comps
