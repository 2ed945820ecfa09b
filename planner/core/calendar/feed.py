"""Published calendars: the per-interviewer subscription feed and the single-interview download.

Both are METHOD:PUBLISH with an ORGANIZER and no ATTENDEE (RFC 5546 3.2.1: "Attendees MUST NOT be
present"), which also keeps colleagues' addresses out of a URL-shared file. They use the same UIDs
as the emailed invites, so a client that has both merges them (checklist 1.9).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timedelta

from icalendar import Journal, vDuration

from planner.core.calendar.components import calendar_bytes, interviewer_vevent, organizer_address
from planner.core.calendar.events import CalendarInputError, InterviewEvent, Organizer, require_now

EMPTY_FEED_SUMMARY = "No interviews in this feed yet"


def empty_feed_placeholder(calendar_name: str, organizer: Organizer, stamp: datetime) -> Journal:
    """The one component of a feed that has no interview: a VJOURNAL no calendar client shows.

    RFC 5545 3.4/3.6 requires at least one component in a VCALENDAR ("1*(eventc / todoc /
    journalc / ...)"), and strict readers refuse an empty one. The alternatives fall short: a
    VTIMEZONE alone describes no event, to-do or journal entry, one of which an iTIP PUBLISH
    (RFC 5546 3.2.1, 3.4.1, 3.5.1) must carry; a VEVENT with STATUS:CANCELLED and
    TRANSP:TRANSPARENT still shows: Outlook ignores STATUS in subscriptions, Apple Calendar and
    Thunderbird draw it struck through; a VTODO lands in Thunderbird's and Nextcloud's task lists;
    an X- component is legal but Radicale refuses it. Journal entries are shown by none of Google
    Calendar, Outlook, Apple Calendar or Thunderbird, and RFC 5546 3.5.1 makes a PUBLISH of one
    VJOURNAL a valid iTIP message (DTSTAMP, DTSTART, ORGANIZER and UID, which it carries).
    STATUS:CANCELLED ("journal is removed") keeps it out of the rare journal app too.

    The UID is derived from the calendar name and the organizer's domain, so the same empty feed
    has the same bytes (and ETag) on every request.
    """
    digest = hashlib.sha256(calendar_name.encode("utf-8")).hexdigest()[:24]
    domain = organizer.email.rsplit("@", 1)[-1]
    return Journal.new(
        uid=f"empty-feed-{digest}@{domain}",
        stamp=stamp,
        start=stamp,
        summary=EMPTY_FEED_SUMMARY,
        organizer=organizer_address(organizer),
        status="CANCELLED",
    )


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
    cancel); leave them out to drop them. A feed without interviews (a new interviewer's) holds
    :func:`empty_feed_placeholder` instead, so it stays a valid calendar that shows nothing.

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
    components = vevents or [empty_feed_placeholder(calendar_name, organizer, stamp)]
    refresh = timedelta(minutes=refresh_minutes)
    # icalendar 7.3.2: Calendar.new(refresh_interval=...) omits the REQUIRED ;VALUE=DURATION, and an
    # X-property given a timedelta is written as "1:00:00" (checklist 2.4), hence these two forms.
    hints = [
        ("REFRESH-INTERVAL", refresh, {"VALUE": "DURATION"}),
        ("X-PUBLISHED-TTL", vDuration(refresh), None),
    ]
    return calendar_bytes("PUBLISH", components, name=calendar_name, extra=hints)


def build_download(event: InterviewEvent, organizer: Organizer, now: datetime) -> bytes:
    """A plain "add to calendar" file for one interview (PUBLISH, no ATTENDEE, LAST-MODIFIED).

    Meant for the interviewer page's download link, not for email: PUBLISH shows no
    Accept/Decline, and Google only applies a later CANCEL to events that a REQUEST created.
    """
    stamp = require_now(now)
    vevent = interviewer_vevent(event, organizer, stamp, status=event.status, last_modified=True)
    return calendar_bytes("PUBLISH", [vevent])
