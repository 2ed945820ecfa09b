"""Answers given in the app, declines replaced through the replacement service, proposed new times."""

from __future__ import annotations

from datetime import timedelta

import pytest
from changeutil import last_id, outbox
from loopworld import NOW, SETTINGS
from replyworld import answered_loop, mail_answer, seat_answers, table_counts
from sqlalchemy import select

from planner.core.errors import NotFound, ValidationFailed
from planner.models import AuditEntry, CounterState, InboundOutcome, PartStat, Seat
from planner.queries.replies import list_declines, list_proposals, my_answers
from planner.services import changes, replacements
from planner.services.answers import answer_invite, dismiss_counter, move_to_counter
from planner.services.replies import process_message

LATER = NOW + timedelta(hours=1)


def _seat(db, interview, person) -> Seat:
    return db.scalar(select(Seat).where(Seat.interview_id == interview.id, Seat.interviewer_id == person.id))


def test_an_interviewer_accepts_and_declines_on_their_page(db):
    """Accept (no reason needed), then decline with a reason: the seat and the audit hold both; the loop is flagged."""
    a = answered_loop(db)
    answer_invite(db, a.mentor.id, a.interview.id, "accepted", "", actor_id=None, now=NOW)
    assert my_answers(db, a.mentor.id)[a.interview.id].partstat == "accepted"
    seat = answer_invite(db, a.mentor.id, a.interview.id, "declined", "  Parental leave\nfrom Monday ", actor_id=None,
                         now=LATER)
    assert (seat.partstat, seat.partstat_at, seat.partstat_comment, seat.partstat_via) == (
        PartStat.DECLINED, LATER, "Parental leave from Monday", "app")
    entries = db.scalars(select(AuditEntry).where(AuditEntry.action == "invite_answered")
                         .order_by(AuditEntry.id)).all()
    assert [(e.loop_id, e.interviewer_id, e.details["partstat"]) for e in entries] == [
        (a.loop.id, a.mentor.id, "accepted"), (a.loop.id, a.mentor.id, "declined")]
    assert [d.name for d in list_declines(db, now=LATER)] == [a.mentor.name]


@pytest.mark.parametrize(("answer", "reason", "words"), [
    ("declined", "   ", "Say why you decline"),
    ("declined", "x" * 2001, "under 2000 characters"),
    ("maybe", "", "Choose accept or decline"),
])
def test_bad_answers_change_nothing(db, answer, reason, words):
    """A decline without a reason, a too-long reason or an unknown answer: one message, no change."""
    a = answered_loop(db)
    before, seats = table_counts(db), seat_answers(db)
    with pytest.raises(ValidationFailed, match=words):
        answer_invite(db, a.mentor.id, a.interview.id, answer, reason, actor_id=None, now=NOW)
    assert table_counts(db) == before and seat_answers(db) == seats


def test_only_ones_own_upcoming_interviews_can_be_answered(db):
    """Someone else's interview is not found; a started interview cannot be answered any more."""
    a = answered_loop(db)
    with pytest.raises(NotFound):
        answer_invite(db, a.pool["eve"].id, a.interview.id, "accepted", "", actor_id=None, now=NOW)
    with pytest.raises(ValidationFailed, match="already started"):
        answer_invite(db, a.mentor.id, a.interview.id, "declined", "late", actor_id=None,
                      now=a.interview.start + timedelta(minutes=1))


