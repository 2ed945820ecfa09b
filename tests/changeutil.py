"""Helpers for the tests of changes to scheduled loops (replace, reschedule, cancel, place)."""

from __future__ import annotations

from loopworld import NOW, SETTINGS
from sqlalchemy import func, select, update

from planner.core.scheduling import load_problem, validate
from planner.models import OutboxMessage, OutboxState, SeatStatus
from planner.services import scheduling
from planner.services.loop_state import load_state


def scheduled_loop(db, world):
    """Propose and confirm the world's default loop; return (loop, {round key: interview})."""
    loop = world.loop()
    db.commit()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    assert proposal.scheduled, proposal.reason
    created = scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=NOW, settings=SETTINGS)
    return loop, {i.round_key: i for i in created}


def loop_errors(db, loop_id) -> list[str]:
    """Every rule the loop's live interviews break, by the scheduler's validator on a problem from the DB."""
    state = load_state(db, loop_id, now=NOW)
    problem = load_problem(scheduling.problem_for(db, [loop_id], now=NOW))
    errors = validate(problem, {"loops": [state.entry()], "stats": {}})
    return [e for e in errors if not e.startswith("stats.")]


def outbox(db, interview_id, after: int = 0) -> list[tuple]:
    rows = db.execute(select(OutboxMessage.kind, OutboxMessage.method, OutboxMessage.recipient_email,
                             OutboxMessage.sequence).where(OutboxMessage.interview_id == interview_id,
                                                           OutboxMessage.id > after)
                      .order_by(OutboxMessage.id))
    return [tuple(r) for r in rows]


def last_id(db) -> int:
    return db.scalar(select(func.max(OutboxMessage.id))) or 0


def active(interview) -> set[tuple[str, str]]:
    return {(s.interviewer.name, s.role.value) for s in interview.seats if s.status == SeatStatus.ACTIVE}


def mark_sent(db) -> None:
    """Every pending message delivered (as the worker would have), committed."""
    db.execute(update(OutboxMessage).where(OutboxMessage.state == OutboxState.PENDING)
               .values(state=OutboxState.SENT, sent_at=NOW))
    db.commit()
