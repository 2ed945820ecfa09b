"""Solutions as the DESIGN 5.2 result document, plus the objective figures both planners report."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from planner.core.scheduling.availability import Calendar, local_day_and_week
from planner.core.scheduling.problem import Interview, LoopPlan, Problem, Solution

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def format_minute(minute: int) -> str:
    """RFC 3339 UTC text (``...Z``) of a minute since the epoch."""
    return (_EPOCH + timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Score:
    """The four objectives of DESIGN 5.2 for a set of plans (higher loops/seats, lower the rest)."""

    scheduled: int
    load_sum_squares: int
    max_load: int
    trainee_seats: int
    idle_minutes: int

    def key(self) -> tuple[int, int, int, int]:
        """Sort key: smaller is better, in the contract's lexicographic order."""
        return (-self.scheduled, self.load_sum_squares, -self.trainee_seats, self.idle_minutes)


def weekly_loads(problem: Problem, plans: tuple[LoopPlan, ...] | list[LoopPlan], calendars: dict[str, Calendar]):
    """Assessor seats per (interviewer, ISO week), ``existing`` interviews included."""
    loads: Counter = Counter()
    for person_id, calendar in calendars.items():
        for week, count in calendar.existing_per_week.items():
            loads[(person_id, week)] += count
    for plan in plans:
        for interview in plan.interviews:
            for person_id in interview.interviewers:
                block = calendars[person_id].block_for(interview.start, interview.end)
                week = (
                    block.week
                    if block
                    else local_day_and_week(interview.start, calendars[person_id].person.timezone)[1]
                )
                loads[(person_id, week)] += 1
    return loads


def idle_minutes(interviews: tuple[Interview, ...]) -> int:
    """Candidate time between the first start and the last end not spent in a round."""
    if not interviews:
        return 0
    span = max(i.end for i in interviews) - min(i.start for i in interviews)
    return span - sum(i.end - i.start for i in interviews)


def score(problem: Problem, plans, calendars: dict[str, Calendar]) -> Score:
    """Objective figures of ``plans``."""
    loads = weekly_loads(problem, plans, calendars)
    return Score(
        scheduled=sum(1 for p in plans if p.scheduled),
        load_sum_squares=sum(v * v for v in loads.values()),
        max_load=max(loads.values(), default=0),
        trainee_seats=sum(len(i.trainees) for p in plans for i in p.interviews),
        idle_minutes=sum(idle_minutes(p.interviews) for p in plans),
    )


def solution_to_dict(solution: Solution) -> dict[str, Any]:
    """The DESIGN 5.2 result document of ``solution`` (loops in input order, then stats)."""
    loops = []
    for plan in solution.plans:
        if plan.scheduled:
            interviews = [
                {
                    "round": i.round_id,
                    "start": format_minute(i.start),
                    "end": format_minute(i.end),
                    "interviewers": list(i.interviewers),
                    "trainees": list(i.trainees),
                }
                for i in sorted(plan.interviews, key=lambda i: (i.start, i.round_id))
            ]
            loops.append({"id": plan.loop_id, "status": "scheduled", "interviews": interviews})
        else:
            entry: dict[str, Any] = {
                "id": plan.loop_id,
                "status": "unscheduled",
                "reason": plan.reason or "no schedule found",
            }
            if plan.fixes:
                entry["fixes"] = list(plan.fixes)
            loops.append(entry)
    stats = dict(solution.stats) if solution.stats else {}
    stats["seconds"] = round(solution.seconds, 3)
    return {"loops": loops, "stats": stats}