@pytest.mark.parametrize("how", ["mail", "app"])
def test_a_decline_is_replaced_and_the_flag_goes(db, how):
    """Declined by mail or in the app: the first ranked substitute takes the seat, one CANCEL to the person who
    declined and one REQUEST to the new one are queued, the flag is gone, and the decliner is not offered back."""
    a = answered_loop(db)
    if how == "mail":
        process_message(db, mail_answer(db, a.interview, a.mentor, "DECLINED", comment="Travelling"), source="imap",
                        now=LATER)
    else:
        answer_invite(db, a.mentor.id, a.interview.id, "declined", "Travelling", actor_id=None, now=LATER)
    [flag] = list_declines(db, now=LATER, loop_id=a.loop.id)
    options = replacements.replacement_options(db, flag.interview_id, flag.interviewer_id, now=LATER)
    assert options.substitutes and a.mentor.id not in [o.interviewer_id for o in options.substitutes]
    joining = options.substitutes[0]
    after = last_id(db)
    replacements.replace_interviewer(db, flag.interview_id, flag.interviewer_id, joining_id=joining.interviewer_id,
                                     reason=f"declined: {flag.comment}", actor_id=None, now=LATER, settings=SETTINGS)
    sent = outbox(db, a.interview.id, after)
    assert [m[1:3] for m in sent if m[1] == "CANCEL"] == [("CANCEL", a.mentor.email)]
    joined = db.get(type(a.mentor), joining.interviewer_id)
    assert [m[1:3] for m in sent if m[2] == joined.email] == [("REQUEST", joined.email)]
    assert list_declines(db, now=LATER) == []
    # Taken off the loop: never offered back, for this round or another one.
    for interview in a.rounds.values():
        for seat in interview.seats:
            if seat.status.value == "active":
                offered = replacements.replacement_options(db, interview.id, seat.interviewer_id, now=LATER)
                assert a.mentor.id not in [o.interviewer_id for o in offered.substitutes]


def _counter(db, a, start):
    raw = mail_answer(db, a.interview, a.mentor, "TENTATIVE", method="COUNTER", comment="Later?",
                      edit=lambda ics: _move(ics, a.interview, start))
    row = process_message(db, raw, source="imap", now=LATER)
    assert row.outcome == InboundOutcome.COUNTER, row.reason
    return row


def _move(ics: bytes, interview, start) -> bytes:
    end, stamp = start + (interview.end - interview.start), "%Y%m%dT%H%M%SZ"
    return ics.replace(f"DTSTART:{interview.start:{stamp}}".encode(), f"DTSTART:{start:{stamp}}".encode()) \
        .replace(f"DTEND:{interview.end:{stamp}}".encode(), f"DTEND:{end:{stamp}}".encode())


def test_moving_the_round_to_a_proposed_time(db):
    """A proposed start the panel can make: the round moves there, the panel gets the update, the proposal closes."""
    a = answered_loop(db)
    start = changes.reschedule_options(db, a.interview.id, now=LATER)[0]
    row = _counter(db, a, start)
    assert [p.inbound_id for p in list_proposals(db, now=LATER, loop_id=a.loop.id)] == [row.id]
    after = last_id(db)
    move_to_counter(db, row.id, actor_id=None, now=LATER, settings=SETTINGS)
    db.refresh(a.interview)
    assert a.interview.start == start and row.counter_state == CounterState.MOVED and row.resolved_at == LATER
    assert {m[1] for m in outbox(db, a.interview.id, after)} == {"REQUEST"}
    actions = set(db.scalars(select(AuditEntry.action)))
    assert {"counter_accepted", "interview_rescheduled"} <= actions
    assert list_proposals(db, now=LATER) == []
    with pytest.raises(ValidationFailed, match="already moved"):
        dismiss_counter(db, row.id, actor_id=None, now=LATER)


def test_a_proposed_time_that_breaks_a_rule_moves_nothing(db):
    """A proposal outside the candidate's windows is re-checked and refused; the proposal stays open."""
    a = answered_loop(db)
    row = _counter(db, a, a.interview.start + timedelta(days=3))
    before = table_counts(db)
    with pytest.raises(ValidationFailed, match="cannot move there"):
        move_to_counter(db, row.id, actor_id=None, now=LATER, settings=SETTINGS)
    assert table_counts(db) == before
    db.refresh(row)
    assert row.counter_state == CounterState.OPEN


def test_dismissing_a_proposed_time(db):
    """Dismissed: closed and audited, the interview unchanged."""
    a = answered_loop(db)
    start = a.interview.start
    row = _counter(db, a, start + timedelta(minutes=15))
    dismiss_counter(db, row.id, actor_id=None, now=LATER)
    assert row.counter_state == CounterState.DISMISSED and a.interview.start == start
    assert db.scalar(select(AuditEntry.interviewer_id).where(AuditEntry.action == "counter_dismissed")) == a.mentor.id
    with pytest.raises(NotFound):
        dismiss_counter(db, 10_000, actor_id=None, now=LATER)
