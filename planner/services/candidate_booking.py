"""What a candidate does through their link: pick a time, move it, cancel it, give their zone or windows.

Picking a time goes through the coordinator's confirm (:func:`planner.services.scheduling.
confirm_in_transaction`): the loop row and then the interviewers' rows are locked in id order
(``SELECT ... FOR UPDATE`` on PostgreSQL; the first write takes SQLite's single write lock), every rule is
re-checked by the validator against the database as it is then, and only then are the interviews,
seats, invites and itinerary written, in one transaction. The schedule for the picked start is worked
out afresh inside that transaction, after the loop is locked: when someone took the people it was
shown with, others may still staff it; when nobody can any more, or a concurrent booking wins the
interviewers' locks first, nothing is written and the candidate gets a ``Conflict`` and fresh times.

Moving keeps every interview's calendar UID (SEQUENCE + 1, or + 2 with a CANCEL to anyone taken off);
cancelling sends a CANCEL for each interview and puts the loop back to draft, so the candidate can pick
again. Both are refused inside the notice period before the first round. Every change is audited with
the loop's id; the actor is nobody (the candidate has no login), ``details.by`` says "candidate".
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from planner.core.calendar import build_itinerary
from planner.core.errors import Conflict, ValidationFailed
from planner.core.timezones import canonical_timezone, require_timezone
from planner.models import (
    CandidateLink,
    Interview,
    InterviewStatus,
    Loop,
    LoopStatus,
    LoopWindow,
    Seat,
    SeatRole,
    SeatStatus,
)
from planner.services.audit import record
from planner.services.candidate_links import keep_alive_until, resolve
from planner.services.candidate_offers import (
    OfferSettings,
    booked_interviews,
    build_offer_problem,
    day_window,
    offer_windows,
    offered_times,
)
from planner.services.invite_events import interview_event
from planner.services.invites import MailSettings, announce_cancelled, announce_moved
from planner.services.loop_state import MAX_REASON
from planner.services.loops import WindowInput, windows_utc
from planner.services.proposal_edits import proposal_entry
from planner.services.scheduling import confirm_in_transaction
from planner.services.scheduling_problem import lock_loops_and_people, parse_z, person_id
from planner.services.transaction import committed_or_conflict

#: Said when the picked time cannot be booked any more; the page shows fresh times under it.
TAKEN = "That time was just taken or can no longer be staffed; nothing was booked. Here are the times " \
        "open now."
GONE = "This link no longer works."
BY = {"by": "candidate"}


def _locked(session: Session, link_id: int, secret: str, now: datetime) -> tuple[CandidateLink, Loop]:
    """Lock the link's loop (and nobody else yet), then re-read the link: it may have been revoked meanwhile."""
    link = resolve(session, link_id, secret, now)
    if link is None:
        raise ValidationFailed(GONE)
    loop = lock_loops_and_people(session, [link.loop_id], [], now)[0]
    session.refresh(link)
    if resolve(session, link_id, secret, now) is None:
        raise ValidationFailed(GONE)
    return link, loop


def _plan_at(session: Session, loop: Loop, link: CandidateLink, start: datetime, now: datetime,
             settings: OfferSettings) -> tuple[list[dict], list[tuple[datetime, datetime]]]:
    """A fresh schedule of the loop from ``start`` and the windows it lies in; Conflict when there is none."""
    if start < now + settings.notice:
        raise ValidationFailed("That time is too soon or in the past; pick one of the times offered.")
    windows = offer_windows(loop, link.offer_horizon, now, settings)
    if not any(lo <= start < hi for lo, hi in windows):
        raise ValidationFailed("That time is not one of the times offered; pick one from the list.")
    built = build_offer_problem(session, loop, windows, now)
    found = offered_times(built, loop, settings, starts=[start])
    if not found:
        raise Conflict(TAKEN)
    return found[0].interviews, windows


def _day_windows(loop: Loop, items: Sequence[dict], settings: OfferSettings) -> list[LoopWindow]:
    """The business-hours windows of the days the schedule lies on (the candidate's windows from now on)."""
    zone = ZoneInfo(loop.candidate.timezone)
    days = sorted({parse_z(i["start"]).astimezone(zone).date() for i in items})
    return [LoopWindow(start=lo, end=hi) for lo, hi in (day_window(d, zone, settings) for d in days)]


