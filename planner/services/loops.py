"""Loops: create a candidate's loop with availability windows, edit the windows, cancel a loop.

Windows arrive as local dates and times in the candidate's time zone and are stored in UTC. Each
function validates first, changes, audits and commits once; bad input changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy.orm import Session

from planner.core.coverage import team_slug
from planner.core.errors import FieldError, NotFound, ValidationFailed
from planner.models import Candidate, InterviewStatus, Loop, LoopStatus, LoopWindow
from planner.services import coverage as coverage_service
from planner.services.audit import record
from planner.services.invites import MailSettings, announce_cancelled
from planner.services.plans import latest_version

MAX_WINDOWS = 14
MAX_NAME, MAX_EMAIL, MAX_TEAM, MAX_REASON = 120, 254, 120, 2000
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


@dataclass
class WindowInput:
    """One availability window as the candidate gave it: a local day and local start/end times."""

    day: date
    start: time
    end: time


@dataclass
class LoopInput:
    """What the new-loop form sends."""

    candidate_name: str
    candidate_email: str
    candidate_timezone: str
    windows: Sequence[WindowInput] = ()
    hiring_team: str = ""
    max_gap_minutes: int | None = 60
    location: str = ""
    video_url: str = ""
    #: Let the scheduler put the rounds in any order (default: the plan's order).
    rounds_any_order: bool = False


def get_loop(session: Session, loop_id: int) -> Loop:
    loop = session.get(Loop, loop_id)
    if loop is None:
        raise NotFound(f"There is no loop #{loop_id}.")
    return loop


def require_zone(name: str) -> ZoneInfo:
    """The zone a candidate's windows are read in; ValidationFailed (one sentence) for an unknown name."""
    try:
        return ZoneInfo((name or "").strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationFailed(f"'{name}' is not a time zone; use an IANA name like Europe/Berlin.") from None


def windows_utc(windows: Sequence[WindowInput], tz: str, *, now: datetime,
                required: bool = True) -> list[tuple[datetime, datetime]]:
    """The windows as UTC spans, checked: end after start, in the future, not overlapping, at most 14.

    Local times are read in ``tz`` (a time that does not exist on a DST day moves forward, as clocks do).
    :param required: whether no window at all is an error.
    :raise FieldError: (field ``windows``) naming the first bad window.
    """
    zone = require_zone(tz)
    if not windows and required:
        raise FieldError("windows", "Add at least one window when the candidate can interview.")
    if len(windows) > MAX_WINDOWS:
        raise FieldError("windows", f"A loop takes at most {MAX_WINDOWS} windows.")
    spans = []
    for n, window in enumerate(windows, start=1):
        start = datetime.combine(window.day, window.start, zone)
        end = datetime.combine(window.day, window.end, zone) if window.end != time(0) else \
            datetime.combine(window.day + timedelta(days=1), time(0), zone)
        if end <= start:
            raise FieldError("windows", f"Window {n} ends before it starts; end it after {window.start:%H:%M}.")
        if end <= now:
            raise FieldError("windows", f"Window {n} ({window.day:%a %d %b %Y}) is in the past.")
        spans.append((start.astimezone(ZoneInfo("UTC")), end.astimezone(ZoneInfo("UTC"))))
    spans.sort()
    for (_s1, e1), (s2, _e2) in zip(spans, spans[1:], strict=False):
        if s2 < e1:
            raise FieldError("windows", "Two windows overlap; merge them into one.")
    return spans


def _clean(data: LoopInput) -> dict:
    name = " ".join((data.candidate_name or "").split())
    email = (data.candidate_email or "").strip()
    if not name or len(name) > MAX_NAME:
        raise FieldError("candidate_name", f"Give the candidate's name (up to {MAX_NAME} characters).")
    if not _EMAIL.match(email) or len(email) > MAX_EMAIL:
        raise FieldError("candidate_email", f"'{email}' is not an email address.")
    try:
        require_zone(data.candidate_timezone)
    except ValidationFailed as exc:
        raise FieldError("candidate_timezone", str(exc)) from None
    gap = _gap(data.max_gap_minutes)
    if len(data.hiring_team or "") > MAX_TEAM:
        raise FieldError("hiring_team", f"Keep the hiring team under {MAX_TEAM} characters.")
    url = (data.video_url or "").strip()
    if url and not url.startswith(("https://", "http://")):
        raise FieldError("video_url", "The video link must start with https://.")
    return {"name": name, "email": email, "timezone": data.candidate_timezone.strip(), "max_gap_minutes": gap,
            "hiring_team": (data.hiring_team or "").strip(), "location": (data.location or "").strip()[:200],
            "video_url": url[:500]}


def create_loop(session: Session, posting_id: int, data: LoopInput, *, actor_id: int | None,
                now: datetime) -> Loop:
    """Create the candidate and their draft loop on the posting's latest published plan; commit.

    :raise NotFound: when the posting does not exist.
    :raise ValidationFailed: when a field or window breaks a rule (the sentence says which).
    """
    posting = coverage_service.get_posting(session, posting_id)
    values = _clean(data)
    # No windows: the candidate picks a time through a link (or the coordinator adds windows later).
    spans = windows_utc(data.windows, values["timezone"], now=now, required=False)
    candidate = Candidate(name=values["name"], email=values["email"], timezone=values["timezone"])
    version = latest_version(session, posting_id)
    loop = Loop(posting_id=posting_id, candidate=candidate, plan_version_id=version.id if version else None,
                hiring_team=values["hiring_team"] or team_slug(posting.team),  # as coverage's staffing check reads it
                max_gap_minutes=values["max_gap_minutes"], location=values["location"],
                video_url=values["video_url"], rounds_any_order=bool(data.rounds_any_order))
    loop.windows = [LoopWindow(start=s, end=e) for s, e in spans]
    session.add(loop)
    session.flush()
    record(session, actor_id=actor_id, action="loop_created", entity="loop", entity_id=loop.id,
           details={"posting_id": posting_id, "candidate": candidate.name, "windows": len(spans),
                    "rounds_any_order": loop.rounds_any_order},
           loop_id=loop.id)
    session.commit()
    return loop


def _gap(minutes) -> int | None:
    """The longest break between rounds: None (no limit) or whole minutes from 0 to 1440."""
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= 1440):
        raise FieldError("max_gap_minutes", "The longest break between rounds is between 0 and 1440 minutes.")
    return minutes


