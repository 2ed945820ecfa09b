"""Scorecards: an interviewer rates each competency their round assessed (1-4), writes notes, submits.

Rules (DESIGN section 2): only people seated on the interview (active seat) write one; not before the
interview starts and never for a cancelled one; a submitted scorecard is final. Bad input raises one
domain error and changes nothing; a good save commits once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.core.errors import Conflict, ValidationFailed
from planner.models import Competency, Rating, Scorecard
from planner.queries.my_interviews import active_seat, round_slugs, writable_reason
from planner.services.audit import record

#: What each score means; shown next to every rating.
RATING_LABELS = {1: "Strong no", 2: "No", 3: "Yes", 4: "Strong yes"}
MAX_NOTES = 20_000


@dataclass(frozen=True)
class ScorecardInput:
    """What the interviewer typed: competency slug -> score ("" or None: not rated yet), and notes."""

    ratings: Mapping[str, int | str | None] = field(default_factory=dict)
    notes: str = ""


def _scores(data: ScorecardInput, allowed: dict[str, Competency]) -> dict[str, int]:
    scores: dict[str, int] = {}
    for slug, raw in data.ratings.items():
        if slug not in allowed:
            raise ValidationFailed(f"'{slug}' is not a competency this round assesses; nothing was saved.")
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            continue
        try:
            score = int(str(raw).strip())
        except ValueError:
            score = 0
        if isinstance(raw, bool) or score not in RATING_LABELS:
            raise ValidationFailed(
                f"Ratings go from 1 (strong no) to 4 (strong yes); {allowed[slug].name} got '{raw}'. "
                "Nothing was saved.")
        scores[slug] = score
    return scores


def save_scorecard(session: Session, interviewer_id: int, interview_id: int, data: ScorecardInput, *,
                   submit: bool, now: datetime, actor_id: int | None = None) -> Scorecard:
    """Save the interviewer's draft scorecard (or submit it, which makes it final) and commit.

    :param submit: True to submit: every competency must be rated and the notes filled in.
    :raise NotFound: the interviewer holds no active seat on the interview.
    :raise ValidationFailed: too early, cancelled, unknown competency, score outside 1-4, incomplete submit.
    :raise Conflict: the scorecard was already submitted.
    """
    interview, _seat = active_seat(session, interviewer_id, interview_id)
    reason = writable_reason(interview, now)
    if reason:
        raise ValidationFailed(reason)
    slugs = round_slugs(interview)
    found = {c.slug: c for c in session.scalars(select(Competency).where(Competency.slug.in_(slugs)))}
    allowed = {slug: found[slug] for slug in slugs if slug in found}
    scores = _scores(data, allowed)
    notes = (data.notes or "").strip()
    if len(notes) > MAX_NOTES:
        raise ValidationFailed(f"Notes are limited to {MAX_NOTES:,} characters; nothing was saved.")
    if submit:
        unrated = [c.name for slug, c in allowed.items() if slug not in scores]
        if unrated:
            raise ValidationFailed(f"Rate every competency before submitting: {', '.join(unrated)} not rated yet.")
        if not notes:
            raise ValidationFailed("Add notes with the evidence behind your ratings before submitting.")
    # Lock the row (PostgreSQL) so two tabs cannot both edit around a submit.
    card = session.scalar(
        select(Scorecard).where(Scorecard.interview_id == interview_id, Scorecard.interviewer_id == interviewer_id)
        .with_for_update()
    )
    if card is not None and card.submitted_at is not None:
        raise Conflict("This scorecard was already submitted and can no longer be changed.")
    if card is None:
        card = Scorecard(interview_id=interview_id, interviewer_id=interviewer_id)
        session.add(card)
    card.notes = notes
    wanted = {allowed[slug].id: score for slug, score in scores.items()}
    for rating in list(card.ratings):
        if rating.competency_id not in wanted:
            card.ratings.remove(rating)
        else:
            rating.score = wanted.pop(rating.competency_id)
    card.ratings.extend(Rating(competency_id=cid, score=score) for cid, score in wanted.items())
    if submit:
        card.submitted_at = now
    session.flush()
    if submit:
        record(session, actor_id=actor_id, action="scorecard_submitted", entity="scorecard", entity_id=card.id,
               details={"interview_id": interview_id, "round_name": interview.round_name, "ratings": scores},
               loop_id=interview.loop_id, interviewer_id=interviewer_id)
    else:
        # A draft is private to its author: the entry says that it was saved, not what it says.
        record(session, actor_id=actor_id, action="scorecard_saved", entity="scorecard", entity_id=card.id,
               details={"interview_id": interview_id, "round_name": interview.round_name, "rated": len(scores)},
               loop_id=interview.loop_id, interviewer_id=interviewer_id)
    session.commit()
    return card
