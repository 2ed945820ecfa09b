"""Switch a suggested competency to its runner-up: the extractor's next-closest reading of the same evidence."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from planner.core.errors import Conflict, NotFound, ValidationFailed
from planner.models import PostingCompetency, SelectionState
from planner.services import audit

#: Why the competency switched away from is offered back: it was the extractor's own choice.
SWITCHED_REASON = "the extractor's first choice for this evidence"


def switch_to_runner_up(
    session: Session, posting_id: int, selection_id: int, *, actor_id: int | None
) -> PostingCompetency:
    """Replace a suggestion with its runner-up, keeping its evidence, priority and coverage; commit.

    The two swap places: the suggestion now holds the runner-up and offers the competency it held as
    its own runner-up, so a second switch undoes the first, and refreshing the suggestions keeps
    the choice.

    :raise NotFound: the suggestion is not on this posting.
    :raise ValidationFailed: it is no longer a suggestion, has no runner-up, or the runner-up is retired.
    :raise Conflict: the runner-up is already on the posting (suggested, accepted or rejected).
    """
    selection = session.scalar(
        select(PostingCompetency)
        .where(PostingCompetency.id == selection_id, PostingCompetency.posting_id == posting_id)
        .options(
            selectinload(PostingCompetency.competency),
            selectinload(PostingCompetency.runner_up),
            selectinload(PostingCompetency.evidence),
        )
    )
    if selection is None:
        raise NotFound("That competency is not on this posting any more; the page may be out of date.")
    current, runner = selection.competency, selection.runner_up
    if selection.state is not SelectionState.SUGGESTED:
        raise ValidationFailed(
            f"{current.name} is already {selection.state.value}; only a suggestion can be switched."
        )
    if runner is None:
        raise ValidationFailed(f"{current.name} has no runner-up to switch to.")
    if runner.retired_at is not None:
        raise ValidationFailed(f"{runner.name} is retired; restore it in the library before switching to it.")
    taken = session.scalar(
        select(PostingCompetency.state).where(
            PostingCompetency.posting_id == posting_id, PostingCompetency.competency_id == runner.id
        )
    )
    if taken is not None:
        raise Conflict(f"{runner.name} is already on this posting ({taken.value}).")
    selection.competency_id, selection.runner_up_id = runner.id, current.id
    selection.runner_up_reason = SWITCHED_REASON
    audit.record(
        session,
        actor_id=actor_id,
        action="posting.competency.switch",
        entity="posting",
        entity_id=posting_id,
        details={"from": current.slug, "to": runner.slug, "evidence": len(selection.evidence)},
    )
    session.commit()
    session.refresh(selection)
    return selection
