"""What a candidate's page shows: the role, the kinds of rounds, the booking, the offered times by day.

Only what a candidate may see: the company, the role and its location, each round's name, kind and
length, and their own interviews' times and place. Never interviewers, competencies, scores, focus
questions, notes or anything about other candidates: the dataclasses below have no field for them, so a
template cannot show them by mistake.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from itertools import groupby
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.models import Interview, InterviewStatus, Loop, LoopStatus, PlanVersion, Posting

KIND_LABELS = {"screen": "Screen", "technical": "Technical", "design": "Design", "behavioural": "Behavioural",
               "bar-raiser": "Bar raiser", "hiring-manager": "Hiring manager"}


@dataclass(frozen=True)
class RoundSummary:
    """A round as the candidate sees it."""

    name: str
    kind: str
    minutes: int


@dataclass(frozen=True)
class ItineraryItem:
    """One booked interview as the candidate sees it."""

    round_name: str
    kind: str
    start: datetime
    end: datetime
    location: str
    video_url: str
    local_start: datetime
    local_end: datetime

    @property
    def minutes(self) -> int:
        return int((self.end - self.start) / timedelta(minutes=1))


@dataclass(frozen=True)
class CandidatePage:
    """The page of one loop for its candidate."""

    candidate_name: str
    timezone: str
    role: str
    location: str
    status: str
    rounds: list[RoundSummary]
    itinerary: list[ItineraryItem]
    location_default: str
    video_default: str

    @property
    def minutes(self) -> int:
        """Minutes of interviews in the whole loop."""
        return sum(r.minutes for r in self.rounds)

    @property
    def booked(self) -> bool:
        return self.status == LoopStatus.SCHEDULED.value and bool(self.itinerary)

    def first_start(self) -> datetime | None:
        return self.itinerary[0].start if self.itinerary else None


def _kind(value: object) -> str:
    return KIND_LABELS.get(str(value or ""), str(value or "").replace("-", " ").capitalize())


def get_candidate_page(session: Session, loop_id: int) -> CandidatePage | None:
    """The candidate's view of a loop (None when it does not exist)."""
    loop = session.get(Loop, loop_id)
    if loop is None:
        return None
    posting = session.get(Posting, loop.posting_id)
    version = session.get(PlanVersion, loop.plan_version_id) if loop.plan_version_id else None
    version = version or session.scalar(select(PlanVersion).where(PlanVersion.posting_id == loop.posting_id)
                                        .order_by(PlanVersion.number.desc()).limit(1))
    live = sorted((i for i in loop.interviews if i.status == InterviewStatus.SCHEDULED), key=lambda i: i.start)
    if live:
        rounds = [RoundSummary(i.round_name, _kind((i.round_detail or {}).get("kind")), _minutes(i)) for i in live]
    else:
        rounds = [RoundSummary(str(r.get("name", "")), _kind(r.get("kind")), int(r.get("minutes") or 0))
                  for r in (version.snapshot if version else [])]
    zone = ZoneInfo(loop.candidate.timezone)
    itinerary = [ItineraryItem(i.round_name, _kind((i.round_detail or {}).get("kind")), i.start, i.end,
                               (i.location or loop.location or "").strip(),
                               (i.video_url or loop.video_url or "").strip(),
                               i.start.astimezone(zone), i.end.astimezone(zone))
                 for i in live]
    return CandidatePage(
        candidate_name=loop.candidate.name, timezone=loop.candidate.timezone,
        role=posting.title if posting else "", location=posting.location if posting else "",
        status=loop.status.value, rounds=rounds, itinerary=itinerary,
        location_default=loop.location or "", video_default=loop.video_url or "")


def _minutes(interview: Interview) -> int:
    return int((interview.end - interview.start) / timedelta(minutes=1))


@dataclass(frozen=True)
class Slot:
    """An offered time as shown: its UTC start (what is sent back) and local start and end."""

    start: datetime
    local_start: datetime
    local_end: datetime

    @property
    def ends_another_day(self) -> bool:
        return self.local_end.date() != self.local_start.date()


@dataclass(frozen=True)
class DayOfTimes:
    """The offered times of one local day."""

    day: date
    times: list[Slot]


def by_local_day(times, tz: str) -> list[DayOfTimes]:
    """Offered times (anything with UTC ``start`` and ``end``) grouped by the candidate's local date, in order."""
    zone = ZoneInfo(tz)
    slots = [Slot(t.start, t.start.astimezone(zone), t.end.astimezone(zone))
             for t in sorted(times, key=lambda t: t.start)]
    return [DayOfTimes(day, list(items)) for day, items in groupby(slots, key=lambda s: s.local_start.date())]
