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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from planner.core.errors import Conflict, ValidationFailed
from planner.core.scheduling import MAX_MOVED, RepairError, repair
from planner.core.scheduling import substitutes as engine_substitutes
from planner.models import Interview, Interviewer, Seat, SeatRole, SeatStatus
from planner.services.audit import record
from planner.services.invites import MailSettings, announce_changed, announce_replaced
from planner.services.loop_state import (
    LoopState,
    clean_reason,
    get_interview,
    grid_starts,
    load_state,
    moved,
    require_changeable,
)
from planner.services.scheduling_problem import (
    load_near,
    loop_key,
    parse_z,
    person_id,
    person_key,
    qualification_levels,
)
from planner.services.transaction import SOMEONE_ELSE, committed_or_conflict

#: A new plan after a decline changes this many rounds of the loop at most: the engine's own cap.
MAX_MOVED_ROUNDS = MAX_MOVED
TRAINEE_LEVELS = ("shadow", "reverse-shadow")


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
class PlannedChange:
    """One interview of a proposed new plan: its new time and panel (ids), and what changes."""

    interview_id: int
    round_name: str
    old_start: datetime
    start: datetime
    end: datetime
    interviewers: list[int]
    trainees: list[int]
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def moved(self) -> bool:
        return self.start != self.old_start

    def as_dict(self) -> dict:
        """Plain data for carrying the plan between requests."""
        return {"interview": self.interview_id, "start": self.start.isoformat(), "end": self.end.isoformat(),
                "interviewers": list(self.interviewers), "trainees": list(self.trainees)}


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


def _seat(interview: Interview, interviewer_id: int) -> Seat | None:
    return next((s for s in interview.seats if s.interviewer_id == interviewer_id
                 and s.status == SeatStatus.ACTIVE), None)


def _role_key(seat: Seat) -> str:
    return "interviewers" if seat.role == SeatRole.ASSESSOR else "trainees"


def _swap(item: Mapping, role: str, leaving: str, joining: str | None) -> dict:
    people = [p for p in item[role] if p != leaving] + ([joining] if joining else [])
    return dict(item, **{role: sorted(people)})


def _why(state: LoopState, interview: Interview, person, role: str, start: datetime) -> tuple[str, int, int]:
    names = {c.get("slug"): c.get("name") or c.get("slug") for c in interview.round_detail.get("competencies", [])}
    slugs = [c["slug"] for c in state.round(interview)["competencies"]]
    week, day = load_near(person, start)
    if role == "trainees":
        held = [f"{names.get(s, s)} ({person.skills[s]})" for s in slugs if person.skills.get(s) in TRAINEE_LEVELS]
        parts = [f"training in {', '.join(held)}"]
    else:
        held = [names.get(s, s) for s in slugs if person.skills.get(s) == "qualified"]
        parts = [f"qualified in {', '.join(held)}"]
    cap = f" of {person.max_per_week}" if person.max_per_week is not None else ""
    parts.append(f"{week + 1}{cap} this week")
    day_cap = f" of {person.max_per_day}" if person.max_per_day is not None else ""
    parts.append(f"{day + 1}{day_cap} that day")
    if role == "interviewers" and person.team and person.team != state.loop.hiring_team:
        parts.append("outside the hiring team")
    local = start.astimezone(ZoneInfo(person.timezone))
    parts.append(f"{local:%H:%M} their time ({person.timezone})")
    return "; ".join(parts), week + 1, day + 1


def _engine_candidates(state: LoopState, overrides: dict[int, dict], interview: Interview, leaving: str,
                       ) -> list[str]:
    """The engine's substitutes for the seat with the loop as in ``overrides``, then re-checked by validate."""
    result = {"loops": [state.entry(overrides)]}
    try:
        found = engine_substitutes(state.built.problem, result, loop_key(state.loop.id), interview.round_key,
                                   leaving, keep_out=state.taken_off)
    except (RepairError, ValueError):
        # ValueError: the engine's ledger refuses a loop whose people are not free as given (a moved
        # round landing on someone's other commitment); such a candidate plan is simply not an option.
        return []
    item = overrides.get(interview.id) or state.item(interview)
    role = "interviewers" if leaving in item["interviewers"] else "trainees"
    fitting = []
    for option in found:
        candidate = {**overrides, interview.id: _swap(item, role, leaving, option.interviewer_id)}
        if not state.new_errors(candidate):
            fitting.append(option.interviewer_id)
    return fitting


def _same_time(state: LoopState, interview: Interview, leaving: str) -> list[tuple[str, dict[int, dict], str]]:
    """Everyone who can take the seat now, as (person, the loop's changed items, the trainee seat given up).

    Besides the engine's candidates, a trainee elsewhere in the loop may step up: their optional
    trainee seat is given up (and they are told). Each option is checked with the validator.
    """
    items = {i.id: state.item(i) for i in state.interviews.values()}
    item = items[interview.id]
    role = "interviewers" if leaving in item["interviewers"] else "trainees"
    assessors = {p for i in items.values() for p in i["interviewers"]}
    options = []
    for person in state.built.problem.interviewers:
        if person.id in assessors or person.id in item["trainees"] or person.id in {leaving, *state.taken_off}:
            continue
        overrides, freed = {}, ""
        for other_id, other in items.items():
            if other_id != interview.id and person.id in other["trainees"]:
                overrides[other_id] = dict(other, trainees=[t for t in other["trainees"] if t != person.id])
                freed = state.interviews[other_id].round_name
        overrides[interview.id] = _swap(item, role, leaving, person.id)
        if not state.new_errors(overrides):
            options.append((person.id, overrides, freed))
    return options