def book(session: Session, link_id: int, secret: str, start: datetime, *, now: datetime, settings: OfferSettings,
         mail: MailSettings) -> list[Interview]:
    """Book the loop of the link from ``start`` (UTC), re-checked under the coordinator's locks; commit.

    :raise ValidationFailed: the link no longer works, the loop is not a draft, or ``start`` is not offered.
    :raise Conflict: the time cannot be staffed any more, or a concurrent booking took its people first.
    """
    with committed_or_conflict(session, TAKEN):
        link, loop = _locked(session, link_id, secret, now)
        if loop.status != LoopStatus.DRAFT:
            raise ValidationFailed("Your interviews are already booked; see them below.")
        items, _windows = _plan_at(session, loop, link, start, now, settings)
        if link.offer_horizon:
            # The days picked become the candidate's windows: what a coordinator's later changes stay within.
            loop.windows = _day_windows(loop, items, settings)
            session.flush()
        # This entry is the booking's record; confirming writes no second "loop_scheduled" one.
        created = confirm_in_transaction(session, {loop.id: items}, actor_id=None, now=now, settings=mail,
                                         override_reason=loop.coverage_override, audited=False)[loop.id]
        keep_alive_until(link, max(i.end for i in created))
        record(session, actor_id=None, action="candidate_booked", entity="loop", entity_id=loop.id,
               loop_id=loop.id, details={**BY, "start": items[0]["start"], "interviews": [i.id for i in created],
                                         "plan_version_id": loop.plan_version_id})
    return created


def _require_changeable(loop: Loop, now: datetime, settings: OfferSettings) -> list[Interview]:
    if loop.status != LoopStatus.SCHEDULED:
        raise ValidationFailed("There is no booking to change on this link.")
    interviews = booked_interviews(loop)
    if not interviews:
        raise ValidationFailed("There is no interview left to change.")
    if interviews[0].start - settings.notice <= now:
        hours = settings.notice.total_seconds() / 3600
        raise ValidationFailed(f"Your first interview is less than {hours:g} hours away; to change it, reply to "
                               "the email from the recruiting team.")
    return interviews


def reschedule(session: Session, link_id: int, secret: str, start: datetime, *, now: datetime,
               settings: OfferSettings, mail: MailSettings) -> list[Interview]:
    """Move the booked loop to start at ``start``; each interview keeps its UID; commit.

    People who can stay in their round stay (the engine picks the panel afresh for the new time); anyone
    taken off gets a CANCEL, the panel and the candidate an update.

    :raise ValidationFailed: as :func:`book`, or inside the notice period.
    :raise Conflict: as :func:`book`.
    """
    with committed_or_conflict(session, TAKEN):
        link, loop = _locked(session, link_id, secret, now)
        interviews = _require_changeable(loop, now, settings)
        if start == interviews[0].start:
            raise ValidationFailed("Your interviews already start then; pick another time.")
        items, _windows = _plan_at(session, loop, link, start, now, settings)
        by_round = {i.round_key: i for i in interviews}
        old = {i.id: [s.interviewer_id for s in i.seats if s.status == SeatStatus.ACTIVE] for i in interviews}
        new_people = [person_id(p) for item in items for p in [*item["interviewers"], *item["trainees"]]]
        # The same locks as confirming: the loop (held), then everyone before or after the move, in id order.
        lock_loops_and_people(session, [loop.id], [*new_people, *(p for ids in old.values() for p in ids)], now)
        if link.offer_horizon:
            loop.windows = _day_windows(loop, items, settings)
            session.flush()
        built = build_offer_problem(session, loop, [(w.start, w.end) for w in loop.windows], now)
        errors = built.check([proposal_entry(loop.id, items)])
        if errors:
            raise Conflict(TAKEN)
        moved_from = interviews[0].start
        for item in items:
            interview = by_round[item["round"]]
            removed = _reseat(interview, item)
            interview.start, interview.end = parse_z(item["start"]), parse_z(item["end"])
            announce_moved(session, interview.id, removed, settings=mail, now=now)
        keep_alive_until(link, max(i.end for i in interviews))
        record(session, actor_id=None, action="candidate_rescheduled", entity="loop", entity_id=loop.id,
               loop_id=loop.id, reason="moved by the candidate through their link",
               details={**BY, "from": moved_from.isoformat(), "to": items[0]["start"],
                        "interviews": [i.id for i in interviews]})
    return interviews


