"""Domain values of a scheduling problem (DESIGN 5.2), after parsing and validation.

Every instant is an integer number of minutes since 1970-01-01T00:00Z, so that arithmetic stays exact
and cheap; intervals are half-open ``[start, end)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

QUALIFIED = "qualified"
SHADOW = "shadow"
REVERSE_SHADOW = "reverse-shadow"
TRAINING_LEVELS = (QUALIFIED, SHADOW, REVERSE_SHADOW)
TRAINEE_LEVELS = frozenset({SHADOW, REVERSE_SHADOW})

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass(frozen=True)
class Span:
    """A half-open interval of UTC minutes since the epoch."""

    start: int
    end: int

    @property
    def minutes(self) -> int:
        return self.end - self.start

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end


@dataclass(frozen=True)
class WorkingHours:
    """Local working hours: minutes after local midnight (end may be 1440) and ISO weekdays 0=Mon..6=Sun."""

    start: int
    end: int
    days: frozenset[int]


@dataclass(frozen=True)
class Interviewer:
    """One person of the pool, with calendar, caps, team and skills (competency -> training level)."""

    id: str
    timezone: str
    working_hours: WorkingHours
    busy: tuple[Span, ...] = ()
    existing: tuple[Span, ...] = ()
    max_per_day: int | None = None
    max_per_week: int | None = None
    team: str | None = None
    skills: dict[str, str] = field(default_factory=dict)
    name: str = ""
    email: str = ""

    def is_qualified(self, competency: str) -> bool:
        return self.skills.get(competency) == QUALIFIED

    def is_trainee_in(self, competency: str) -> bool:
        return self.skills.get(competency) in TRAINEE_LEVELS


@dataclass(frozen=True)
class Round:
    """One interview of a loop: its length, what it assesses, and its seat rules."""

    id: str
    minutes: int
    competencies: tuple[str, ...]
    interviewers: int = 1
    trainee: bool = False
    outside_hiring_team: int = 0


@dataclass(frozen=True)
class Loop:
    """One candidate's loop: windows (UTC spans), hiring team, gap limit and rounds.

    ``ordered``: the rounds take place in the listed order (each starts after the one before ends); without
    it they may take place in any order.
    """

    id: str
    windows: tuple[Span, ...]
    rounds: tuple[Round, ...]
    hiring_team: str | None = None
    max_gap_minutes: int | None = None
    candidate: dict[str, str] = field(default_factory=dict)
    ordered: bool = False

    def round(self, round_id: str) -> Round:
        for rnd in self.rounds:
            if rnd.id == round_id:
                return rnd
        raise KeyError(round_id)

    @property
    def minutes(self) -> int:
        """Minutes of interviewing the candidate sits through."""
        return sum(rnd.minutes for rnd in self.rounds)

    def room_minutes(self) -> int:
        """The most minutes of rounds the windows can hold for this one candidate.

        Without a gap limit rounds may spread over every window. With one, consecutive rounds are at most
        ``max_gap_minutes`` apart, so the loop lies inside one stretch of windows whose breaks are no
        longer than that (rounds cannot sit in the breaks). A loop needing more can never be scheduled,
        whatever the interviewers' calendars: the solver is told so instead of searching for it.
        """
        stretches: list[int] = []
        end = None
        for window in sorted(self.windows, key=lambda w: w.start):
            start = window.start if end is None else max(window.start, end)
            if window.end <= start:
                continue
            joins = end is not None and (self.max_gap_minutes is None or start - end <= self.max_gap_minutes)
            if joins:
                stretches[-1] += window.end - start
            else:
                stretches.append(window.end - start)
            end = window.end
        return max(stretches, default=0)


@dataclass(frozen=True)
class Problem:
    """A whole scheduling problem: slot grid, interviewer pool and loops to plan."""

    interviewers: tuple[Interviewer, ...]
    loops: tuple[Loop, ...]
    slot_minutes: int = 15

    def interviewer(self, interviewer_id: str) -> Interviewer:
        for person in self.interviewers:
            if person.id == interviewer_id:
                return person
        raise KeyError(interviewer_id)

    def loop(self, loop_id: str) -> Loop:
        for loop in self.loops:
            if loop.id == loop_id:
                return loop
        raise KeyError(loop_id)


def is_outside(person: Interviewer, loop: Loop) -> bool:
    """Whether ``person`` counts as an interviewer from outside the loop's hiring team."""
    # A loop without a hiring team has no "inside": everybody is outside it.
    return loop.hiring_team is None or person.team != loop.hiring_team


@dataclass(frozen=True)
class Interview:
    """One scheduled round: UTC start/end minutes, assessors and trainees (ids, sorted)."""

    round_id: str
    start: int
    end: int
    interviewers: tuple[str, ...]
    trainees: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoopPlan:
    """The outcome for one loop: its interviews when scheduled, otherwise a reason and fixes."""

    loop_id: str
    interviews: tuple[Interview, ...] = ()
    reason: str | None = None
    fixes: tuple[str, ...] = ()

    @property
    def scheduled(self) -> bool:
        return bool(self.interviews)


@dataclass(frozen=True)
class Solution:
    """A complete answer: one plan per loop (input order) plus solver statistics."""

    plans: tuple[LoopPlan, ...]
    seconds: float = 0.0
    method: str = ""
    optimal: bool = False
    deterministic_time: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)
