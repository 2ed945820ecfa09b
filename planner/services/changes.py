"""Changing one interview of a scheduled loop: reschedule it, cancel it, change its place.

Each function validates, changes the rows, queues the calendar messages (same UID, SEQUENCE + 1) in the
same transaction, audits the change with its reason and commits once; bad input changes nothing.
Interviewer replacement lives in :mod:`planner.services.replacements`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from planner.core.errors import Conflict, ValidationFailed
from planner.models import Interview, InterviewStatus, SeatStatus
from planner.services.audit import record
from planner.services.invites import MailSettings, announce_cancelled, announce_changed
from planner.services.loop_state import (
    clean_reason,
    get_interview,
    grid_starts,
    load_state,
    moved,
    require_changeable,
)
from planner.services.scheduling_problem import iso_z, parse_z
from planner.services.transaction import SOMEONE_ELSE, committed_or_conflict

MAX_LOCATION, MAX_URL = 200, 500


def reschedule_options(session: Session, interview_id: int, *, now: datetime) -> list[datetime]:
    """Every start (UTC) the interview can move to with the same panel while every rule still holds.

    Other interviews of the loop stay where they are; starts lie in the candidate's windows, after now.

    :raise ValidationFailed: when the interview cannot change.
    """
    interview = get_interview(session, interview_id)
    require_changeable(interview, now)
    state = load_state(session, interview.loop_id, now=now)
    interview = state.interviews[interview_id]
    item, minutes = state.item(interview), state.round(interview)["minutes"]
    return [start for start in grid_starts(state, interview, now)
            if start != interview.start and not state.new_errors({interview_id: moved(item, start, minutes)})]


def reschedule_interview(session: Session, interview_id: int, start: datetime, *, reason: str,
                         actor_id: int | None, now: datetime, settings: MailSettings) -> Interview:
    """Move one interview to ``start`` (same panel) after re-checking every rule under lock; commit.

    :raise ValidationFailed: no reason, the interview cannot change, or the start breaks a rule.
    :raise Conflict: someone changed these people's calendars at the same moment; nothing is written.
    """
    text = clean_reason(reason, "interview moves")
    interview = get_interview(session, interview_id)
    require_changeable(interview, now)
    target = parse_z(start.isoformat())
    if target == interview.start:
        raise ValidationFailed("The interview already starts then; pick another time.")
    people = [s.interviewer_id for s in interview.seats if s.status == SeatStatus.ACTIVE]
    with committed_or_conflict(session, SOMEONE_ELSE + "pick again from the fresh list."):
        state = load_state(session, interview.loop_id, now=now, lock=True, people=people)
        interview = state.interviews.get(interview_id)
        if interview is None:
            raise Conflict("The interview was cancelled meanwhile; reload the loop.")
        minutes = state.round(interview)["minutes"]
        item = moved(state.item(interview), target, minutes)
        if target <= now:
            raise ValidationFailed("That time is in the past; pick one from the list.")
        errors = state.new_errors({interview_id: item})
        if errors:
            raise ValidationFailed(f"The interview cannot move there: {errors[0]}. Pick one from the list.")
        old = iso_z(interview.start)
        interview.start, interview.end = parse_z(item["start"]), parse_z(item["end"])
        announce_changed(session, interview_id, settings=settings, now=now)
        record(session, actor_id=actor_id, action="interview_rescheduled", entity="interview",
               entity_id=interview_id, reason=text,
               details={"loop_id": interview.loop_id, "round_name": interview.round_name, "from": old,
                        "to": item["start"]})
    return interview


def cancel_interview(session: Session, interview_id: int, reason: str, *, actor_id: int | None,
                     now: datetime, settings: MailSettings) -> Interview:
    """Cancel one interview: status cancelled, a CANCEL to its panel and the candidate, audited; commit.

    The loop stays scheduled; its view flags the round's competencies as no longer covered.

    :raise ValidationFailed: no reason, or the interview cannot change.
    """
    text = clean_reason(reason, "interview is cancelled")
    interview = get_interview(session, interview_id)
    require_changeable(interview, now)
    try:
        interview.status = InterviewStatus.CANCELLED
        announce_cancelled(session, interview_id, settings=settings, now=now)
        record(session, actor_id=actor_id, action="interview_cancelled", entity="interview",
               entity_id=interview_id, reason=text, details={"loop_id": interview.loop_id,
                                                             "round": interview.round_key,
                                                             "round_name": interview.round_name})
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return interview


def _place(location: str | None, video_url: str | None) -> tuple[str, str]:
    place = " ".join((location or "").split())
    url = (video_url or "").strip()
    if len(place) > MAX_LOCATION:
        raise ValidationFailed(f"Keep the location under {MAX_LOCATION} characters.")
    if len(url) > MAX_URL:
        raise ValidationFailed(f"Keep the video link under {MAX_URL} characters.")
    if url and not url.startswith(("https://", "http://")):
        raise ValidationFailed("The video link must start with https://.")
    if any(c in url for c in " \t\r\n<>\""):
        raise ValidationFailed("The video link has spaces or quotes in it; paste the link alone.")
    return place, url


def update_place(session: Session, interview_id: int, *, location: str | None, video_url: str | None,
                 whole_loop: bool = False, reason: str = "", actor_id: int | None, now: datetime,
                 settings: MailSettings) -> int:
    """Set the location and video link of one interview, or of every upcoming interview of its loop; commit.

    Each interview whose place changes gets an update (same UID, SEQUENCE + 1). With ``whole_loop``
    the loop's own defaults change too. Returns how many interviews changed.

    :raise ValidationFailed: a bad link, nothing to change, or the interview cannot change.
    """
    place, url = _place(location, video_url)
    interview = get_interview(session, interview_id)
    require_changeable(interview, now)
    loop = interview.loop
    targets = [i for i in loop.interviews if i.status == InterviewStatus.SCHEDULED and i.start > now] \
        if whole_loop else [interview]
    changed = [i for i in targets if (i.location, i.video_url) != (place, url)]
    if not changed and (not whole_loop or (loop.location, loop.video_url) == (place, url)):
        raise ValidationFailed("That is already the place; nothing was sent.")
    try:
        if whole_loop:
            loop.location, loop.video_url = place, url
        for item in changed:
            item.location, item.video_url = place, url
            announce_changed(session, item.id, settings=settings, now=now)
        record(session, actor_id=actor_id, action="interview_place_changed",
               entity="loop" if whole_loop else "interview", entity_id=loop.id if whole_loop else interview_id,
               reason=" ".join((reason or "").split())[:2000] or "place changed",
               details={"interviews": [i.id for i in changed], "location": place, "video_url": url,
                        "round_name": None if whole_loop else interview.round_name},
               loop_id=loop.id)
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return len(changed)