#: ``update_windows``' default for the longest break: leave it as it is.
KEEP = object()


def update_windows(session: Session, loop_id: int, windows: Sequence[WindowInput], *, actor_id: int | None,
                   now: datetime, max_gap_minutes: int | None | object = KEEP,
                   rounds_any_order: bool | object = KEEP) -> Loop:
    """Replace a draft loop's windows (local to the candidate), and its longest break between rounds when
    ``max_gap_minutes`` is given (None: no limit), and whether its rounds may come in any order when
    ``rounds_any_order`` is given; commit. The scheduler's fixes name all three ("lengthen the window of
    Mon ...", "allow more than 60 minutes between rounds", "let the rounds take place in any order"), so
    they are changed in one place.

    :raise ValidationFailed: when the loop is not a draft, or a window or the break breaks a rule.
    """
    loop = get_loop(session, loop_id)
    if loop.status != LoopStatus.DRAFT:
        raise ValidationFailed("Windows change only on draft loops; this loop is already "
                               f"{loop.status.value}.")
    spans = windows_utc(windows, loop.candidate.timezone, now=now)
    details: dict = {"windows": len(spans)}
    if max_gap_minutes is not KEEP:
        gap = _gap(max_gap_minutes)
        if gap != loop.max_gap_minutes:
            details["max_gap_minutes"] = {"from": loop.max_gap_minutes, "to": gap}
            loop.max_gap_minutes = gap
    if rounds_any_order is not KEEP and bool(rounds_any_order) != loop.rounds_any_order:
        details["rounds_any_order"] = {"from": loop.rounds_any_order, "to": bool(rounds_any_order)}
        loop.rounds_any_order = bool(rounds_any_order)
    loop.windows = [LoopWindow(start=s, end=e) for s, e in spans]
    record(session, actor_id=actor_id, action="loop_windows_changed", entity="loop", entity_id=loop.id,
           details=details, loop_id=loop.id)
    session.commit()
    return loop


def cancel_loop(session: Session, loop_id: int, reason: str, *, actor_id: int | None, now: datetime,
                settings: MailSettings) -> int:
    """Cancel a loop and its upcoming interviews, sending a CANCEL for each; commit. Returns the count.

    :raise ValidationFailed: without a reason, or when the loop is already cancelled or completed.
    """
    loop = get_loop(session, loop_id)
    text = (reason or "").strip()
    if not text:
        raise ValidationFailed("Say why the loop is cancelled; the reason is kept in the audit trail.")
    if len(text) > MAX_REASON:
        raise ValidationFailed(f"Keep the reason under {MAX_REASON} characters.")
    if loop.status in (LoopStatus.CANCELLED, LoopStatus.COMPLETED):
        raise ValidationFailed(f"The loop is already {loop.status.value}.")
    cancelled = [i for i in loop.interviews if i.status == InterviewStatus.SCHEDULED]
    for interview in cancelled:
        interview.status = InterviewStatus.CANCELLED
        announce_cancelled(session, interview.id, settings=settings, now=now)
    loop.status = LoopStatus.CANCELLED
    record(session, actor_id=actor_id, action="loop_cancelled", entity="loop", entity_id=loop.id, reason=text,
           details={"interviews": [i.id for i in cancelled]}, loop_id=loop.id)
    session.commit()
    return len(cancelled)
