"""Published calendars: the per-interviewer subscription feed and the single-interview download.

Both are METHOD:PUBLISH with an ORGANIZER and no ATTENDEE (RFC 5546 3.2.1: "Attendees MUST NOT be
present"), which also keeps colleagues' addresses out of a URL-shared file. They use the same UIDs
as the emailed invites, so a client that has both merges them (checklist 1.9).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from icalendar import vDuration

from planner.core.calendar.components import calendar_bytes, interviewer_vevent
from planner.core.calendar.events import CalendarInputError, InterviewEvent, Organizer, require_now


def build_feed(
    events: Sequence[InterviewEvent],
    organizer: Organizer,
    calendar_name: str,
    now: datetime,
    refresh_minutes: int = 60,
) -> bytes:
    """One interviewer's subscription feed.

    Carries NAME and X-WR-CALNAME, ``REFRESH-INTERVAL;VALUE=DURATION`` and ``X-PUBLISHED-TTL``, and
    SEQUENCE plus LAST-MODIFIED on every event so subscribed clients pick up edits. Cancelled
    interviews that are passed in stay with STATUS:CANCELLED (their SEQUENCE was bumped by the
    cancel); leave them out to drop them. An empty feed is valid: a new interviewer's calendar.

    :param refresh_minutes: the refresh hint; Google ignores it and polls every 8-24 hours.
    :raise CalendarInputError: duplicate UIDs or a non-positive refresh interval.
    """
    stamp = require_now(now)
    if isinstance(refresh_minutes, bool) or not isinstance(refresh_minutes, int) or refresh_minutes < 1:
        raise CalendarInputError("The feed refresh interval must be a whole number of minutes, at least 1.")
    if len({e.uid for e in events}) != len(events):
        raise CalendarInputError("The feed lists the same interview twice.")
    ordered = sorted(events, key=lambda e: (e.start_utc, e.uid))
    vevents = [interviewer_vevent(e, organizer, stamp, status=e.status, last_modified=True) for e in ordered]
    refresh = timedelta(minutes=refresh_minutes)
    # icalendar 7.3.2: Calendar.new(refresh_interval=...) omits the REQUIRED ;VALUE=DURATION, and an
    # X-property given a timedelta is written as "1:00:00" (checklist 2.4), hence these two forms.
    hints = [
        ("REFRESH-INTERVAL", refresh, {"VALUE": "DURATION"}),
        ("X-PUBLISHED-TTL", vDuration(refresh), None),
    ]
    return calendar_bytes("PUBLISH", vevents, name=calendar_name, extra=hints)


def build_download(event: InterviewEvent, organizer: Organizer, now: datetime) -> bytes:
    """A plain "add to calendar" file for one interview (PUBLISH, no ATTENDEE, LAST-MODIFIED).

    Meant for the interviewer page's download link, not for email: PUBLISH shows no
    Accept/Decline, and Google only applies a later CANCEL to events that a REQUEST created.
    """
    stamp = require_now(now)
    vevent = interviewer_vevent(event, organizer, stamp, status=event.status, last_modified=True)
    return calendar_bytes("PUBLISH", [vevent])
