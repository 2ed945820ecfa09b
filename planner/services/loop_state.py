"""A scheduled loop as it stands in the database, seen as a scheduling result, and how to check a change.

A change to a scheduled loop (a substitute, a new time) is judged against the loop as it is: the loop's
live interviews form one DESIGN 5.2 result entry, validated by the scheduler's own validator on a
problem built from the database (every other loop's seats are ``existing`` there). Rules the loop
already breaks before the change -- a round cancelled on purpose, an interview already in the past,
caps lowered since -- are the *baseline*; a change is accepted when it adds no broken rule to it.

Nothing here commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cached_property

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from planner.core.errors import NotFound, ValidationFailed
from planner.models import Interview, InterviewStatus, Loop, LoopStatus, Seat, SeatRole, SeatStatus
from planner.services.scheduling_problem import (
    BuiltProblem,
    build_problem,
    get_loops,
    iso_z,
    lock_loops_and_people,
    loop_key,
    person_key,
)

MAX_REASON = 2000


@dataclass
class LoopState:
    """A scheduled loop's live interviews, the problem around them and the rules already broken."""

    loop: Loop
    built: BuiltProblem
    interviews: dict[int, Interview]
    baseline: set[str]

    def item(self, interview: Interview) -> dict:
        """One interview as a result item (round key, UTC times, ``p<id>`` people)."""
        active = [s for s in interview.seats if s.status == SeatStatus.ACTIVE]
        return {"round": interview.round_key, "start": iso_z(interview.start), "end": iso_z(interview.end),
                "interviewers": sorted(person_key(s.interviewer_id) for s in active if s.role == SeatRole.ASSESSOR),
                "trainees": sorted(person_key(s.interviewer_id) for s in active if s.role == SeatRole.TRAINEE)}

    def entry(self, overrides: Mapping[int, dict] | None = None) -> dict:
        """The loop's result entry, with some interviews (by id) replaced by other items."""
        overrides = overrides or {}
        items = [dict(overrides.get(i.id) or self.item(i)) for i in self.interviews.values()]
        return {"id": loop_key(self.loop.id), "status": "scheduled", "interviews": items}

    def new_errors(self, overrides: Mapping[int, dict]) -> list[str]:
        """The rules the changed loop breaks that it did not break before, in plain words."""
        return [e for e in self.built.check([self.entry(overrides)]) if e not in self.baseline]

    def round(self, interview: Interview) -> dict:
        """The plan round of an interview (minutes, competencies, seat rules)."""
        return self.built.rounds[self.loop.id].rounds[interview.round_key]

    @cached_property
    def taken_off(self) -> frozenset[str]:
        """People taken off this loop before (declined, replaced) and not sitting in it now: no change offered
        for the loop puts them back, whether at the same time, in a moved round or in a re-plan."""
        removed, active = set(), set()
        for interview in self.interviews.values():
            for seat in interview.seats:
                (active if seat.status == SeatStatus.ACTIVE else removed).add(person_key(seat.interviewer_id))
        return frozenset(removed - active)

    def person(self, interviewer_id: int):
        """The problem's view of an interviewer (calendar, caps, skills), or None when inactive."""
        key = person_key(interviewer_id)
        return next((p for p in self.built.problem.interviewers if p.id == key), None)


def clean_reason(reason: str | None, what: str) -> str:
    """The reason, trimmed; ValidationFailed when it is missing or too long."""
    text = " ".join((reason or "").split())
    if not text:
        raise ValidationFailed(f"Say why the {what}; the reason is kept in the audit trail.")
    if len(text) > MAX_REASON:
        raise ValidationFailed(f"Keep the reason under {MAX_REASON} characters.")
    return text


def get_interview(session: Session, interview_id: int) -> Interview:
    """An interview by id; NotFound when there is none."""
    interview = session.get(Interview, interview_id)
    if interview is None:
        raise NotFound(f"There is no interview #{interview_id}.")
    return interview


def require_changeable(interview: Interview, now: datetime) -> None:
    """ValidationFailed unless the interview is scheduled, in a scheduled loop, and not started yet."""
    if interview.loop.status != LoopStatus.SCHEDULED:
        raise ValidationFailed(f"The loop is {interview.loop.status.value}; only interviews of scheduled loops "
                               "change here.")
    if interview.status != InterviewStatus.SCHEDULED:
        raise ValidationFailed(f"The interview '{interview.round_name}' is {interview.status.value}; it cannot "
                               "change any more.")
    if interview.start <= now:
        raise ValidationFailed(f"The interview '{interview.round_name}' has already started.")


def load_state(session: Session, loop_id: int, *, now: datetime, lock: bool = False,
               people: Iterable[int] = ()) -> LoopState:
    """The loop's live interviews and the problem around them.

    With ``lock``, first the loop row and then the given interviewers' rows are locked in id order
    (``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite the first write takes the single write lock),
    as :func:`planner.services.scheduling.confirm` does, so a concurrent change to the same people
    waits and then sees this one.
    """
    if lock:
        loops = lock_loops_and_people(session, [loop_id], people, now)
    else:
        loops = get_loops(session, [loop_id])
    loop = loops[0]
    rows = session.scalars(
        select(Interview).where(Interview.loop_id == loop_id, Interview.status != InterviewStatus.CANCELLED)
        .order_by(Interview.start, Interview.id)
        .options(selectinload(Interview.seats).selectinload(Seat.interviewer))
        .execution_options(populate_existing=True))
    interviews = {i.id: i for i in rows}
    built = build_problem(session, loops, now=now)
    state = LoopState(loop, built, interviews, set())
    state.baseline = set(built.check([state.entry()]))
    return state


def grid_starts(state: LoopState, interview: Interview, now: datetime) -> list[datetime]:
    """Every slot-grid start (UTC) inside the candidate's windows, after now, where the round fits whole."""
    minutes = state.round(interview)["minutes"]
    step = state.built.problem.slot_minutes
    earliest = int(now.timestamp() // 60) + 1
    starts = []
    for window in state.built.problem.loop(loop_key(state.loop.id)).windows:
        first = -(-max(window.start, earliest) // step) * step
        for minute in range(first, window.end - minutes + 1, step):
            starts.append(datetime.fromtimestamp(minute * 60, UTC))
    return starts


def moved(item: Mapping, start: datetime, minutes: int) -> dict:
    """A result item moved to ``start`` (same length, same people)."""
    return dict(item, start=iso_z(start), end=iso_z(start + timedelta(minutes=minutes)))
