"""The search behind the replace page: who can take a seat at the same time, and which new plans work.

Everyone who could sit is tried against the loop as it is (the engine's substitutes, and trainees of the
loop who may step up), each re-checked with the validator. When nobody fits, the same round is tried alone
at another start, then the engine's decline repair, which may move at most :data:`MAX_MOVED_ROUNDS`
rounds of the loop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from planner.core.scheduling import MAX_MOVED, RepairError, repair
from planner.core.scheduling import substitutes as engine_substitutes
from planner.models import Interview, Seat, SeatRole, SeatStatus
from planner.services.loop_state import LoopState, grid_starts, moved
from planner.services.scheduling_problem import load_near, loop_key, parse_z, person_id

#: A new plan after a decline changes this many rounds of the loop at most: the engine's own cap.
MAX_MOVED_ROUNDS = MAX_MOVED
TRAINEE_LEVELS = ("shadow", "reverse-shadow")



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


def seat_of(interview: Interview, interviewer_id: int) -> Seat | None:
    """The person's active seat in the interview, if they have one."""
    return next((s for s in interview.seats if s.interviewer_id == interviewer_id
                 and s.status == SeatStatus.ACTIVE), None)


def role_key(seat: Seat) -> str:
    """The result item's list the seat belongs to: "interviewers" or "trainees"."""
    return "interviewers" if seat.role == SeatRole.ASSESSOR else "trainees"


def swap_person(item: Mapping, role: str, leaving: str, joining: str | None) -> dict:
    """A copy of the result item with ``leaving`` off its ``role`` list and ``joining`` (if any) on it."""
    people = [p for p in item[role] if p != leaving] + ([joining] if joining else [])
    return dict(item, **{role: sorted(people)})


def why_they_fit(state: LoopState, interview: Interview, person, role: str, start: datetime) -> tuple[str, int, int]:
    """Why ``person`` fits the seat, in plain words, and their seats that ISO week and that day with it."""
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
        candidate = {**overrides, interview.id: swap_person(item, role, leaving, option.interviewer_id)}
        if not state.new_errors(candidate):
            fitting.append(option.interviewer_id)
    return fitting


def same_time_options(state: LoopState, interview: Interview, leaving: str) -> list[tuple[str, dict[int, dict], str]]:
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
        overrides[interview.id] = swap_person(item, role, leaving, person.id)
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


def one_round_move(state: LoopState, interview: Interview, leaving: str, now: datetime) -> list[PlannedChange]:
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
            return [_change(state, interview, swap_person(overrides[interview.id], role, leaving, fitting[0]))]
    return []


def engine_repair(state: LoopState, interview: Interview, leaving: str) -> list[PlannedChange]:
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

