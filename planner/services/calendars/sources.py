"""Setting and removing an interviewer's CalDAV calendar; the password is stored encrypted, never echoed."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from planner.core.errors import FieldError, NotFound, ValidationFailed
from planner.core.pool.caldav import MAX_SECRET, MAX_USERNAME, clean_calendar_url
from planner.models import BusyBlock, CalendarSource
from planner.queries.pool import get_interviewer
from planner.services.audit import record
from planner.services.calendars.secrets import SecretBox, SecretKeyMissing
from planner.services.calendars.settings import CalendarSettings


@dataclass(frozen=True)
class CalendarInput:
    """A calendar as typed in a form; an empty ``password`` keeps the saved one."""

    url: str
    username: str = ""
    password: str = ""


def get_calendar(session: Session, interviewer_id: int) -> CalendarSource | None:
    """The interviewer's CalDAV calendar, if one is set."""
    return session.scalar(select(CalendarSource).where(CalendarSource.interviewer_id == interviewer_id))


def set_calendar(
    session: Session,
    interviewer_id: int,
    data: CalendarInput,
    *,
    settings: CalendarSettings,
    actor_id: int | None,
) -> CalendarSource:
    """Create or change the interviewer's CalDAV calendar and commit.

    A new password is encrypted with the first configured key; an empty one keeps the saved secret.
    A changed address or user name forgets the sync state, so the next sync downloads everything.

    :raise NotFound: no such interviewer.
    :raise FieldError: a bad address, a user name or password too long, or no key to encrypt with.
    """
    person = get_interviewer(session, interviewer_id)
    url = clean_calendar_url(data.url, allow_http=settings.allow_http)
    username = (data.username or "").strip()
    if len(username) > MAX_USERNAME:
        raise FieldError("username", f"The user name is limited to {MAX_USERNAME} characters.")
    password = data.password or ""
    if len(password) > MAX_SECRET:
        raise FieldError("password", f"The password is limited to {MAX_SECRET} characters.")
    token = None
    if password:
        try:
            token = SecretBox(settings.secret_keys).encrypt(password)
        except SecretKeyMissing as exc:
            raise FieldError("password", str(exc)) from None
    source = get_calendar(session, person.id)
    created = source is None
    if source is None:
        source = CalendarSource(interviewer_id=person.id, url=url, username=username, last_error="")
        session.add(source)
    elif (source.url, source.username) != (url, username):
        source.state_token, source.state_horizon_end = None, None
    source.url, source.username = url, username
    if token is not None:
        source.secret = token
        source.state_token = None  # a new password may open a calendar the old one could not
    session.flush()
    record(
        session,
        actor_id=actor_id,
        action="calendar.set",
        entity="calendar_source",
        entity_id=source.id,
        interviewer_id=person.id,
        details={
            "created": created,
            "url": url,
            "username": username,
            # Whether the secret changed, never the secret or its token.
            "secret": "changed" if token is not None else ("kept" if source.secret else "none"),
        },
    )
    session.commit()
    return source


def remove_calendar(session: Session, interviewer_id: int, *, actor_id: int | None) -> int:
    """Remove the interviewer's CalDAV calendar and every busy block it brought; commit.

    Returns how many busy blocks went with it.

    :raise NotFound: the interviewer has no CalDAV calendar.
    """
    person = get_interviewer(session, interviewer_id)
    source = get_calendar(session, person.id)
    if source is None:
        raise NotFound(f"{person.name} has no CalDAV calendar to remove.")
    removed = (
        session.execute(
            delete(BusyBlock).where(BusyBlock.interviewer_id == person.id, BusyBlock.source == source.busy_source)
        ).rowcount
        or 0
    )
    record(
        session,
        actor_id=actor_id,
        action="calendar.remove",
        entity="calendar_source",
        entity_id=source.id,
        interviewer_id=person.id,
        details={"url": source.url, "removed_blocks": removed},
    )
    session.delete(source)
    session.commit()
    session.expire(person, ["busy_blocks"])
    return removed


def rotate_calendar_secrets(session: Session, *, settings: CalendarSettings, actor_id: int | None = None) -> int:
    """Re-encrypt every saved calendar secret under the first configured key; commit. Returns how many.

    :raise SecretKeyMissing: no key is configured.
    :raise SecretUnreadable: a secret no configured key opens (nothing is changed then).
    """
    box = SecretBox(settings.secret_keys)
    sources = list(session.scalars(select(CalendarSource).where(CalendarSource.secret.is_not(None))
                                   .order_by(CalendarSource.id)))
    try:
        for source in sources:
            source.secret = box.rotate(source.secret)
    except ValidationFailed:
        session.rollback()
        raise
    record(session, actor_id=actor_id, action="calendar.rotate_key", entity="calendar_source", entity_id=None,
           details={"secrets": len(sources)})
    session.commit()
    return len(sources)
