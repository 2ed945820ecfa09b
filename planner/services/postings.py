"""Postings and the competencies they ask for: extraction results stored with their evidence."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.core.extraction import extract
from planner.core.extraction.findings import Finding
from planner.models import Competency, Evidence, Posting, PostingCompetency, Priority, SelectionState
from planner.services.library import active_definitions

DEFAULT_COVERAGE = {Priority.MUST_HAVE: 2, Priority.NICE_TO_HAVE: 1}


def find_competencies(session: Session, text: str) -> list[Finding]:
    """What the posting text asks for, judged against the library as it is in the database."""
    return extract(text, active_definitions(session))


def store_suggestions(session: Session, posting: Posting, findings: Sequence[Finding]) -> None:
    """Replace the posting's open suggestions with `findings`, keeping decisions already made.

    Accepted and rejected competencies keep their state; their evidence is refreshed so it matches
    the current text. Does not commit.
    """
    by_slug = {c.slug: c for c in session.scalars(select(Competency).where(
        Competency.slug.in_([f.slug for f in findings])))}
    current = {pc.competency_id: pc for pc in posting.competencies}
    found_ids = set()
    for finding in findings:
        competency = by_slug.get(finding.slug)
        if competency is None:
            continue
        found_ids.add(competency.id)
        selection = current.get(competency.id)
        if selection is None:
            selection = PostingCompetency(competency_id=competency.id, priority=Priority.NICE_TO_HAVE,
                                          required_coverage=DEFAULT_COVERAGE[Priority.NICE_TO_HAVE],
                                          state=SelectionState.SUGGESTED)
            posting.competencies.append(selection)
        selection.score = finding.score
        selection.evidence = [
            Evidence(position=i, sentence=item.text, start=item.start, end=item.end,
                     spans=[[span.start, span.end] for span in item.spans])
            for i, item in enumerate(finding.evidence)
        ]
    for competency_id, selection in current.items():
        # A suggestion the new text no longer supports disappears; decisions stay.
        if competency_id not in found_ids and selection.state is SelectionState.SUGGESTED:
            posting.competencies.remove(selection)
        elif competency_id not in found_ids:
            selection.evidence = []
    session.flush()
