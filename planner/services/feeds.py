"""Per-interviewer calendar feeds and single-interview downloads, and rotating the feed token.

The feed is METHOD:PUBLISH (no ATTENDEE), built by ``planner.core.calendar.build_feed`` from the
interviewer's seats that were not taken away: upcoming interviews and those of the last
``PAST_DAYS``; cancelled ones stay for ``CANCELLED_DAYS`` after the cancellation with
STATUS:CANCELLED so subscribed calendars drop them, then leave the feed.

The bytes depend only on the data, never on the request time: DTSTAMP is the latest change of
anything in the feed, so an unchanged feed has an unchanged ETag and clients get 304.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from planner.core.calendar import build_download, build_feed
from planner.core.errors import NotFound
from planner.models import Interview, Interviewer, InterviewStatus, Loop, Posting, Seat, SeatStatus
from planner.services.audit import record
from planner.services.invite_events import interview_event
from planner.services.invites import MailSettings

PAST_DAYS = 30
FUTURE_DAYS = 365
CANCELLED_DAYS = 14
#: token_urlsafe(32) is 43 characters of 256 random bits.
TOKEN_BYTES = 32
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


@dataclass(frozen=True)
class Feed:
    """A rendered feed and its strong validator."""

    body: bytes
    etag: str
    interviewer_name: str


def new_feed_token() -> str:
    """An unguessable feed token (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def feed_interviews(session: Session, interviewer_id: int, now: datetime) -> list[Interview]:
    """The interviews an interviewer's feed lists, earliest first."""
    query = (
        select(Interview)
        .join(Seat, Seat.interview_id == Interview.id)
        .where(
            Seat.interviewer_id == interviewer_id,
            Seat.status != SeatStatus.REMOVED,
            Interview.end >= now - timedelta(days=PAST_DAYS),
            Interview.start <= now + timedelta(days=FUTURE_DAYS),
        )
        .options(selectinload(Interview.loop).selectinload(Loop.candidate))
        .order_by(Interview.start, Interview.id)
    )
    keep_cancelled_after = now - timedelta(days=CANCELLED_DAYS)
    return [
        i
        for i in session.scalars(query)
        if i.status != InterviewStatus.CANCELLED or (i.updated_at or i.created_at) >= keep_cancelled_after
    ]


def feed_for_token(session: Session, token: str, *, settings: MailSettings, now: datetime) -> Feed | None:
    """The feed behind ``token``, or None when no interviewer has that token."""
    if not isinstance(token, str) or not _TOKEN_RE.match(token):
        return None  # never let odd bytes (NUL, 10 kB strings) reach the database
    interviewer = session.scalar(select(Interviewer).where(Interviewer.feed_token == token))
    if interviewer is None:
        return None
    interviews = feed_interviews(session, interviewer.id, now)
    # One query for every posting the events name; held here so the builder's session.get finds them loaded.
    postings = session.scalars(select(Posting).where(Posting.id.in_({i.loop.posting_id for i in interviews}))).all()
    events = [
        interview_event(session, i, settings, last_modified=i.updated_at or i.created_at) for i in interviews
    ]
    stamp = max([e.last_modified_utc for e in events] + [interviewer.created_at])
    body = build_feed(events, settings.organizer, f"Interviews – {interviewer.name}", stamp)
    del postings
    return Feed(body=body, etag=hashlib.sha256(body).hexdigest()[:32], interviewer_name=interviewer.name)


def rotate_feed_token(session: Session, interviewer_id: int, *, actor_id: int | None) -> str:
    """Give the interviewer a new feed token (the old URL stops working at once); commits.

    :raise NotFound: no such interviewer.
    """
    interviewer = session.get(Interviewer, interviewer_id)
    if interviewer is None:
        raise NotFound(f"Interviewer {interviewer_id} does not exist.")
    interviewer.feed_token = new_feed_token()
    record(session, actor_id=actor_id, action="feed.rotate", entity="interviewer", entity_id=interviewer.id,
           interviewer_id=interviewer.id)
    session.commit()
    return interviewer.feed_token


class InterviewCancelled(NotFound):
    """The interview was cancelled: there is nothing to add to a calendar any more."""

    def __init__(self, message: str, interview: Interview) -> None:
        super().__init__(message)
        self.interview = interview


def interview_download(
    session: Session, interviewer_id: int, interview_id: int, *, settings: MailSettings, now: datetime
) -> tuple[bytes, Interview]:
    """An "add to calendar" file of one of the interviewer's own interviews.

    A cancelled interview has no such file. A download is imported, not read as an iTIP message:
    a PUBLISH copy with STATUS:CANCELLED is added as a live appointment by clients that ignore
    STATUS on import (Outlook), and a CANCEL opened from a download does different things in
    different clients. Offering no file is the one answer every client handles alike: nothing is
    added. The cancellation itself reached the interviewer by email and through the feed.

    :raise InterviewCancelled: the interview was cancelled (a NotFound, for callers that only know that).
    :raise NotFound: the interview does not exist or the interviewer holds no seat on it.
    """
    interview = session.scalar(
        select(Interview)
        .join(Seat, Seat.interview_id == Interview.id)
        .where(
            Interview.id == interview_id,
            Seat.interviewer_id == interviewer_id,
            Seat.status != SeatStatus.REMOVED,
        )
    )
    if interview is None:
        raise NotFound("No such interview on your schedule.")
    if interview.status == InterviewStatus.CANCELLED:
        raise InterviewCancelled("This interview was cancelled, so there is nothing to add to your calendar.",
                                 interview)
    event = interview_event(session, interview, settings, last_modified=interview.updated_at or now)
    return build_download(event, settings.organizer, now), interview