def _reseat(interview: Interview, item: dict) -> list[int]:
    """Give the interview the item's panel; returns the people taken off (a returning seat is reactivated)."""
    wanted = {person_id(p): SeatRole.ASSESSOR for p in item["interviewers"]}
    wanted.update({person_id(p): SeatRole.TRAINEE for p in item["trainees"]})
    removed = []
    seats = {s.interviewer_id: s for s in interview.seats}
    for pid, seat in seats.items():
        if seat.status == SeatStatus.ACTIVE and pid not in wanted:
            seat.status = SeatStatus.REMOVED
            removed.append(pid)
    for pid, role in wanted.items():
        seat = seats.get(pid)
        if seat is None:
            interview.seats.append(Seat(interviewer_id=pid, role=role))
        else:
            seat.status, seat.role = SeatStatus.ACTIVE, role
    return removed


def cancel(session: Session, link_id: int, secret: str, reason: str, *, now: datetime, settings: OfferSettings,
           mail: MailSettings) -> int:
    """Cancel the booked interviews (a CANCEL to everyone on them and to the candidate) and put the loop back
    to draft, so a new time can be picked; commit. Returns how many interviews were cancelled.

    :raise ValidationFailed: no reason, nothing booked, or inside the notice period.
    """
    text = " ".join((reason or "").split()) or "cancelled by the candidate"
    if len(text) > MAX_REASON:
        raise ValidationFailed(f"Keep the reason under {MAX_REASON} characters.")
    with committed_or_conflict(session, "Your booking changed at the same moment; reload the page."):
        link, loop = _locked(session, link_id, secret, now)
        interviews = _require_changeable(loop, now, settings)
        for interview in interviews:
            interview.status = InterviewStatus.CANCELLED
            announce_cancelled(session, interview.id, settings=mail, now=now)
        loop.status = LoopStatus.DRAFT
        record(session, actor_id=None, action="candidate_cancelled", entity="loop", entity_id=loop.id,
               loop_id=loop.id, reason=text, details={**BY, "interviews": [i.id for i in interviews]})
    return len(interviews)


def set_timezone(session: Session, link_id: int, secret: str, timezone: str, *, now: datetime,
                 detected: bool = False) -> str:
    """Store the candidate's zone (from their browser, or their choice) on their loop; commit.

    :raise ValidationFailed: the link no longer works, or the zone is not an IANA name.
    """
    name = canonical_timezone(timezone) or ""
    require_timezone(name)
    try:
        link = resolve(session, link_id, secret, now)
        if link is None:
            raise ValidationFailed(GONE)
        loop = session.get(Loop, link.loop_id)
        previous = loop.candidate.timezone
        loop.candidate.timezone = name
        link.timezone_confirmed_at = now
        record(session, actor_id=None, action="candidate_timezone_set", entity="loop", entity_id=loop.id,
               loop_id=loop.id, details={**BY, "from": previous, "to": name, "detected": detected})
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return name


def submit_availability(session: Session, link_id: int, secret: str, windows: Sequence[WindowInput], *,
                        now: datetime) -> Loop:
    """Replace the draft loop's windows with the ones the candidate gave (their zone); commit.

    The coordinator schedules the loop from them as from windows they typed; the link then offers times
    inside them.

    :raise ValidationFailed: the link no longer works, the loop is booked, or a window breaks a rule.
    """
    try:
        link = resolve(session, link_id, secret, now)
        if link is None:
            raise ValidationFailed(GONE)
        loop = session.get(Loop, link.loop_id)
        if loop.status != LoopStatus.DRAFT:
            raise ValidationFailed("Your interviews are already booked; change them from the booking.")
        spans = windows_utc(windows, loop.candidate.timezone, now=now)
        if spans[0][0] < now + timedelta(hours=1):
            raise ValidationFailed("Start your windows at least an hour from now.")
        loop.windows = [LoopWindow(start=s, end=e) for s, e in spans]
        link.offer_horizon = False
        record(session, actor_id=None, action="candidate_availability", entity="loop", entity_id=loop.id,
               loop_id=loop.id, details={**BY, "windows": [[s.isoformat(), e.isoformat()] for s, e in spans]})
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return loop


def itinerary_ics(session: Session, loop_id: int, *, settings: MailSettings, now: datetime) -> bytes | None:
    """The candidate's itinerary of the loop's booked interviews (METHOD:PUBLISH, no interviewer data), or
    None when nothing is booked. Reads only."""
    loop = session.get(Loop, loop_id)
    interviews = booked_interviews(loop) if loop is not None else []
    if not interviews:
        return None
    events = [interview_event(session, i, settings, last_modified=i.updated_at or now) for i in interviews]
    return build_itinerary(events, settings.organizer, f"Your interviews for {events[0].posting_title}", now)
