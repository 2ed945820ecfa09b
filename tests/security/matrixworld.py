"""The demo, plus the few rows it lacks, with a real id for every URL argument of the app.

The interviewer role is Jordan Park (interviewer@demo.test). ``ids`` holds, per URL argument name,
an id that exists; for the pages an interviewer may open only for their own interviews, the
interview id in ``ids`` is somebody else's, and ``own_interview_id`` is one of Jordan's.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import func, literal, select, union_all

from planner.db import Base, utcnow
from planner.models import (
    BusyBlock,
    CounterState,
    InboundMessage,
    InboundOutcome,
    Interview,
    Interviewer,
    Loop,
    LoopStatus,
    OutboxMessage,
    Posting,
    PostingCompetency,
    Qualification,
    Round,
    Seat,
    SeatRole,
    User,
)
from planner.services.demo import load_demo

PASSWORD = "planner-demo"
ROLE_EMAILS = {
    "coordinator": "coordinator@demo.test",
    "manager": "manager@demo.test",
    "interviewer": "interviewer@demo.test",
}


@dataclass
class MatrixWorld:
    ids: dict[str, object]
    own_interview_id: int
    own_feed_token: str
    others_feed_token: str
    emails: dict[str, str] = field(default_factory=lambda: dict(ROLE_EMAILS))


def build_world(db) -> MatrixWorld:
    """Load the demo into ``db`` and pick an existing row for each URL argument."""
    load_demo(db, now=utcnow())
    jordan = db.scalar(select(Interviewer).join(User, User.id == Interviewer.user_id)
                       .where(User.email == ROLE_EMAILS["interviewer"]))
    other = db.scalar(select(Interviewer).where(Interviewer.id != jordan.id, Interviewer.active)
                      .order_by(Interviewer.id))
    posting = db.scalar(select(Posting).order_by(Posting.id))
    # Upcoming rows: the demo's past loop is over, and its pages answer "that is over" with a redirect.
    loop = db.scalar(select(Loop).where(Loop.posting_id == posting.id, Loop.status != LoopStatus.COMPLETED)
                     .order_by(Loop.id))
    interviews = list(db.scalars(select(Interview).where(Interview.start > utcnow()).order_by(Interview.id)))
    if not interviews:
        raise AssertionError("the demo scheduled no loop, so there is no interview to ask for")
    theirs = next((i for i in interviews if all(s.interviewer_id != jordan.id for s in i.seats)), None)
    if theirs is None:
        theirs = _interview(db, interviews[0].loop_id, other)
    mine = next((i for i in interviews if any(s.interviewer_id == jordan.id for s in i.seats)), None)
    if mine is None:
        mine = _interview(db, theirs.loop_id, jordan)
    qualification = db.scalar(select(Qualification).where(Qualification.interviewer_id == other.id)
                              .order_by(Qualification.id))
    block = BusyBlock(interviewer_id=other.id, start=utcnow() + timedelta(days=30),
                      end=utcnow() + timedelta(days=30, hours=1), summary="Dentist")
    db.add(block)
    later = timedelta(days=1)
    counter = InboundMessage(source="upload", sender=other.email, method="COUNTER", calendar_uid=theirs.uid,
                             attendee=other.email, outcome=InboundOutcome.COUNTER, counter_state=CounterState.OPEN,
                             proposed_start=theirs.start + later, proposed_end=theirs.end + later,
                             interview_id=theirs.id, loop_id=theirs.loop_id, interviewer_id=other.id)
    db.add(counter)
    db.commit()
    return MatrixWorld(
        ids={
            "posting_id": posting.id,
            "round_id": db.scalar(select(Round.id).where(Round.posting_id == posting.id).order_by(Round.id)),
            "selection_id": db.scalar(select(PostingCompetency.id).where(PostingCompetency.posting_id == posting.id)
                                      .order_by(PostingCompetency.id)),
            "loop_id": loop.id,
            "interview_id": theirs.id,
            "leaving_id": next(s.interviewer_id for s in theirs.seats),
            "interviewer_id": other.id,
            "competency_id": qualification.competency_id,
            "block_id": block.id,
            "inbound_id": counter.id,
            "message_id": db.scalar(select(OutboxMessage.id).order_by(OutboxMessage.id)),
            "feed_token": other.feed_token,
            "filename": "app.css",
        },
        own_interview_id=mine.id,
        own_feed_token=jordan.feed_token,
        others_feed_token=other.feed_token,
    )


def _interview(db, loop_id: int, person: Interviewer) -> Interview:
    start = utcnow() + timedelta(days=20)
    interview = Interview(loop_id=loop_id, round_key="extra", round_name="Extra round", start=start,
                          end=start + timedelta(hours=1), uid=f"matrix-{secrets.token_hex(8)}@demo.test")
    interview.seats.append(Seat(interviewer_id=person.id, role=SeatRole.ASSESSOR))
    db.add(interview)
    db.flush()
    return interview


def row_counts(session) -> dict[str, int]:
    """Rows in every table, in one statement (audit entries included, so an update shows too)."""
    query = union_all(*(select(literal(t.name), func.count()).select_from(t) for t in Base.metadata.sorted_tables))
    return {name: count for name, count in session.execute(query)}
