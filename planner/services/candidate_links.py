"""Issue, send, revoke and resolve the link a candidate schedules themselves with.

A link names one loop. Its URL carries the link's id and a random secret (32 bytes from ``secrets``),
signed by the web layer; the row keeps only the secret's SHA-256, so a copy of the database opens no
loop. A link works until it expires or is revoked; issuing a new one for the loop revokes the older
ones. Once the candidate books, the link lives at least until the loop's last interview ends, so they
can come back to see, move or cancel it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from planner.core.candidate_mail import link_email
from planner.core.errors import NotFound, ValidationFailed
from planner.models import CandidateLink, Loop, LoopStatus, OutboxMessage, Posting
from planner.services import coverage as coverage_service
from planner.services.audit import record
from planner.services.invites import MailSettings, new_message_id

#: Outbox kind and method of the email that carries a link (a plain email: no calendar part).
LINK_KIND = "candidate_link"
MAX_LIFETIME_DAYS = 90


@dataclass(frozen=True)
class IssuedLink:
    """A new link: its row and the secret that goes into the URL (shown or sent once, never stored)."""

    link: CandidateLink
    secret: str


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def live_link(session: Session, loop_id: int, now: datetime) -> CandidateLink | None:
    """The loop's working link (not revoked, not expired), if any."""
    return session.scalar(select(CandidateLink).where(
        CandidateLink.loop_id == loop_id, CandidateLink.revoked_at.is_(None), CandidateLink.expires_at > now)
        .order_by(CandidateLink.id.desc()).limit(1))


def latest_link(session: Session, loop_id: int) -> CandidateLink | None:
    """The loop's most recent link, working or not."""
    return session.scalar(select(CandidateLink).where(CandidateLink.loop_id == loop_id)
                          .order_by(CandidateLink.id.desc()).limit(1))


def resolve(session: Session, link_id: object, secret: object, now: datetime) -> CandidateLink | None:
    """The working link with this id and secret; None for anything else (unknown, wrong secret, revoked,
    expired), so a caller cannot tell which and reveals nothing."""
    if not isinstance(link_id, int) or not isinstance(secret, str) or not 20 <= len(secret) <= 100:
        return None
    link = session.get(CandidateLink, link_id)
    if link is None or not hmac.compare_digest(link.secret_hash, _digest(secret)):
        return None
    if link.revoked_at is not None or link.expires_at <= now:
        return None
    return link


def _require_offerable(session: Session, loop: Loop) -> None:
    if loop.status not in (LoopStatus.DRAFT, LoopStatus.SCHEDULED):
        raise ValidationFailed(f"The loop is {loop.status.value}; a link is sent only for draft or scheduled "
                               "loops.")
    if loop.status == LoopStatus.DRAFT and not loop.coverage_override:
        try:  # the check confirming runs: a candidate's booking has no one to write an override reason
            coverage_service.require_coverage_or_override(session, loop, reason=None)
        except ValidationFailed as exc:
            raise ValidationFailed(f"{exc} A candidate cannot write that reason: schedule this loop yourself "
                                   "instead of sending a link.") from None


