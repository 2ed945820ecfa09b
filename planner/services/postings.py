"""Postings and the competencies they ask for: extraction results stored with their evidence.

Every public function that changes data validates first, then changes, audits and commits once, so
bad input raises before anything is written.

Checks of the posting's own fields and text are in ``posting_text``; extraction and evidence sentences in
``posting_evidence``.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from planner.core.errors import Conflict, FieldError, NotFound, ValidationFailed
from planner.core.extraction.findings import Finding
from planner.models import (
    Competency,
    Posting,
    PostingCompetency,
    Priority,
    SelectionState,
)
from planner.services import audit
from planner.services.posting_evidence import evidence_for, evidence_rows, find_competencies
from planner.services.posting_text import PostingFields, clean_fields
from planner.services.posting_text import text_from_upload as text_from_upload  # re-exported, as before

DEFAULT_COVERAGE = {Priority.MUST_HAVE: 2, Priority.NICE_TO_HAVE: 1}
#: More rounds than any loop has; a bigger number is a typo, not a plan.
MAX_COVERAGE = 10


def store_suggestions(session: Session, posting: Posting, findings: Sequence[Finding]) -> None:
    """Replace the posting's open suggestions with `findings`, keeping decisions already made.

    A new suggestion takes the finding's suggested priority and that priority's default coverage
    (must-have 2 rounds, nice-to-have 1), and its runner-up. Competencies already on the posting
    keep their state, priority and coverage (accepted, rejected, or a suggestion the coordinator
    re-weighed); only their evidence and runner-up are refreshed so they match the current text.
    A suggestion the coordinator switched to its runner-up stands for the finding it replaced.
    Does not commit.
    """
    slugs = {f.slug for f in findings} | {f.runner_up.slug for f in findings if f.runner_up}
    by_slug = {c.slug: c for c in session.scalars(select(Competency).where(Competency.slug.in_(slugs)))}
    current = {pc.competency_id: pc for pc in posting.competencies}
    found_ids = set()
    for finding in findings:
        competency = by_slug.get(finding.slug)
        if competency is None:
            continue
        runner = by_slug.get(finding.runner_up.slug) if finding.runner_up else None
        selection = current.get(competency.id) or _switched(current, competency, runner)
        if selection is None:
            priority = Priority(finding.priority)
            selection = PostingCompetency(
                competency_id=competency.id,
                priority=priority,
                required_coverage=DEFAULT_COVERAGE[priority],
                state=SelectionState.SUGGESTED,
            )
            posting.competencies.append(selection)
        found_ids.add(selection.competency_id)
        if selection.competency_id == competency.id:
            selection.runner_up_id = runner.id if runner is not None else None
            selection.runner_up_reason = finding.runner_up.reason if runner is not None else ""
        selection.score = finding.score
        selection.evidence = evidence_rows(finding)
    for competency_id, selection in current.items():
        # A suggestion the new text no longer supports disappears; decisions stay.
        if competency_id not in found_ids and selection.state is SelectionState.SUGGESTED:
            posting.competencies.remove(selection)
        elif competency_id not in found_ids:
            selection.evidence = []
    session.flush()


def _switched(
    current: dict[int, PostingCompetency], competency: Competency, runner: Competency | None
) -> PostingCompetency | None:
    """The suggestion the coordinator switched from ``competency`` to its runner-up, if there is one.

    A switch swaps the two (the suggestion holds the runner-up, and remembers the finding as its own
    runner-up), so the same text finds the same pair again.
    """
    if runner is None:
        return None
    selection = current.get(runner.id)
    if selection is not None and selection.runner_up_id == competency.id:
        return selection
    return None


def create_posting(session: Session, fields: PostingFields, *, actor_id: int | None) -> Posting:
    """Create a posting, run extraction on its text and store the suggestions; commit.

    :raise ValidationFailed: no title, empty text or an unknown status.
    """
    values = clean_fields(fields)
    posting = Posting(**values)
    session.add(posting)
    session.flush()
    findings = find_competencies(session, posting.text)
    store_suggestions(session, posting, findings)
    audit.record(
        session,
        actor_id=actor_id,
        action="posting.create",
        entity="posting",
        entity_id=posting.id,
        details={"title": posting.title, "suggestions": len(findings)},
    )
    session.commit()
    return posting


def update_posting(
    session: Session, posting_id: int, fields: PostingFields, *, actor_id: int | None
) -> Posting:
    """Save a posting's fields; when the text changed, re-run extraction (decisions are kept); commit.

    :raise NotFound: no such posting.
    :raise ValidationFailed: no title, empty text or an unknown status.
    """
    values = clean_fields(fields)
    posting = _posting(session, posting_id)
    changed = sorted(k for k, v in values.items() if getattr(posting, k) != v)
    for key, value in values.items():
        setattr(posting, key, value)
    details: dict = {"changed": changed}
    if "text" in changed:
        findings = find_competencies(session, posting.text)
        store_suggestions(session, posting, findings)
        details["suggestions"] = len(findings)
    audit.record(
        session,
        actor_id=actor_id,
        action="posting.update",
        entity="posting",
        entity_id=posting.id,
        details=details,
    )
    session.commit()
    return posting


def refresh_suggestions(session: Session, posting_id: int, *, actor_id: int | None) -> int:
    """Re-run extraction against the current library (decisions are kept); commit.

    :return: how many competencies the text supports now.
    """
    posting = _posting(session, posting_id)
    findings = find_competencies(session, posting.text)
    store_suggestions(session, posting, findings)
    audit.record(
        session,
        actor_id=actor_id,
        action="posting.extract",
        entity="posting",
        entity_id=posting.id,
        details={"suggestions": len(findings)},
    )
    session.commit()
    return len(findings)


def _posting(session: Session, posting_id: int) -> Posting:
    posting = session.scalar(
        select(Posting)
        .where(Posting.id == posting_id)
        .options(selectinload(Posting.competencies).selectinload(PostingCompetency.evidence))
    )
    if posting is None:
        raise NotFound(f"There is no posting #{posting_id}.")
    return posting


def _selection(session: Session, posting_id: int, selection_id: int) -> PostingCompetency:
    selection = session.scalar(
        select(PostingCompetency)
        .where(PostingCompetency.id == selection_id, PostingCompetency.posting_id == posting_id)
        .options(selectinload(PostingCompetency.competency))
    )
    if selection is None:
        raise NotFound("That competency is not on this posting any more; the page may be out of date.")
    return selection


def _check_choice(priority: str, required_coverage: int | None) -> tuple[Priority, int]:
    try:
        level = Priority(priority)
    except ValueError:
        raise FieldError("priority", f"{priority!r} is not a priority; use must-have or nice-to-have.") from None
    coverage = DEFAULT_COVERAGE[level] if required_coverage is None else required_coverage
    if coverage < 1:
        raise FieldError("required_coverage", "Required coverage must be at least 1 round.")
    if coverage > MAX_COVERAGE:
        raise FieldError(
                  "required_coverage",
                  f"Required coverage of {coverage} rounds is more than a loop has; use 1 to {MAX_COVERAGE}.",
              )
    return level, coverage


DECISIONS = {
    "accept": SelectionState.ACCEPTED,
    "reject": SelectionState.REJECTED,
    "restore": SelectionState.SUGGESTED,
    "save": None,
}


def decide_competency(
    session: Session,
    posting_id: int,
    selection_id: int,
    *,
    decision: str,
    priority: str,
    required_coverage: int | None,
    actor_id: int | None,
) -> PostingCompetency:
    """Accept, reject, restore (back to suggested) or just re-weigh one of the posting's competencies; commit.

    :param decision: accept, reject, restore or save (keep the state, save priority and coverage).
    :raise NotFound: the competency is not on this posting.
    :raise ValidationFailed: unknown decision or priority, or coverage outside 1..10.
    """
    if decision not in DECISIONS:
        raise ValidationFailed(f"{decision!r} is not a decision; use accept, reject, restore or save.")
    level, coverage = _check_choice(priority, required_coverage)
    selection = _selection(session, posting_id, selection_id)
    before = selection.state.value
    selection.priority, selection.required_coverage = level, coverage
    if DECISIONS[decision] is not None:
        selection.state = DECISIONS[decision]
    audit.record(
        session,
        actor_id=actor_id,
        action=f"posting.competency.{decision}",
        entity="posting",
        entity_id=posting_id,
        details={
            "competency": selection.competency.slug,
            "from": before,
            "to": selection.state.value,
            "priority": level.value,
            "required_coverage": coverage,
        },
    )
    session.commit()
    return selection


def accept_all_suggestions(session: Session, posting_id: int, *, actor_id: int | None) -> int:
    """Accept every open suggestion with the priority and coverage it has; commit.

    :return: how many were accepted.
    """
    posting = _posting(session, posting_id)
    accepted = [pc for pc in posting.competencies if pc.state is SelectionState.SUGGESTED]
    for selection in accepted:
        selection.state = SelectionState.ACCEPTED
    if accepted:
        audit.record(
            session,
            actor_id=actor_id,
            action="posting.competency.accept_all",
            entity="posting",
            entity_id=posting_id,
            details={"count": len(accepted)},
        )
        session.commit()
    return len(accepted)


def add_competency(
    session: Session,
    posting_id: int,
    competency_id: int,
    *,
    priority: str,
    required_coverage: int | None,
    actor_id: int | None,
) -> PostingCompetency:
    """Add a library competency to the posting as accepted, with any sentences of the text that mention it.

    :raise NotFound: no such posting or competency.
    :raise ValidationFailed: the competency is retired, or priority/coverage are out of range.
    :raise Conflict: the competency is already on the posting.
    """
    level, coverage = _check_choice(priority, required_coverage)
    posting = _posting(session, posting_id)
    competency = session.get(Competency, competency_id)
    if competency is None:
        raise NotFound("That competency is not in the library.")
    if competency.retired_at is not None:
        raise ValidationFailed(f"{competency.name} is retired; restore it in the library before using it.")
    existing = next((pc for pc in posting.competencies if pc.competency_id == competency.id), None)
    if existing is not None:
        where = {
            SelectionState.ACCEPTED: "already accepted",
            SelectionState.SUGGESTED: "already suggested; accept it there",
            SelectionState.REJECTED: "rejected; restore it from the Rejected section",
        }[existing.state]
        raise Conflict(f"{competency.name} is {where}.")
    selection = PostingCompetency(
        competency_id=competency.id,
        priority=level,
        required_coverage=coverage,
        state=SelectionState.ACCEPTED,
        score=None,
    )
    selection.evidence = evidence_for(posting.text, competency)
    posting.competencies.append(selection)
    audit.record(
        session,
        actor_id=actor_id,
        action="posting.competency.add",
        entity="posting",
        entity_id=posting_id,
        details={"competency": competency.slug, "priority": level.value, "required_coverage": coverage},
    )
    session.commit()
    return selection
