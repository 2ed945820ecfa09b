"""The pieces of an edit to a proposed schedule: a round looked up, copied or changed, the loop entry the
validator checks, and a suggested substitute with why they fit, in plain words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from planner.core.errors import ValidationFailed
from planner.core.prose import plural
from planner.services.scheduling_problem import loop_key

TRAINEE_LEVELS = ("shadow", "reverse-shadow")


@dataclass
class Substitute:
    """Someone who can take a seat while every rule still holds, and why they are suggested."""

    interviewer_id: int
    name: str
    why: str
    interviews: list[dict]


def proposal_entry(loop_id: int, interviews: Sequence[Mapping]) -> dict:
    """A proposal's rounds as one loop entry of a scheduling result (what the validator checks)."""
    return {"id": loop_key(loop_id), "status": "scheduled", "interviews": [dict(i) for i in interviews]}


def proposal_round(interviews: Sequence[Mapping], round_key: str) -> dict:
    """A copy of the proposal's round ``round_key``; ValidationFailed when the proposal has no such round."""
    for item in interviews:
        if item.get("round") == round_key:
            return dict(item)
    raise ValidationFailed("That round is not in the proposal; schedule the loop again.")


def with_round_changed(interviews: Sequence[Mapping], round_key: str, **changes) -> list[dict]:
    """A new proposal: round ``round_key`` with ``changes`` applied, every other round copied."""
    return [dict(item, **changes) if item.get("round") == round_key else dict(item) for item in interviews]

def why_it_fits(person, slugs: list[str], role: str, week: int, day: int, start: datetime, hiring_team: str,
                names: Mapping[str, str]) -> str:
    """Why ``person`` fits the seat, in plain words (competencies by ``names``, not slugs)."""
    if role == "interviewers":
        skills = [names.get(s, s) for s in slugs if person.skills.get(s) == "qualified"]
        parts = [f"qualified in {', '.join(skills)}"]
        if person.team and person.team != hiring_team:
            parts.append(f"outside the hiring team ({person.team})")
    else:
        skills = [f"{names.get(s, s)} ({person.skills[s]})" for s in slugs if person.skills.get(s) in TRAINEE_LEVELS]
        parts = [f"training in {', '.join(skills)}"]
    local = start.astimezone(ZoneInfo(person.timezone))
    parts.append(f"free at {local:%H:%M} their time ({person.timezone})")
    load = (f"{week} of {plural(person.max_per_week, 'interview')}" if person.max_per_week is not None
            else plural(week, "interview"))
    parts.append(f"{load} that week, {day} that day")
    return "; ".join(parts)


def with_round_moved(interviews: Sequence[Mapping], round_key: str, start: datetime, minutes: int) -> list[dict]:
    """A new proposal: round ``round_key`` moved to ``start`` for ``minutes``, every other round copied."""
    end = start + timedelta(minutes=minutes)
    return with_round_changed(interviews, round_key, start=start.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    end=end.strftime("%Y-%m-%dT%H:%M:%SZ"))
