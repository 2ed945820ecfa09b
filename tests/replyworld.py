"""Helpers for the tests of calendar answers: a scheduled loop, answers made from its invites, row counts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from changeutil import scheduled_loop
from loopworld import NOW, SETTINGS, World
from replyutil import reply_calendar, reply_email
from sqlalchemy import func, select

from planner.db import Base
from planner.models import Interview, Interviewer, OutboxMessage, SeatStatus


@dataclass
class AnsweredLoop:
    """A scheduled loop whose mentoring round has one assessor (``mentor``) and a free substitute."""

    world: World
    pool: dict[str, Interviewer]
    loop: object
    rounds: dict[str, Interview]
    interview: Interview
    mentor: Interviewer


def answered_loop(db) -> AnsweredLoop:
    """The loop world's pool plus two more mentors, the default loop scheduled and its invites queued."""
    world = World(db)
    pool = world.basic_pool()
    pool["eve"] = world.person("Eve", "Europe/Berlin", {"mentoring": "qualified"}, team="platform",
                               hours=("09:00", "23:00"), caps=(3, 4))
    pool["finn"] = world.person("Finn", "America/New_York", {"mentoring": "qualified"}, caps=(3, 6))
    loop, rounds = scheduled_loop(db, world)
    interview = rounds["mentor"]
    mentor = next(s.interviewer for s in interview.seats if s.status == SeatStatus.ACTIVE)
    return AnsweredLoop(world, pool, loop, rounds, interview, mentor)


def request_ics(db, interview: Interview, person: Interviewer) -> bytes:
    """The calendar of the last REQUEST queued for ``person`` about ``interview``."""
    return db.scalar(select(OutboxMessage.ics).where(
        OutboxMessage.interview_id == interview.id, OutboxMessage.method == "REQUEST",
        func.lower(OutboxMessage.recipient_email) == person.email.lower()).order_by(OutboxMessage.id.desc()).limit(1))


def mail_answer(db, interview: Interview, person: Interviewer, partstat: str, *, now: datetime = NOW,
                comment: str | None = None, sender: str | None = None, sequence: int | None = None,
                method: str = "REPLY", message_id: str | None = None,
                edit: Callable[[bytes], bytes] | None = None) -> bytes:
    """The email ``person``'s calendar sends to answer their invite to ``interview`` (``edit`` changes its
    calendar bytes, for answers a client would not send)."""
    calendar = reply_calendar(request_ics(db, interview, person), person.email, partstat, now=now, comment=comment,
                              sequence=sequence, method=method)
    if edit is not None:
        calendar = edit(calendar)
    return reply_email(calendar, sender=sender or f"{person.name} <{person.email}>",
                       organizer=SETTINGS.organizer_email, subject=f"{partstat.title()}: interview", method=method,
                       message_id=message_id)


def table_counts(db, *, but: tuple[str, ...] = ()) -> dict[str, int]:
    """Rows per table (those named in ``but`` left out)."""
    return {table.name: db.scalar(select(func.count()).select_from(table))
            for table in Base.metadata.sorted_tables if table.name not in but}


def seat_answers(db) -> list[tuple]:
    """Every seat's answer columns, for "nothing else changed" checks."""
    from planner.models import Seat

    return [tuple(row) for row in db.execute(select(Seat.id, Seat.status, Seat.partstat, Seat.partstat_at,
                                                    Seat.partstat_comment, Seat.partstat_via).order_by(Seat.id))]
