"""The demo has something for every page: a past loop with and without scorecards, trainees ready to move
up, a scheduled loop in the plan's order; loading it again changes nothing."""

from __future__ import annotations

from sqlalchemy import func, select

from planner.db import utcnow
from planner.models import Interview, Loop, LoopStatus, PlanVersion, Scorecard, Seat, SeatRole, User
from planner.queries.evidence import get_posting_evidence
from planner.queries.my_interviews import interviewer_for_user, list_my_interviews
from planner.queries.pool import list_ready
from planner.services.demo import load_demo


def _counts(db) -> tuple[int, int, int]:
    return (db.scalar(select(func.count(Loop.id))), db.scalar(select(func.count(Interview.id))),
            db.scalar(select(func.count(Scorecard.id))))


def test_demo_has_past_interviews_scorecards_and_trainees_ready(db):
    """Last week's loop: interviews over, some scorecards submitted and some missing; trainees ready."""
    now = utcnow()
    load_demo(db, now=now)
    past = db.scalar(select(Loop).where(Loop.status == LoopStatus.COMPLETED))
    assert past is not None and past.interviews and all(i.end < now for i in past.interviews)
    submitted = db.scalar(select(func.count(Scorecard.id)).where(Scorecard.submitted_at.is_not(None)))
    assessor_seats = db.scalar(select(func.count(Seat.id)).join(Interview).where(
        Interview.loop_id == past.id, Seat.role == SeatRole.ASSESSOR))
    assert 0 < submitted < assessor_seats
    assert "Jordan Park" in {item.interviewer_name for item in list_ready(db, now=now)}
    evidence = get_posting_evidence(db, past.posting_id, now)
    riley = next(lp for lp in evidence.loops if lp.loop_id == past.id)
    assert any(c.state == "scored" for row in riley.rows for c in row.cells)
    assert any("scorecard missing from" in g.text for g in riley.gaps)
    assert riley.training  # the trainee's scorecard, kept apart


def test_the_demo_interviewer_has_a_scorecard_to_write_and_one_submitted(db):
    """Jordan Park (interviewer@demo.test) sees past interviews: one to write, one submitted."""
    now = utcnow()
    load_demo(db, now=now)
    jordan = db.scalar(select(User).where(User.email == "interviewer@demo.test"))
    me = interviewer_for_user(db, jordan.id)
    _upcoming, past = list_my_interviews(db, me.id, now)
    assert {iv.scorecard for iv in past} >= {"write", "submitted"}


def test_loading_the_demo_twice_changes_nothing(db):
    """Idempotent: a second load adds no loop, interview or scorecard; the scheduled loop keeps plan order."""
    load_demo(db, now=utcnow())
    before = _counts(db)
    load_demo(db, now=utcnow())
    assert _counts(db) == before
    scheduled = db.scalar(select(Loop).where(Loop.status == LoopStatus.SCHEDULED))
    assert scheduled is not None
    plan = [item["key"] for item in db.get(PlanVersion, scheduled.plan_version_id).snapshot]
    booked = [i.round_key for i in sorted(scheduled.interviews, key=lambda i: i.start)]
    assert booked == [key for key in plan if key in booked]
