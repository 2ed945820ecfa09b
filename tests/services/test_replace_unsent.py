"""Replacing someone whose invite never left the outbox: their pending messages are withdrawn, no CANCEL."""

from __future__ import annotations

from changeutil import last_id, mark_sent, outbox, scheduled_loop
from loopworld import NOW, SETTINGS, World
from sqlalchemy import func, select, update

from planner.models import AuditEntry, OutboxMessage, OutboxState
from planner.services import replacements
from tests.services.test_changes_replace import mentoring_pool


def _mentor_leaves(db):
    world = World(db)
    pool = mentoring_pool(world)
    _loop, rounds = scheduled_loop(db, world)
    mentor = rounds["mentor"]
    leaving = next(s.interviewer for s in mentor.seats)
    joining = pool["eve"] if leaving.name != "Eve" else pool["finn"]
    return mentor, leaving, joining


def _to(db, interview_id, email) -> list[tuple]:
    return db.execute(select(OutboxMessage.kind, OutboxMessage.method, OutboxMessage.state)
                      .where(OutboxMessage.interview_id == interview_id, OutboxMessage.recipient_email == email)
                      .order_by(OutboxMessage.id)).all()


def _replace(db, mentor, leaving, joining):
    replacements.replace_interviewer(db, mentor.id, leaving.id, joining_id=joining.id, reason="declined",
                                     actor_id=None, now=NOW, settings=SETTINGS)


def test_unsent_invite_is_dropped_and_no_cancel_is_queued(db):
    """The invite still pending: it is removed, no CANCEL is written, the newcomer gets the invite; audited."""
    mentor, leaving, joining = _mentor_leaves(db)
    assert _to(db, mentor.id, leaving.email) == [("invite", "REQUEST", OutboxState.PENDING)]
    _replace(db, mentor, leaving, joining)
    assert _to(db, mentor.id, leaving.email) == []
    assert [(kind, method) for kind, method, _ in _to(db, mentor.id, joining.email)] == [("reassign", "REQUEST")]
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "outbox_withdrawn"))
    assert entry.entity_id == mentor.id and entry.interviewer_id == leaving.id and entry.loop_id == mentor.loop_id
    assert entry.details["recipient"] == leaving.email and entry.details["cancel_sent"] is False
    assert len(entry.details["messages"]) == 1


def test_sent_invite_gets_its_cancel_as_before(db):
    """The invite went out: the person taken off gets the CANCEL and nothing is withdrawn."""
    mentor, leaving, joining = _mentor_leaves(db)
    mark_sent(db)
    mark = last_id(db)
    _replace(db, mentor, leaving, joining)
    assert [row[:2] for row in outbox(db, mentor.id, mark)] == [("reassign", "CANCEL"), ("reassign", "REQUEST")]
    assert db.scalar(select(func.count(AuditEntry.id)).where(AuditEntry.action == "outbox_withdrawn")) == 0


def test_a_message_being_sent_counts_as_sent(db):
    """A worker has claimed the invite (state sending): it may be on its way, so it stays and a CANCEL follows."""
    mentor, leaving, joining = _mentor_leaves(db)
    db.execute(update(OutboxMessage).where(OutboxMessage.recipient_email == leaving.email)
               .values(state=OutboxState.SENDING, locked_by="worker-1", locked_at=NOW, attempts=1))
    db.commit()
    _replace(db, mentor, leaving, joining)
    assert _to(db, mentor.id, leaving.email) == [("invite", "REQUEST", OutboxState.SENDING),
                                                 ("reassign", "CANCEL", OutboxState.PENDING)]


def test_pending_update_is_dropped_but_cancel_follows_a_sent_invite(db):
    """Invite sent, a later update still pending: the update is withdrawn (noise), the CANCEL goes out."""
    mentor, leaving, joining = _mentor_leaves(db)
    mark_sent(db)
    first = db.scalar(select(OutboxMessage).where(OutboxMessage.recipient_email == leaving.email))
    db.add(OutboxMessage(message_id="<pending-update@test>", kind="update", method="REQUEST",
                         recipient_email=leaving.email, subject="Updated", ics=first.ics,
                         interview_id=mentor.id, loop_id=mentor.loop_id, sequence=1))
    db.commit()
    _replace(db, mentor, leaving, joining)
    assert _to(db, mentor.id, leaving.email) == [("invite", "REQUEST", OutboxState.SENT),
                                                 ("reassign", "CANCEL", OutboxState.PENDING)]
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "outbox_withdrawn"))
    assert entry.details["cancel_sent"] is True
