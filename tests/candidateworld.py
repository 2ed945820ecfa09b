"""Helpers for the candidate self-scheduling tests, on top of the loop world (tests/loopworld.py).

The loop world's NOW is Monday 4 March 2030 12:00 UTC; with the settings below a candidate in New York
is offered Tuesday 5 March (after the 24-hour notice) to Monday 11 March, 09:00-17:00 their time, on the
half hour. The United States move to summer time on Sunday 10 March 2030, inside that horizon.
"""

from __future__ import annotations

from datetime import timedelta

from loopworld import NOW, SETTINGS
from sqlalchemy import func, select

from planner.core.scheduling import validate
from planner.models import AuditEntry, CandidateLink, Interview, LoopWindow, OutboxMessage, Seat
from planner.services import candidate_links
from planner.services.candidate_offers import OfferSettings, build_offer_problem, get_offers

OFFERS = OfferSettings(horizon_days=7, cache_seconds=0)
MAIL = SETTINGS


def issue(db, loop, *, days: float = 7, now=NOW):
    """A new link for ``loop``: (link id, secret)."""
    issued = candidate_links.issue_link(db, loop.id, actor_id=None, now=now, lifetime_days=days)
    return issued.link.id, issued.secret


def offers_now(db, loop, *, now=NOW, settings=OFFERS, cache=None):
    """The offers of ``loop`` (no cache unless given), as the candidate page computes them."""
    link = candidate_links.live_link(db, loop.id, now)
    return get_offers(db, loop, link.offer_horizon if link else True, now=now, settings=settings, cache=cache)


def validator_errors(db, loop, offered, *, now=NOW) -> list[str]:
    """The independent validator's complaints about one offered time, fed back as a plan of the loop."""
    built = build_offer_problem(db, loop, offered_windows(db, loop, now), now)
    entry = {"id": f"loop{loop.id}", "status": "scheduled", "interviews": [dict(i) for i in offered.interviews]}
    return [e for e in validate(built.problem, {"loops": [entry], "stats": {}}) if not e.startswith("stats.")]


def offered_windows(db, loop, now):
    from planner.services.candidate_offers import offer_windows

    link = candidate_links.live_link(db, loop.id, now)
    return offer_windows(loop, link.offer_horizon if link else True, now, OFFERS)


def counts(db) -> tuple[int, ...]:
    """Rows of every table a candidate's action may write."""
    models = (Interview, Seat, OutboxMessage, AuditEntry, LoopWindow, CandidateLink)
    return tuple(db.scalar(select(func.count()).select_from(m)) for m in models)


def later(hours: float):
    return NOW + timedelta(hours=hours)


def double_bookings(session) -> list[tuple]:
    """Pairs of active seats of one person in overlapping, non-cancelled interviews."""
    from sqlalchemy.orm import aliased

    from planner.models import InterviewStatus, SeatStatus

    s1, s2 = aliased(Seat), aliased(Seat)
    i1, i2 = aliased(Interview), aliased(Interview)
    return session.execute(
        select(s1.interviewer_id, i1.id, i2.id)
        .join(i1, i1.id == s1.interview_id).join(s2, s2.interviewer_id == s1.interviewer_id)
        .join(i2, i2.id == s2.interview_id)
        .where(s1.id < s2.id, s1.status == SeatStatus.ACTIVE, s2.status == SeatStatus.ACTIVE,
               i1.status != InterviewStatus.CANCELLED, i2.status != InterviewStatus.CANCELLED,
               i1.start < i2.end, i2.start < i1.end)).all()