def _names(state: LoopState, keys: Sequence[str]) -> list[str]:
    return [state.built.names.get(k, k) for k in keys]


def _change(state: LoopState, interview: Interview, item: Mapping) -> PlannedChange:
    old = state.item(interview)
    before = set(old["interviewers"]) | set(old["trainees"])
    after = set(item["interviewers"]) | set(item["trainees"])
    return PlannedChange(interview.id, interview.round_name, interview.start, parse_z(item["start"]),
                         parse_z(item["end"]), [person_id(p) for p in item["interviewers"]],
                         [person_id(p) for p in item["trainees"]], added=_names(state, sorted(after - before)),
                         removed=_names(state, sorted(before - after)))


def _one_round_move(state: LoopState, interview: Interview, leaving: str, now: datetime) -> list[PlannedChange]:
    """The same round at the nearest other start where somebody can take the seat (other rounds stay)."""
    item = state.item(interview)
    role = "interviewers" if leaving in item["interviewers"] else "trainees"
    minutes = state.round(interview)["minutes"]
    starts = sorted(grid_starts(state, interview, now), key=lambda s: (abs((s - interview.start).total_seconds()), s))
    for start in starts:
        if start == interview.start:
            continue
        overrides = {interview.id: moved(item, start, minutes)}
        fitting = _engine_candidates(state, overrides, interview, leaving)
        if fitting:
            return [_change(state, interview, _swap(overrides[interview.id], role, leaving, fitting[0]))]
    return []


def _engine_repair(state: LoopState, interview: Interview, leaving: str) -> list[PlannedChange]:
    """The engine's decline repair, kept when it moves at most MAX_MOVED_ROUNDS rounds and every rule holds."""
    try:
        result = repair(state.built.problem, {"loops": [state.entry()]}, loop_key(state.loop.id),
                        interview.round_key, leaving, keep_out=state.taken_off)
    except (RepairError, ValueError):
        return []
    entry = next((e for e in result.get("loops", []) if e.get("id") == loop_key(state.loop.id)), None)
    if not entry or entry.get("status") != "scheduled":
        return []
    by_round = {i["round"]: i for i in entry["interviews"]}
    overrides = {}
    for other in state.interviews.values():
        new = by_round.get(other.round_key)
        if new is None:
            return []
        new = {k: (sorted(v) if isinstance(v, list) else v) for k, v in new.items()}
        old = state.item(other)
        if any(new.get(k) != old[k] for k in ("start", "interviewers", "trainees")):
            overrides[other.id] = dict(old, **{k: new.get(k, old[k]) for k in ("start", "end", "interviewers",
                                                                               "trainees")})
    if interview.id not in overrides or len(overrides) > MAX_MOVED_ROUNDS:
        return []
    changed = overrides[interview.id]
    if leaving in changed["interviewers"] + changed["trainees"] or state.new_errors(overrides):
        return []
    return [_change(state, state.interviews[i], item) for i, item in overrides.items()]


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
    seat = _seat(interview, leaving_id)
    if seat is None:
        raise ValidationFailed("That person does not sit in this interview any more; reload the loop.")
    leaving = person_key(leaving_id)
    role = _role_key(seat)
    options = []
    for key, _overrides, freed in _same_time(state, interview, leaving):
        person = state.person(person_id(key))
        why, week, day = _why(state, interview, person, role, interview.start)
        if freed:
            why += f"; gives up their trainee seat in '{freed}'"
        options.append(SeatOption(person_id(key), person.name, person.timezone, why, week, day, freed))
    # Least loaded first; a trainee who must give up their seat elsewhere only after everyone else.
    options.sort(key=lambda o: (bool(o.gives_up), o.week_load, o.day_load, o.name, o.interviewer_id))
    result = ReplacementOptions(interview, seat.interviewer, "assessor" if role == "interviewers" else "trainee",
                                options)
    if not options:
        plan = _one_round_move(state, interview, leaving, now) or _engine_repair(state, interview, leaving)
        result.new_plan = plan or None
        if not plan:
            result.why_none = ("nobody else can take this seat at this time, and no new time for this round (or "
                               f"at most {MAX_MOVED_ROUNDS} rounds of the loop) keeps every rule")
    return result


def _plan_for(state: LoopState, interview: Interview, leaving_id: int, joining_id: int | None,
              plan: Sequence[Mapping] | None) -> dict[int, dict]:
    """The result items (by interview id) the change asks for, checked for shape."""
    seat = _seat(interview, leaving_id)
    if seat is None:
        raise Conflict("That person no longer sits in this interview; reload the loop.")
    leaving = person_key(leaving_id)
    if plan is None:
        if joining_id is None and seat.role == SeatRole.ASSESSOR:
            raise ValidationFailed("Pick who takes the seat; an assessor seat cannot stay empty.")
        if joining_id is None:
            return {interview.id: _swap(state.item(interview), _role_key(seat), leaving, None)}
        for key, overrides, _freed in _same_time(state, interview, leaving):
            if key == person_key(joining_id):
                return overrides
        # Not a valid option (any more): the plain swap, which the re-check then names the broken rule of.
        return {interview.id: _swap(state.item(interview), _role_key(seat), leaving, person_key(joining_id))}
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
