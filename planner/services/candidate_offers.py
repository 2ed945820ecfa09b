"""The start times a candidate is offered through their link: each one a whole loop the engine can staff.

Where times are looked for: the loop's own windows when the coordinator typed them, else the coming
business days in the candidate's zone (``CANDIDATE_HORIZON_DAYS`` days, ``CANDIDATE_DAY_HOURS`` on
Monday to Friday). Nothing starts sooner than the notice period (``CANDIDATE_NOTICE_HOURS``) from now.
A loop without a gap limit may spread over up to ``CANDIDATE_SPLIT_DAYS`` days; any other loop is held
in one day (its breaks are too short for a night).

Computing the offers builds the loop's problem (every active interviewer's calendar, busy time, other
loops' seats, caps) and packs the loop from every start (:func:`planner.core.scheduling.offers.offers`).
The result is cached per loop under a *fingerprint* of everything it depends on, read in one query
(:mod:`planner.queries.scheduling_fingerprint`): whatever writes busy time, caps, qualifications or
seats -- a form, an import, a calendar sync -- changes the fingerprint, so no writer has to remember to
invalidate anything. Reads only; nothing here commits.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from planner.core.scheduling.offers import Offer, offers
from planner.core.scheduling.result import format_minute
from planner.models import Interview, InterviewStatus, Loop, LoopStatus
from planner.queries.scheduling_fingerprint import scheduling_fingerprint
from planner.services.scheduling_problem import BuiltProblem, build_problem, loop_key

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass(frozen=True)
class OfferSettings:
    """How far ahead, when in the day and how often times are offered; read from CANDIDATE_* config."""

    horizon_days: int = 14
    day_start: time = time(9)
    day_end: time = time(17)
    days: frozenset[int] = frozenset(range(5))
    step_minutes: int = 30
    notice: timedelta = timedelta(hours=24)
    split_days: int = 2
    cache_seconds: int = 600

    @classmethod
    def from_mapping(cls, config: Mapping) -> OfferSettings:
        """Read CANDIDATE_HORIZON_DAYS, CANDIDATE_DAY_HOURS ("09:00-17:00"), CANDIDATE_DAYS ("mon tue ..."),
        CANDIDATE_START_MINUTES, CANDIDATE_NOTICE_HOURS, CANDIDATE_SPLIT_DAYS and CANDIDATE_OFFER_CACHE_SECONDS."""
        start_text, _, end_text = str(config.get("CANDIDATE_DAY_HOURS") or "09:00-17:00").partition("-")
        days = str(config.get("CANDIDATE_DAYS") or "mon tue wed thu fri").lower().split()
        return cls(
            horizon_days=max(1, int(config.get("CANDIDATE_HORIZON_DAYS") or 14)),
            day_start=time.fromisoformat(start_text.strip()),
            day_end=time.fromisoformat(end_text.strip()) if end_text.strip() not in ("24:00", "") else time(0),
            days=frozenset(WEEKDAYS.index(d[:3]) for d in days if d[:3] in WEEKDAYS),
            step_minutes=max(15, int(config.get("CANDIDATE_START_MINUTES") or 30)),
            notice=timedelta(hours=float(config.get("CANDIDATE_NOTICE_HOURS", 24) or 0)),
            split_days=max(1, int(config.get("CANDIDATE_SPLIT_DAYS") or 2)),
            cache_seconds=int(config.get("CANDIDATE_OFFER_CACHE_SECONDS", 600) or 0),
        )


@dataclass(frozen=True)
class OfferedTime:
    """One start the candidate may pick, with the schedule behind it (result items: round, times, people)."""

    start: datetime
    end: datetime
    interviews: tuple[dict, ...]


@dataclass
class Offers:
    """The times offered for a loop, and what they were computed from."""

    loop_id: int
    times: list[OfferedTime]
    windows: list[tuple[datetime, datetime]]
    fingerprint: tuple
    computed_at: datetime
    cached: bool = False
    extra: dict = field(default_factory=dict)

    def after(self, moment: datetime) -> list[OfferedTime]:
        """The offered times starting at or after ``moment``."""
        return [t for t in self.times if t.start >= moment]


def horizon_windows(tz: str, now: datetime, settings: OfferSettings) -> list[tuple[datetime, datetime]]:
    """Business hours of the coming days in the candidate's zone, as UTC spans (not cut at now)."""
    zone = ZoneInfo(tz)
    today = now.astimezone(zone).date()
    spans = []
    for offset in range(settings.horizon_days + 1):
        day = today + timedelta(days=offset)
        if day.weekday() not in settings.days:
            continue
        spans.append(day_window(day, zone, settings))
    return spans


def day_window(day: date, zone: ZoneInfo, settings: OfferSettings) -> tuple[datetime, datetime]:
    """One day's business hours in ``zone`` as a UTC span (an end of 00:00 is the following midnight)."""
    start = datetime.combine(day, settings.day_start, zone)
    end_day = day + timedelta(days=1) if settings.day_end == time(0) else day
    end = datetime.combine(end_day, settings.day_end, zone)
    return start.astimezone(UTC), end.astimezone(UTC)


