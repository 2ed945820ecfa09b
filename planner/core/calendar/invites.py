"""iTIP messages to the interview panel: invite/update (REQUEST), cancel, and reassignment.

Decisions (checklist ``ics-conformance.md`` sections 1.1-1.4):

* **One calendar object per change, one email per recipient.** The REQUEST lists the whole panel
  (assessors as REQ-PARTICIPANT, trainees as OPT-PARTICIPANT, all RSVP=TRUE) and the same bytes
  are mailed to each attendee separately, so every recipient is an ATTENDEE (Gmail, Outlook and
  Thunderbird only offer Accept/Decline then) and each body shows that person's local time.
* **Updates** are REQUESTs with the same UID and a higher SEQUENCE; the caller bumps and stores
  ``event.sequence`` on any change of time, place or status before calling.
* **Cancel** is METHOD:CANCEL with STATUS:CANCELLED and a higher SEQUENCE, never a REQUEST with
  STATUS:CANCELLED (Google and Outlook would keep the event). A cancellation raises the stored
  SEQUENCE by :data:`CANCELLATION_SEQUENCE_STEP` (2) and the CANCEL carries one less: the copies
  published after it (feed, download, itinerary, export) carry the stored value with
  STATUS:CANCELLED, so a client that holds the CANCEL sees them as a newer version, not a replay
  of the CANCEL (RFC 5546 2.1.4 and 2.1.5 order versions by SEQUENCE first).
* **Replacing an interviewer** sends the people taken off a CANCEL with STATUS:CANCELLED that lists
  only them, and sends the new panel a REQUEST. RFC 5546 3.2.5 describes a STATUS-less "un-invite"
  CANCEL for this, but ``ics_check.py`` flags it unless ``--allow-uninvite`` is given, and for the
  removed person's calendar a full cancel has exactly the intended effect: the event disappears.
  Nobody else receives that CANCEL, so the event lives on for the new panel. To keep every
  version strictly ordered for any client that sees both, the CANCEL carries ``sequence - 1`` and
  the REQUEST ``sequence``: a reassignment raises the stored SEQUENCE by
  :data:`REASSIGNMENT_SEQUENCE_STEP` (2), so the CANCEL is still above anything sent before.
  When the same change moves the interview, the CANCEL shows the time the people taken off last
  had (the event they are asked to remove), and lists each with the role they had: a trainee stays
  an OPT-PARTICIPANT.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from planner.core.calendar.components import attendee_list, calendar_bytes, interviewer_vevent
from planner.core.calendar.events import CalendarInputError, InterviewEvent, Organizer, Person, require_now

#: How much a reassignment raises the stored SEQUENCE: one step for the CANCEL to the people taken
#: off, one for the REQUEST to the new panel.
REASSIGNMENT_SEQUENCE_STEP = 2
#: How much a cancellation raises the stored SEQUENCE: one step for the CANCEL that is mailed, one
#: for the cancelled copy that feeds, downloads and exports publish afterwards.
CANCELLATION_SEQUENCE_STEP = 2


@dataclass(frozen=True)
class Reassignment:
    """The two calendar objects of a panel change: to the people removed, and to the new panel."""

    cancel_for_removed: bytes
    request_for_panel: bytes


def build_request(
    event: InterviewEvent,
    organizer: Organizer,
    assessors: Sequence[Person],
    now: datetime,
    *,
    trainees: Sequence[Person] = (),
) -> bytes:
    """METHOD:REQUEST for a new interview or an update of it (same UID, higher SEQUENCE).

    :param event: the interview as it now is; ``event.sequence`` is emitted as given.
    :param assessors: the interviewers who assess; each is mailed the same bytes.
    :param trainees: shadowing interviewers, listed as optional participants.
    :param now: when the message is generated; becomes DTSTAMP.
    :raise CalendarInputError: the event is cancelled, the panel is empty or has duplicates.
    """
    stamp = require_now(now)
    if event.status != "CONFIRMED":
        raise CalendarInputError("A cancelled interview is announced with build_cancel, not a REQUEST.")
    vevent = interviewer_vevent(
        event, organizer, stamp, status="CONFIRMED", attendees=attendee_list(organizer, assessors, trainees)
    )
    return calendar_bytes("REQUEST", [vevent])


def build_cancel(
    event: InterviewEvent,
    organizer: Organizer,
    attendees: Sequence[Person],
    now: datetime,
    *,
    trainees: Sequence[Person] = (),
) -> bytes:
    """METHOD:CANCEL with STATUS:CANCELLED that removes the interview from the attendees' calendars.

    ``event.sequence`` must already be higher than the last version sent (the caller bumps and
    stores it). ``attendees`` are the people this CANCEL is mailed to.

    :raise CalendarInputError: the sequence is 0 (nothing earlier can be cancelled) or no attendees.
    """
    stamp = require_now(now)
    if event.sequence < 1:
        raise CalendarInputError("A cancellation needs a SEQUENCE above the invite's; bump it first.")
    vevent = interviewer_vevent(
        event, organizer, stamp, status="CANCELLED", attendees=attendee_list(organizer, attendees, trainees)
    )
    return calendar_bytes("CANCEL", [vevent])


def removed_version(
    event: InterviewEvent, previous_time: tuple[datetime, datetime] | None = None
) -> InterviewEvent:
    """The interview as the people taken off it are told: one SEQUENCE below ``event`` and, when the
    same change moves it, at ``previous_time`` (start, end), the time they had in their calendar."""
    version = replace(event, sequence=event.sequence - 1)
    if previous_time is not None:
        version = replace(version, start_utc=previous_time[0], end_utc=previous_time[1])
    return version


def build_reassignment(
    event: InterviewEvent,
    organizer: Organizer,
    removed: Sequence[Person],
    assessors: Sequence[Person],
    now: datetime,
    *,
    trainees: Sequence[Person] = (),
    removed_trainees: Sequence[Person] = (),
    previous_time: tuple[datetime, datetime] | None = None,
) -> Reassignment:
    """A CANCEL for the people taken off the panel and a REQUEST for the new panel.

    ``event.sequence`` is the stored SEQUENCE after raising it by
    :data:`REASSIGNMENT_SEQUENCE_STEP`; the REQUEST carries it and the CANCEL one less.

    :param removed: assessors taken off; they get the CANCEL (and must not be on the new panel).
    :param assessors: the new panel's assessors (kept and added alike: everyone gets the update).
    :param removed_trainees: trainees taken off, listed in the CANCEL as optional participants.
    :param previous_time: (start, end) before this change, when it also moves the interview: the
        CANCEL shows the time the people taken off had.
    :raise CalendarInputError: nobody removed, a removed person still on the panel, or a sequence
        too low to have been raised by the step.
    """
    if not removed and not removed_trainees:
        raise CalendarInputError("A reassignment needs at least one person taken off the interview.")
    if event.sequence < REASSIGNMENT_SEQUENCE_STEP:
        raise CalendarInputError("Raise the SEQUENCE by 2 before a reassignment (CANCEL, then REQUEST).")
    staying = {p.email.lower() for p in [*assessors, *trainees]}
    if any(p.email.lower() in staying for p in [*removed, *removed_trainees]):
        raise CalendarInputError("A person cannot be both taken off and kept on the interview.")
    cancel = build_cancel(
        removed_version(event, previous_time), organizer, removed, now, trainees=removed_trainees
    )
    request = build_request(event, organizer, assessors, now, trainees=trainees)
    return Reassignment(cancel_for_removed=cancel, request_for_panel=request)