def issue_link(session: Session, loop_id: int, *, actor_id: int | None, now: datetime, lifetime_days: float,
               send: bool = False, url_of: Callable[[IssuedLink], str] | None = None,
               settings: MailSettings | None = None, company: str = "") -> IssuedLink:
    """Create a new link for the loop, revoking its older ones, and (with ``send``) queue the email; commit.

    Times are offered inside the loop's own windows when it has windows still ahead, else over the
    coming business days in the candidate's zone.

    :param url_of: the link's full URL (the web layer signs it); needed to send.
    :raise NotFound: no such loop.
    :raise ValidationFailed: the loop is cancelled or completed, its plan leaves a must-have uncovered
        without a written reason, or the lifetime is out of range.
    """
    loop = session.get(Loop, loop_id)
    if loop is None:
        raise NotFound(f"There is no loop #{loop_id}.")
    if not 0 < lifetime_days <= MAX_LIFETIME_DAYS:
        raise ValidationFailed(f"A link lives between a few hours and {MAX_LIFETIME_DAYS} days.")
    _require_offerable(session, loop)
    revoked = _revoke_all(session, loop.id, now)
    secret = secrets.token_urlsafe(32)
    link = CandidateLink(loop_id=loop.id, secret_hash=_digest(secret), created_by=actor_id, created_at=now,
                         offer_horizon=not any(w.end > now for w in loop.windows),
                         expires_at=now + timedelta(days=lifetime_days))
    session.add(link)
    session.flush()
    issued = IssuedLink(link, secret)
    if send:
        if url_of is None or settings is None:
            raise ValidationFailed("Sending a link needs its address and the mail settings.")
        _queue_email(session, loop, url_of(issued), link.expires_at, settings, company, now)
    record(session, actor_id=actor_id, action="candidate_link_sent" if send else "candidate_link_created",
           entity="candidate_link", entity_id=link.id, loop_id=loop.id,
           details={"expires_at": link.expires_at.isoformat(), "revoked": revoked,
                    "offer_horizon": link.offer_horizon, "to": loop.candidate.email if send else None})
    session.commit()
    return issued


def _revoke_all(session: Session, loop_id: int, now: datetime) -> list[int]:
    ids = list(session.scalars(select(CandidateLink.id).where(CandidateLink.loop_id == loop_id,
                                                              CandidateLink.revoked_at.is_(None))))
    if ids:
        session.execute(update(CandidateLink).where(CandidateLink.id.in_(ids)).values(revoked_at=now)
                        .execution_options(synchronize_session="fetch"))
    return ids


def _queue_email(session: Session, loop: Loop, url: str, expires_at: datetime, settings: MailSettings,
                 company: str, now: datetime) -> None:
    posting = session.get(Posting, loop.posting_id)
    mail = link_email(candidate_name=loop.candidate.name, role=posting.title if posting else "the role",
                      company=company or settings.organizer_name, url=url, expires_at=expires_at,
                      timezone=loop.candidate.timezone, sender_name=settings.organizer_name)
    session.add(OutboxMessage(
        message_id=new_message_id(settings), kind=LINK_KIND, method="",
        sender_email=settings.organizer_email, sender_name=settings.organizer_name[:120],
        recipient_email=loop.candidate.email, recipient_name=loop.candidate.name[:120],
        subject=mail.subject[:300], body_text=mail.text, body_html=mail.html, ics=None, loop_id=loop.id,
        sequence=0, next_attempt_at=now, created_at=now))


def revoke_link(session: Session, loop_id: int, *, actor_id: int | None, now: datetime) -> int:
    """Revoke every working link of the loop; commit. Returns how many were revoked.

    :raise NotFound: no such loop.
    :raise ValidationFailed: the loop has no working link.
    """
    if session.get(Loop, loop_id) is None:
        raise NotFound(f"There is no loop #{loop_id}.")
    ids = list(session.scalars(select(CandidateLink.id).where(
        CandidateLink.loop_id == loop_id, CandidateLink.revoked_at.is_(None), CandidateLink.expires_at > now)))
    if not ids:
        raise ValidationFailed("This loop has no working link to revoke.")
    session.execute(update(CandidateLink).where(CandidateLink.id.in_(ids)).values(revoked_at=now)
                    .execution_options(synchronize_session="fetch"))
    record(session, actor_id=actor_id, action="candidate_link_revoked", entity="candidate_link",
           entity_id=ids[-1], loop_id=loop_id, details={"links": ids})
    session.commit()
    return len(ids)


def keep_alive_until(link: CandidateLink, moment: datetime) -> None:
    """Let the link live at least until ``moment`` (the end of the booked loop); no commit."""
    if link.expires_at < moment:
        link.expires_at = moment
