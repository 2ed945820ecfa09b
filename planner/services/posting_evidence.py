"""What a posting's text says about competencies: extraction findings against the library, and the
evidence sentences stored with each competency of the posting."""

from __future__ import annotations

from sqlalchemy.orm import Session

from planner.core.extraction import extract
from planner.core.extraction.findings import Finding
from planner.core.library import CompetencyDef
from planner.models import Competency, Evidence
from planner.services.library import active_definitions


def find_competencies(session: Session, text: str) -> list[Finding]:
    """What the posting text asks for, judged against the library as it is in the database."""
    return extract(text, active_definitions(session))


def evidence_rows(finding: Finding) -> list[Evidence]:
    return [
        Evidence(
            position=i,
            sentence=item.text,
            start=item.start,
            end=item.end,
            spans=[[span.start, span.end] for span in item.spans],
        )
        for i, item in enumerate(finding.evidence)
    ]


def evidence_for(text: str, competency: Competency) -> list[Evidence]:
    """Sentences of the text that mention a hand-added competency, however weakly (often none)."""
    definition = CompetencyDef(
        slug=competency.slug,
        name=competency.name,
        category=competency.category.value,
        description=competency.description,
        rubric_strong=competency.rubric_strong,
        rubric_weak=competency.rubric_weak,
        phrases=tuple(competency.phrases or ()),
    )
    if not definition.strong_phrases:
        return []
    findings = extract(text, [definition], min_score=0.0)
    return evidence_rows(findings[0]) if findings else []
