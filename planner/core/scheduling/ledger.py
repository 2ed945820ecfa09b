"""Bookings made on top of the calendars: who sits where, and what that uses of caps and load."""

from __future__ import annotations

from collections import Counter, defaultdict

from planner.core.scheduling.availability import Calendar, FreeBlock, Week
from planner.core.scheduling.problem import LoopPlan


class Ledger:
    """Mutable record of new seats per interviewer, checked against free time and caps."""

    def __init__(self, calendars: dict[str, Calendar]) -> None:
        self.calendars = calendars
        self.booked: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.day_seats: Counter[tuple[str, int]] = Counter()
        self.week_seats: Counter[tuple[str, Week]] = Counter()
        self.week_assessor: Counter[tuple[str, Week]] = Counter()

    def fits(self, person_id: str, start: int, end: int) -> FreeBlock | None:
        """The free block for a new seat at ``[start, end)`` if the person can take it, else None."""
        block = self.calendars[person_id].block_for(start, end)
        return None if block is None else self.fits_in(person_id, block, start, end)

    def fits_in(self, person_id: str, block: FreeBlock, start: int, end: int) -> FreeBlock | None:
        """``fits`` for a seat already known to lie inside the free ``block`` of the person's calendar: no other
        seat at that time and room left in the day's and week's caps."""
        calendar = self.calendars[person_id]
        for lo, hi in self.booked.get(person_id, ()):
            if lo < end and start < hi:
                return None
        day_room = calendar.day_room(block.day)
        if day_room is not None and self.day_seats[(person_id, block.day)] >= day_room:
            return None
        week_room = calendar.week_room(block.week)
        if week_room is not None and self.week_seats[(person_id, block.week)] >= week_room:
            return None
        return block

    def plan_fits(self, plan: LoopPlan) -> bool:
        """Whether every seat of ``plan`` could be added (the ledger must not hold the plan itself)."""
        return all(
            self.fits(person_id, interview.start, interview.end) is not None
            for interview in plan.interviews
            for person_id in (*interview.interviewers, *interview.trainees)
        )

    def assessor_load(self, person_id: str, week: Week) -> int:
        """Assessor seats of a person in an ISO week, ``existing`` interviews included."""
        existing = self.calendars[person_id].existing_per_week.get(week, 0)
        return existing + self.week_assessor[(person_id, week)]

    def add(self, person_id: str, start: int, end: int, assessor: bool) -> None:
        block = self.calendars[person_id].block_for(start, end)
        if block is None:  # pragma: no cover - callers check fits() first
            raise ValueError(f"{person_id} is not free at {start}")
        self.booked[person_id].append((start, end))
        self.day_seats[(person_id, block.day)] += 1
        self.week_seats[(person_id, block.week)] += 1
        if assessor:
            self.week_assessor[(person_id, block.week)] += 1

    def remove(self, person_id: str, start: int, end: int, assessor: bool) -> None:
        block = self.calendars[person_id].block_for(start, end)
        assert block is not None
        self.booked[person_id].remove((start, end))
        self.day_seats[(person_id, block.day)] -= 1
        self.week_seats[(person_id, block.week)] -= 1
        if assessor:
            self.week_assessor[(person_id, block.week)] -= 1

    def add_plan(self, plan: LoopPlan) -> None:
        for interview in plan.interviews:
            for person_id in interview.interviewers:
                self.add(person_id, interview.start, interview.end, assessor=True)
            for person_id in interview.trainees:
                self.add(person_id, interview.start, interview.end, assessor=False)

    def remove_plan(self, plan: LoopPlan) -> None:
        for interview in plan.interviews:
            for person_id in interview.interviewers:
                self.remove(person_id, interview.start, interview.end, assessor=True)
            for person_id in interview.trainees:
                self.remove(person_id, interview.start, interview.end, assessor=False)


def ledger_of(calendars: dict[str, Calendar], plans: list[LoopPlan] | tuple[LoopPlan, ...]) -> Ledger:
    """A ledger holding every seat of ``plans``."""
    ledger = Ledger(calendars)
    for plan in plans:
        ledger.add_plan(plan)
    return ledger


def ledger_without(calendars: dict[str, Calendar], plans: list[LoopPlan], left_out) -> Ledger:
    """A ledger holding every seat of ``plans`` except those of the loops at the indices ``left_out``:
    the surroundings a neighbourhood of those loops is solved in."""
    skip = set(left_out)
    return ledger_of(calendars, [plan for n, plan in enumerate(plans) if n not in skip])
