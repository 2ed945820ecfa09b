"""Confirmed interviews that now collide with their interviewer's busy time (synced, imported or typed in).

The scheduler never books over a busy block, so such an overlap means the busy time arrived after the
interview was confirmed: a meeting synced from CalDAV, a new import, a block entered by hand. Found in
one query whatever the number of loops, people and blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.models import (
    BusyBlock,
    Candidate,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    LoopStatus,
    Seat,
    SeatStatus,
)

#: The overview lists at most this many collisions (the loop pages show their own).
MAX_ROWS = 200


@dataclass(frozen=True)
class BusyConflict:
    """One interviewer of one upcoming confirmed interview who is now busy during it."""

    interview_id: int
    loop_id: int
    round_name: str
    start: datetime
    end: datetime
    candidate_name: str
    interviewer_id: int
    interviewer_name: str
    role: str
    #: The busy blocks' titles, in time order ("" for a block without one).
    summaries: tuple[str, ...]
    #: Where the busy time came from: "calendar" (CalDAV), "import" (.ics) or "manual".
    sources: tuple[str, ...]

    @property
    def what(self) -> str:
        """The busy time's titles in words: "'Dentist'", "'A' and 'B'", or "" when none has a title."""
        titles = [f"'{s}'" for s in dict.fromkeys(self.summaries) if s]
        return " and ".join([", ".join(titles[:-1]), titles[-1]]) if len(titles) > 1 else "".join(titles)


def _kind(source: str) -> str:
    if source.startswith("caldav:"):
        return "calendar"
    return "import" if source.startswith("import:") else "manual"


def list_busy_conflicts(session: Session, *, now: datetime, loop_id: int | None = None) -> list[BusyConflict]:
    """Upcoming scheduled interviews of scheduled loops where an active seat's person (active in the pool)
    has a busy block overlapping the interview, soonest first; one query."""
    query = (
        select(Interview.id, Interview.loop_id, Interview.round_name, Interview.start, Interview.end,
               Candidate.name, Interviewer.id, Interviewer.name, Seat.role, BusyBlock.summary, BusyBlock.source)
        .join(Seat, Seat.interview_id == Interview.id)
        .join(Interviewer, Interviewer.id == Seat.interviewer_id)
        .join(Loop, Loop.id == Interview.loop_id)
        .join(Candidate, Candidate.id == Loop.candidate_id)
        .join(BusyBlock, (BusyBlock.interviewer_id == Seat.interviewer_id)
              & (BusyBlock.start < Interview.end) & (BusyBlock.end > Interview.start))
        .where(Seat.status == SeatStatus.ACTIVE, Interview.status == InterviewStatus.SCHEDULED,
               Loop.status == LoopStatus.SCHEDULED, Interview.start > now, Interviewer.active.is_(True))
        .order_by(Interview.start, Interview.id, Interviewer.name, Interviewer.id, BusyBlock.start)
        .limit(MAX_ROWS)
    )
    if loop_id is not None:
        query = query.where(Interview.loop_id == loop_id)
    found: dict[tuple[int, int], dict] = {}
    for (interview_id, loop, round_name, start, end, candidate, person_id, person, role, summary,
         source) in session.execute(query):
        item = found.setdefault((interview_id, person_id), {
            "interview_id": interview_id, "loop_id": loop, "round_name": round_name, "start": start, "end": end,
            "candidate_name": candidate, "interviewer_id": person_id, "interviewer_name": person,
            "role": role.value, "summaries": [], "sources": []})
        item["summaries"].append(summary or "")
        item["sources"].append(_kind(source))
    return [BusyConflict(**{**item, "summaries": tuple(item["summaries"]),
                            "sources": tuple(dict.fromkeys(item["sources"]))}) for item in found.values()]
