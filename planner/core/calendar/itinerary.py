"""The candidate's itinerary: the same interviews, seen from the candidate's side.

Decisions (checklist 1.3 "Privacy"):

* **Own UIDs.** Every recipient of a calendar object sees its whole ATTENDEE list, so the candidate
  never gets the interviewers' object. Each round has a candidate copy with the UID
  :func:`itinerary_uid` (``itinerary-<interview uid>``), no interviewer addresses, no competencies,
  focus questions or internal notes: round name, position, time and place only.
* **One event per round**, not one for the day: rounds move independently, and a per-round copy
  can reuse the interview's SEQUENCE (every change the interview announces also bumps the
  candidate's copy), so nothing extra has to be stored.
* **Two shapes.** Emailed: one REQUEST (or CANCEL) per round with the candidate as the only
  ATTENDEE, so updates and cancellations apply in their calendar (Google only removes events that
  a REQUEST created). Downloaded or exported: :func:`build_itinerary`, one METHOD:PUBLISH file with
  every round and no ATTENDEE, as RFC 5546 3.2.1 requires.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from planner.core.calendar.components import attendee_list, calendar_bytes, candidate_vevent
from planner.core.calendar.events import CalendarInputError, InterviewEvent, Organizer, Person, require_now

ITINERARY_UID_PREFIX = "itinerary-"


def itinerary_uid(interview_uid: str) -> str:
    """The candidate copy's UID, derived from (and as stable as) the interview's UID."""
    return ITINERARY_UID_PREFIX + interview_uid


def build_itinerary(
    events: Sequence[InterviewEvent], organizer: Organizer, calendar_name: str, now: datetime
) -> bytes:
    """METHOD:PUBLISH file with one candidate event per round, ordered by start time.

    Cancelled rounds that are passed in stay in the file with STATUS:CANCELLED, so a re-import
    marks them cancelled instead of leaving a stale copy; leave them out to drop them.

    :param calendar_name: shown as NAME and X-WR-CALNAME, e.g. "Your interviews at Hire Example".
    :raise CalendarInputError: no rounds, or two rounds with the same UID.
    """
    stamp = require_now(now)
    if not events:
        raise CalendarInputError("An itinerary needs at least one interview.")
    if len({e.uid for e in events}) != len(events):
        raise CalendarInputError("The itinerary lists the same interview twice.")
    ordered = sorted(events, key=lambda e: (e.start_utc, e.uid))
    vevents = [
        candidate_vevent(e, itinerary_uid(e.uid), organizer, stamp, status=e.status, last_modified=True)
        for e in ordered
    ]
    return calendar_bytes("PUBLISH", vevents, name=calendar_name)


def build_candidate_request(
    event: InterviewEvent, organizer: Organizer, candidate: Person, now: datetime
) -> bytes:
    """METHOD:REQUEST of one round for the candidate alone (invite or update).

    :raise CalendarInputError: the round is cancelled (use :func:`build_candidate_cancel`).
    """
    stamp = require_now(now)
    if event.status != "CONFIRMED":
        raise CalendarInputError("A cancelled interview is announced with build_candidate_cancel.")
    vevent = candidate_vevent(
        event,
        itinerary_uid(event.uid),
        organizer,
        stamp,
        status="CONFIRMED",
        attendees=attendee_list(organizer, [candidate]),
    )
    return calendar_bytes("REQUEST", [vevent])


def build_candidate_cancel(
    event: InterviewEvent, organizer: Organizer, candidate: Person, now: datetime
) -> bytes:
    """METHOD:CANCEL of one round for the candidate (``event.sequence`` already bumped).

    :raise CalendarInputError: the sequence is 0.
    """
    stamp = require_now(now)
    if event.sequence < 1:
        raise CalendarInputError("A cancellation needs a SEQUENCE above the invite's; bump it first.")
    vevent = candidate_vevent(
        event,
        itinerary_uid(event.uid),
        organizer,
        stamp,
        status="CANCELLED",
        attendees=attendee_list(organizer, [candidate]),
    )
    return calendar_bytes("CANCEL", [vevent])