def offer_windows(loop: Loop, offer_horizon: bool, now: datetime,
                  settings: OfferSettings) -> list[tuple[datetime, datetime]]:
    """Where times are looked for, cut at the notice period from now."""
    spans = horizon_windows(loop.candidate.timezone, now, settings) if offer_horizon else \
        [(w.start, w.end) for w in loop.windows]
    first = now + settings.notice
    return [(max(start, first), end) for start, end in spans if end > first]


def max_days(loop: Loop, settings: OfferSettings) -> int:
    """How many days the loop's rounds may spread over: a day unless the loop sets no gap limit."""
    return settings.split_days if loop.max_gap_minutes is None else 1


def live_round_keys(loop: Loop) -> list[str] | None:
    """The rounds still to be held when a scheduled loop moves (a round cancelled on purpose stays so)."""
    if loop.status != LoopStatus.SCHEDULED:
        return None
    return [i.round_key for i in loop.interviews if i.status == InterviewStatus.SCHEDULED]


def build_offer_problem(session: Session, loop: Loop, windows: Sequence[tuple[datetime, datetime]],
                        now: datetime) -> BuiltProblem:
    """The loop's problem with ``windows`` as its windows (and only its live rounds once scheduled)."""
    keys = live_round_keys(loop)
    return build_problem(session, [loop], now=now, windows={loop.id: windows},
                         round_keys=None if keys is None else {loop.id: keys})


def offered_times(built: BuiltProblem, loop: Loop, settings: OfferSettings, *,
                  starts: Sequence[datetime] | None = None, earliest: datetime | None = None) -> list[OfferedTime]:
    """Every start (or each of ``starts``) at which the problem's loop can be staffed whole, with its plan."""
    minutes = None if starts is None else [int(s.timestamp() // 60) for s in starts]
    first = None if earliest is None else int(earliest.timestamp() // 60)
    found = offers(built.problem, loop_key(loop.id), starts=minutes, step=settings.step_minutes,
                   earliest=first, max_days=max_days(loop, settings))
    return [_offered(offer) for offer in found]


def _offered(offer: Offer) -> OfferedTime:
    items = tuple({"round": i.round_id, "start": format_minute(i.start), "end": format_minute(i.end),
                   "interviewers": list(i.interviewers), "trainees": list(i.trainees)}
                  for i in sorted(offer.plan.interviews, key=lambda i: (i.start, i.round_id)))
    return OfferedTime(datetime.fromtimestamp(offer.start * 60, UTC), datetime.fromtimestamp(offer.end * 60, UTC),
                       items)


class OfferCache:
    """Computed offers per loop, kept while their fingerprint holds (bounded, thread-safe, per process)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[int, Offers] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, loop_id: int, fingerprint: tuple, now: datetime, max_age: int) -> Offers | None:
        with self._lock:
            found = self._items.get(loop_id)
            if found is None or found.fingerprint != fingerprint:
                return None
            if (now - found.computed_at).total_seconds() > max_age:
                return None
            self._items.move_to_end(loop_id)
            return found

    def put(self, offers: Offers) -> None:
        with self._lock:
            self._items[offers.loop_id] = offers
            self._items.move_to_end(offers.loop_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


CACHE = OfferCache()


def get_offers(session: Session, loop: Loop, offer_horizon: bool, *, now: datetime, settings: OfferSettings,
               cache: OfferCache | None = CACHE) -> Offers:
    """The times offered for ``loop`` now: from the cache while nothing they depend on changed, else computed.

    The fingerprint holds the loop's windows, rounds and zone, the day (the horizon moves daily), and the
    state of every table the engine reads; a cached answer is also dropped after ``cache_seconds``.
    """
    windows = offer_windows(loop, offer_horizon, now, settings)
    local_day = now.astimezone(ZoneInfo(loop.candidate.timezone)).date()
    fingerprint = (scheduling_fingerprint(session, loop.id), loop.candidate.timezone, offer_horizon,
                   local_day.isoformat(), loop.status.value, settings)
    earliest = now + settings.notice
    if cache is not None and settings.cache_seconds > 0:
        found = cache.get(loop.id, fingerprint, now, settings.cache_seconds)
        if found is not None:
            return Offers(loop.id, found.after(earliest), found.windows, fingerprint, found.computed_at,
                          cached=True)
    times: list[OfferedTime] = []
    if windows:
        built = build_offer_problem(session, loop, windows, now)
        times = offered_times(built, loop, settings, earliest=earliest)
    result = Offers(loop.id, times, windows, fingerprint, now)
    if cache is not None and settings.cache_seconds > 0:
        cache.put(result)
    return result


def booked_interviews(loop: Loop) -> list[Interview]:
    """The loop's interviews still to be held, in time order."""
    return sorted((i for i in loop.interviews if i.status == InterviewStatus.SCHEDULED), key=lambda i: i.start)
