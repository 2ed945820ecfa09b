"""The plain inputs of every calendar builder: an interview, the people on it, the organizer.

The builders never look anything up. Services turn ORM rows into these frozen dataclasses, and
the constructors reject values that would produce a broken or unsafe calendar file or email
(a UID with ``,``/``;``, a header-injecting name, a ``javascript:`` link, an unknown time zone).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from planner.core.errors import ValidationFailed

EventStatus = Literal["CONFIRMED", "CANCELLED"]

# RFC 5545 UID is TEXT; keeping it to this set means it never needs escaping (checklist 1.2).
_UID_RE = re.compile(r"^[A-Za-z0-9._@-]{1,255}$")
# Deliberately narrower than RFC 5322: no quotes, spaces or brackets, so the address is safe both as
# a ``mailto:`` URI in iCalendar and in an email header.
_EMAIL_RE = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


class CalendarInputError(ValidationFailed):
    """A value given to a calendar builder cannot produce a valid invite."""


def _require_text(value: str, what: str, *, multiline: bool = False) -> None:
    if not isinstance(value, str) or not value.strip():
        raise CalendarInputError(f"The {what} must not be empty.")
    checked = value.replace("\n", "") if multiline else value
    if _CONTROL_RE.search(checked):
        raise CalendarInputError(f"The {what} contains a control character; remove line breaks and tabs.")


def _require_email(value: str, what: str) -> None:
    if not isinstance(value, str) or not _EMAIL_RE.match(value):
        raise CalendarInputError(f"The {what} email address {value!r} is not a plain user@domain address.")


def _require_web_url(value: str | None, what: str) -> None:
    # Only http(s): these links end up as href attributes in HTML email bodies.
    if value is None:
        return
    if not isinstance(value, str) or not re.match(r"^https?://[^\s<>\"]+$", value):
        raise CalendarInputError(f"The {what} {value!r} must be an http(s):// address without spaces.")


def _require_utc_instant(value: datetime, what: str) -> None:
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        raise CalendarInputError(f"The {what} must be a timezone-aware datetime.")


def to_utc(value: datetime) -> datetime:
    """Return an aware datetime as UTC, truncated to whole seconds (iCalendar has no fractions)."""
    return value.astimezone(UTC).replace(microsecond=0)


def zone(name: str) -> ZoneInfo:
    """Return the tz database zone ``name`` or raise :class:`CalendarInputError`."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError) as exc:
        message = f"{name!r} is not a time zone of the tz database (e.g. Europe/Berlin)."
        raise CalendarInputError(message) from exc


@dataclass(frozen=True)
class Organizer:
    """The constant mailbox that sends every invite and receives the replies."""

    email: str
    name: str

    def __post_init__(self) -> None:
        _require_email(self.email, "organizer")
        _require_text(self.name, "organizer name")


@dataclass(frozen=True)
class Person:
    """Somebody who receives calendar messages: an interviewer, a trainee or the candidate."""

    email: str
    name: str
    timezone: str

    def __post_init__(self) -> None:
        _require_email(self.email, f"{self.name!r}")
        _require_text(self.name, "person's name")
        zone(self.timezone)


@dataclass(frozen=True)
class InterviewEvent:
    """One interview round as the calendar shows it.

    ``uid`` is the interview's stable calendar UID and ``sequence`` the SEQUENCE value the message
    being built carries (the caller bumps and stores it). ``last_modified_utc`` is when the
    interview last changed; feeds need it. ``internal_notes`` reach interviewers only.
    """

    uid: str
    sequence: int
    start_utc: datetime
    end_utc: datetime
    last_modified_utc: datetime
    candidate_name: str
    posting_title: str
    round_name: str
    competencies: tuple[str, ...] = ()
    focus_questions: tuple[str, ...] = ()
    location: str | None = None
    video_url: str | None = None
    interviewer_page_url: str | None = None
    status: EventStatus = "CONFIRMED"
    internal_notes: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.uid, str) or not _UID_RE.match(self.uid):
            raise CalendarInputError(
                f"The calendar UID {self.uid!r} may only use letters, digits and . _ @ - characters."
            )
        if isinstance(self.sequence, bool) or not isinstance(self.sequence, int) or self.sequence < 0:
            raise CalendarInputError(f"The SEQUENCE {self.sequence!r} must be a whole number of 0 or more.")
        for what, value in (
            ("start", self.start_utc),
            ("end", self.end_utc),
            ("last-modified time", self.last_modified_utc),
        ):
            _require_utc_instant(value, f"interview {what}")
        if to_utc(self.end_utc) - to_utc(self.start_utc) < timedelta(seconds=1):
            raise CalendarInputError("The interview must end after it starts.")
        for what, value in (
            ("candidate name", self.candidate_name),
            ("posting title", self.posting_title),
            ("round name", self.round_name),
        ):
            _require_text(value, what)
        if not isinstance(self.competencies, tuple) or not isinstance(self.focus_questions, tuple):
            raise CalendarInputError("Competencies and focus questions must be tuples of text.")
        for item in self.competencies + self.focus_questions:
            _require_text(item, "competency or focus question", multiline=True)
        if self.location is not None:
            _require_text(self.location, "location", multiline=True)
        if self.internal_notes is not None:
            _require_text(self.internal_notes, "internal notes", multiline=True)
        _require_web_url(self.video_url, "video link")
        _require_web_url(self.interviewer_page_url, "interviewer page link")
        if self.status not in ("CONFIRMED", "CANCELLED"):
            raise CalendarInputError(f"The status {self.status!r} must be CONFIRMED or CANCELLED.")


def require_now(now: datetime) -> datetime:
    """Validate the ``now`` every builder takes and return it as UTC whole seconds (for DTSTAMP)."""
    _require_utc_instant(now, "current time ('now')")
    return to_utc(now)
