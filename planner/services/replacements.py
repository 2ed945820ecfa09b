"""Replacing an interviewer of a scheduled interview (they declined, fell ill, left).

:func:`replacement_options` ranks the people who can take the seat at the same time (the engine's
substitutes, each re-checked with the validator against the loop as it is), least loaded first, with
a plain-words reason. When nobody fits, it looks for a new time: first the same round alone at
another start with a substitute, then the engine's decline repair, which may move at most
:data:`MAX_MOVED_ROUNDS` rounds of the loop. A trainee seat can also simply be dropped.

:func:`replace_interviewer` applies one choice in one transaction: lock, re-check, mark the old seat
removed, add the new one, queue the CANCEL to the person taken off and the update to the panel
(``announce_replaced``, which also carries a new time; ``announce_changed`` when the time moved or
someone joined and nobody left), audit, commit once.

The search for options is in ``replacement_search``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from planner.core.errors import Conflict, ValidationFailed
from planner.models import Interview, Interviewer, Seat, SeatRole, SeatStatus
from planner.services.audit import record
from planner.services.invites import MailSettings, announce_changed, announce_replaced
from planner.services.loop_state import (
    LoopState,
    clean_reason,
    get_interview,
    load_state,
    moved,
    require_changeable,
)
from planner.services.replacement_search import (
    MAX_MOVED_ROUNDS,
    TRAINEE_LEVELS,
    PlannedChange,
    engine_repair,
    one_round_move,
    role_key,
    same_time_options,
    seat_of,
    swap_person,
    why_they_fit,
)
from planner.services.scheduling_problem import (
    parse_z,
    person_id,
    person_key,
    qualification_levels,
)
from planner.services.transaction import SOMEONE_ELSE, committed_or_conflict


@dataclass
class SeatOption:
    """Someone who can take the seat at the same time, keeping every rule, and why."""

    interviewer_id: int
    name: str
    timezone: str
    why: str
    week_load: int
    day_load: int
    #: The round whose trainee seat they give up to take this one ("" when none).
    gives_up: str = ""



@dataclass
class ReplacementOptions:
    """Everything the replace page shows for one seat."""

    interview: Interview
    leaving: Interviewer
    role: str  # "assessor" or "trainee"
    substitutes: list[SeatOption]
    new_plan: list[PlannedChange] | None = None
    why_none: str = ""

    @property
    def can_drop(self) -> bool:
        """A trainee seat is optional: it can be left empty."""
        return self.role == "trainee"

    @property
    def plan_moves(self) -> list[PlannedChange]:
        """The new plan's interviews whose time changes (empty without a new plan)."""
        return [change for change in self.new_plan or [] if change.moved]

    @property
    def only_drop(self) -> bool:
        """The new plan just leaves the trainee seat empty: nothing moves and nobody joins."""
        return bool(self.new_plan) and self.can_drop and not self.plan_moves and not any(
            change.added for change in self.new_plan)


def replacement_options(session: Session, interview_id: int, leaving_id: int, *, now: datetime,
                        ) -> ReplacementOptions:
    """Who can take ``leaving_id``'s seat in a scheduled interview, best first; a new plan when nobody can.

    :raise NotFound: when the interview does not exist.
    :raise ValidationFailed: when the interview cannot change or the person does not sit in it.
    """
    interview = get_interview(session, interview_id)
    require_changeable(interview, now)
    state = load_state(session, interview.loop_id, now=now)
    interview = state.interviews[interview.id]
    seat = seat_of(interview, leaving_id)
    if seat is None:
        raise ValidationFailed("That person does not sit in this interview any more; reload the loop.")
    leaving = person_key(leaving_id)
    role = role_key(seat)
    options = []
    for key, _overrides, freed in same_time_options(state, interview, leaving):
        person = state.person(person_id(key))
        why, week, day = why_they_fit(state, interview, person, role, interview.start)
        if freed:
            why += f"; gives up their trainee seat in '{freed}'"
        options.append(SeatOption(person_id(key), person.name, person.timezone, why, week, day, freed))
    # Least loaded first; a trainee who must give up their seat elsewhere only after everyone else.
    options.sort(key=lambda o: (bool(o.gives_up), o.week_load, o.day_load, o.name, o.interviewer_id))
    result = ReplacementOptions(interview, seat.interviewer, "assessor" if role == "interviewers" else "trainee",
                                options)
    if not options:
        plan = one_round_move(state, interview, leaving, now) or engine_repair(state, interview, leaving)
        result.new_plan = plan or None
        if not plan:
            result.why_none = ("nobody else can take this seat at this time, and no new time for this round (or "
                               f"at most {MAX_MOVED_ROUNDS} rounds of the loop) keeps every rule")
    return result


