"""Calendar output: iTIP invites, the candidate's itinerary, feeds, and the iMIP emails that carry them.

Pure functions over frozen dataclasses; ``now`` and UIDs are parameters, so the same input gives
the same bytes. The checklist is ``../shared/ics-conformance.md``; every kind of output passes
``../shared/tools/ics_check.py`` (see ``tests/core/calendar``). The main decisions:

* Times are UTC (``...Z``), so no VTIMEZONE is needed; bodies show each recipient's local time.
* Panels: one calendar object per change listing the whole panel, one email per recipient
  (:mod:`.invites`, :mod:`.messages`).
* Replacing an interviewer: a CANCEL with STATUS:CANCELLED to the people taken off, and a REQUEST
  to the new panel; the stored SEQUENCE rises by 2 (:mod:`.invites`).
* Cancelling: a CANCEL one below the stored SEQUENCE, which rises by 2, so what is published
  afterwards is newer than the CANCEL (:mod:`.invites`).
* The candidate gets separate events with their own UIDs and no internal data (:mod:`.itinerary`).
* Feeds and downloads are PUBLISH without ATTENDEE (:mod:`.feed`).
"""

from planner.core.calendar.events import CalendarInputError, InterviewEvent, Organizer, Person
from planner.core.calendar.feed import build_download, build_feed
from planner.core.calendar.imip import build_imip_message
from planner.core.calendar.invites import (
    CANCELLATION_SEQUENCE_STEP,
    REASSIGNMENT_SEQUENCE_STEP,
    Reassignment,
    build_cancel,
    build_reassignment,
    build_request,
)
from planner.core.calendar.itinerary import (
    build_candidate_cancel,
    build_candidate_request,
    build_itinerary,
    itinerary_uid,
)
from planner.core.calendar.localtime import local_time_range, utc_time_range
from planner.core.calendar.messages import (
    OutgoingMessage,
    candidate_message,
    panel_cancel_messages,
    panel_request_messages,
    reassignment_messages,
)
from planner.core.calendar.text import (
    candidate_html,
    candidate_text,
    interviewer_html,
    interviewer_text,
    subject_line,
)

__all__ = [
    "CANCELLATION_SEQUENCE_STEP",
    "REASSIGNMENT_SEQUENCE_STEP",
    "CalendarInputError",
    "InterviewEvent",
    "Organizer",
    "OutgoingMessage",
    "Person",
    "Reassignment",
    "build_cancel",
    "build_candidate_cancel",
    "build_candidate_request",
    "build_download",
    "build_feed",
    "build_imip_message",
    "build_itinerary",
    "build_reassignment",
    "build_request",
    "candidate_html",
    "candidate_message",
    "candidate_text",
    "interviewer_html",
    "interviewer_text",
    "itinerary_uid",
    "local_time_range",
    "panel_cancel_messages",
    "panel_request_messages",
    "reassignment_messages",
    "subject_line",
    "utc_time_range",
]