def _plan_for(state: LoopState, interview: Interview, leaving_id: int, joining_id: int | None,
              plan: Sequence[Mapping] | None) -> dict[int, dict]:
    """The result items (by interview id) the change asks for, checked for shape."""
    seat = seat_of(interview, leaving_id)
    if seat is None:
        raise Conflict("That person no longer sits in this interview; reload the loop.")
    leaving = person_key(leaving_id)
    if plan is None:
        if joining_id is None and seat.role == SeatRole.ASSESSOR:
            raise ValidationFailed("Pick who takes the seat; an assessor seat cannot stay empty.")
        if joining_id is None:
            return {interview.id: swap_person(state.item(interview), role_key(seat), leaving, None)}
        for key, overrides, _freed in same_time_options(state, interview, leaving):
            if key == person_key(joining_id):
                return overrides
        # Not a valid option (any more): the plain swap, which the re-check then names the broken rule of.
        return {interview.id: swap_person(state.item(interview), role_key(seat), leaving, person_key(joining_id))}
    overrides = {}
    for change in plan:
        other = state.interviews.get(int(change.get("interview", 0)))
        if other is None:
            raise Conflict("The new plan names an interview that is no longer scheduled; find a new time again.")
        minutes = state.round(other)["minutes"]
        item = moved(state.item(other), parse_z(change["start"]), minutes)
        item["interviewers"] = sorted(person_key(int(p)) for p in change.get("interviewers", []))
        item["trainees"] = sorted(person_key(int(p)) for p in change.get("trainees", []))
        overrides[other.id] = item
    mine = overrides.get(interview.id)
    if mine is None or leaving in mine["interviewers"] + mine["trainees"]:
        raise ValidationFailed("The new plan does not take that person off the interview; find a new time again.")
    if len(overrides) > MAX_MOVED_ROUNDS:
        raise ValidationFailed(f"A new plan changes at most {MAX_MOVED_ROUNDS} rounds.")
    return overrides


def _apply(session: Session, state: LoopState, overrides: Mapping[int, dict], now: datetime,
           settings: MailSettings, actor_id: int | None = None) -> list[dict]:
    """Write seats and times of the changed interviews, then queue their messages; returns what changed."""
    levels = qualification_levels(session, [person_id(p) for item in overrides.values()
                                            for p in item["trainees"]])
    changes = []
    for interview_id, item in overrides.items():
        interview = state.interviews[interview_id]
        wanted = {person_id(p): SeatRole.ASSESSOR for p in item["interviewers"]}
        wanted.update({person_id(p): SeatRole.TRAINEE for p in item["trainees"]})
        removed = []
        for seat in interview.seats:
            if seat.status == SeatStatus.ACTIVE and seat.interviewer_id not in wanted:
                seat.status = SeatStatus.REMOVED
                removed.append(seat.interviewer_id)
        added = []
        slugs = [c["slug"] for c in state.round(interview)["competencies"]]
        for pid, role in wanted.items():
            level = next((levels[(pid, s)] for s in slugs if levels.get((pid, s)) in TRAINEE_LEVELS), None) \
                if role == SeatRole.TRAINEE else None
            seat = next((s for s in interview.seats if s.interviewer_id == pid), None)
            if seat is None:
                interview.seats.append(Seat(interviewer_id=pid, role=role, training_level=level))
                added.append(pid)
            elif seat.status == SeatStatus.REMOVED or seat.role != role:
                # Back on the panel (the seat row is unique per person and interview): reactivate it.
                if seat.status == SeatStatus.REMOVED:
                    added.append(pid)
                seat.status, seat.role, seat.training_level = SeatStatus.ACTIVE, role, level
        start, end = parse_z(item["start"]), parse_z(item["end"])
        previous_time = (interview.start, interview.end)
        time_moved = (start, end) != previous_time
        interview.start, interview.end = start, end
        session.flush()
        if removed:
            # One announcement for the whole change: the people taken off are told the time they had,
            # everyone else gets one message with the new panel (and new time).
            announce_replaced(session, interview.id, removed, settings=settings, now=now,
                              previous_time=previous_time, actor_id=actor_id)
        elif time_moved or added:
            announce_changed(session, interview.id, settings=settings, now=now)
        changes.append({"interview": interview.id, "removed": removed, "added": added, "moved": time_moved,
                        "start": item["start"]})
    return changes


def replace_interviewer(session: Session, interview_id: int, leaving_id: int, *, joining_id: int | None = None,
                        plan: Sequence[Mapping] | None = None, reason: str, actor_id: int | None,
                        now: datetime, settings: MailSettings) -> Interview:
    """Take ``leaving_id`` off a scheduled interview and seat ``joining_id`` (or apply a new ``plan``); commit.

    Without ``joining_id`` and ``plan``, a trainee seat is simply dropped. ``plan`` is the list of
    :meth:`PlannedChange.as_dict` items of :func:`replacement_options`' new plan.

    :raise ValidationFailed: no reason, the interview cannot change, an assessor seat left empty.
    :raise Conflict: the change no longer keeps every rule (someone booked the person meanwhile):
        nothing is written.
    """
    text = clean_reason(reason, "interviewer is replaced")
    interview = get_interview(session, interview_id)
    require_changeable(interview, now)
    people = {leaving_id} | ({joining_id} if joining_id is not None else set())
    people |= {int(p) for change in plan or () for p in [*change.get("interviewers", []),
                                                        *change.get("trainees", [])]}
    with committed_or_conflict(session, SOMEONE_ELSE + "pick again from the fresh list."):
        state = load_state(session, interview.loop_id, now=now, lock=True, people=people)
        interview = state.interviews.get(interview_id)
        if interview is None:
            raise Conflict("The interview was cancelled meanwhile; reload the loop.")
        overrides = _plan_for(state, interview, leaving_id, joining_id, plan)
        errors = state.new_errors(overrides)
        if errors:
            raise Conflict(f"This change no longer fits: {errors[0]}. Pick again from the fresh list.")
        changes = _apply(session, state, overrides, now, settings, actor_id)
        record(session, actor_id=actor_id, action="interviewer_replaced", entity="interview",
               entity_id=interview_id, reason=text,
               details={"loop_id": state.loop.id, "round_name": interview.round_name, "leaving": leaving_id,
                        "joining": joining_id, "changes": changes},
               interviewer_id=leaving_id)
    return interview
