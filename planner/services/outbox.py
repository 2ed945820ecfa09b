"""Deliver the outbox over SMTP as iMIP email: claim, send, mark, retry with backoff.

Delivery guarantees (the README's "Outbox" section says the same for operators):

* **Nothing lost.** A message is written in the transaction of the change it announces
  (:mod:`planner.services.invites`) and leaves the ``pending``/``sending`` states only when the
  SMTP server accepted it (``sent``) or refused it for good / too often (``failed``, with the reason).
* **No two workers take the same message.** A claim is a conditional UPDATE
  (``... WHERE id = :id AND <still claimable>``) that only one transaction can win; on PostgreSQL
  the candidates are first read with ``FOR UPDATE SKIP LOCKED`` so workers pass each other's rows
  instead of queueing behind them. The claim commits (state ``sending``, ``locked_by``,
  ``locked_at``) before anything is sent.
* **A crash between sending and marking** leaves the row in ``sending``. Once its lock is older than
  ``lock_timeout`` another worker re-claims it and sends the *same* email again: the Message-ID was
  fixed when the row was written, and the calendar object keeps its UID and SEQUENCE. Mail systems
  drop a repeated Message-ID and calendar clients apply a UID+SEQUENCE they already hold as a no-op,
  so the re-delivery changes nothing for the recipient. SMTP has no two-phase commit, so this
  "at least once, idempotent at the receiver" is the strongest promise available; the window is
  kept to one message by marking each message right after the server accepts it.
* **Backoff.** Every claim counts an attempt (so a message that crashes workers is not retried for
  ever); a temporary failure (server down, 4xx) schedules the next try after
  ``retry_base * 2**(attempts-1)`` seconds, capped at ``retry_max``; after ``max_attempts``, or on
  a 5xx refusal, the message is ``failed`` with the reason. A coordinator can resend it.

The worker is the one use case that commits more than once: the claim must be visible to other
workers before the slow network call, and each message is marked as soon as it is accepted.
"""

from __future__ import annotations

import secrets
import smtplib
import socket
import ssl
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage

from icalendar import Calendar
from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from planner.core.calendar import Organizer, Person, build_imip_message
from planner.core.errors import NotFound, ValidationFailed
from planner.core.mail import build_plain_message
from planner.models import OutboxMessage, OutboxState
from planner.services.audit import record

#: From of a plain email (no calendar part, so no ORGANIZER to take it from) when none is configured.
DEFAULT_SENDER = Organizer(email="recruiting@planner.example", name="Recruiting")


@dataclass(frozen=True)
class SmtpSettings:
    """Mail server and retry policy, read from MAIL_* configuration."""

    server: str | None
    port: int = 25
    username: str | None = None
    password: str | None = None
    use_tls: bool = False
    use_ssl: bool = False
    timeout: float = 10
    max_attempts: int = 8
    retry_base: int = 60
    retry_max: int = 3600
    lock_timeout: int = 300

    @classmethod
    def from_mapping(cls, config: Mapping) -> SmtpSettings:
        """Read MAIL_SERVER/PORT/USERNAME/PASSWORD/USE_TLS/USE_SSL/TIMEOUT (+ MAIL_MAX_ATTEMPTS,
        MAIL_RETRY_BASE, MAIL_RETRY_MAX, MAIL_LOCK_TIMEOUT, all optional)."""
        return cls(
            server=(str(config.get("MAIL_SERVER")).strip() or None) if config.get("MAIL_SERVER") else None,
            port=int(config.get("MAIL_PORT") or 25),
            username=config.get("MAIL_USERNAME") or None,
            password=config.get("MAIL_PASSWORD") or None,
            use_tls=bool(config.get("MAIL_USE_TLS")),
            use_ssl=bool(config.get("MAIL_USE_SSL")),
            timeout=float(config.get("MAIL_TIMEOUT") or 10),
            max_attempts=int(config.get("MAIL_MAX_ATTEMPTS") or 8),
            retry_base=int(config.get("MAIL_RETRY_BASE") or 60),
            retry_max=int(config.get("MAIL_RETRY_MAX") or 3600),
            lock_timeout=int(config.get("MAIL_LOCK_TIMEOUT") or 300),
        )

    @property
    def configured(self) -> bool:
        return bool(self.server)

    def backoff(self, attempts: int) -> timedelta:
        """Delay before the next try after ``attempts`` tries."""
        return timedelta(seconds=min(self.retry_max, self.retry_base * 2 ** max(0, attempts - 1)))


@dataclass
class DeliveryReport:
    """What one pass of the worker did."""

    sent: list[int] = field(default_factory=list)
    retrying: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)

    @property
    def claimed(self) -> int:
        return len(self.sent) + len(self.retrying) + len(self.failed)


# --- the email ------------------------------------------------------------------------------------


def _organizer_of(ics: bytes) -> Organizer:
    # From must equal the calendar's ORGANIZER, whatever the configuration says today.
    vevent = next(iter(Calendar.from_ical(ics).walk("VEVENT")))
    organizer = vevent.get("ORGANIZER")
    email = str(organizer).removeprefix("mailto:").removeprefix("MAILTO:")
    name = str(organizer.params.get("CN") or email) if hasattr(organizer, "params") else email
    return Organizer(email=email, name=name)


def render_email(message: OutboxMessage, *, date: datetime | None = None) -> EmailMessage:
    """The email of an outbox row, with its fixed Message-ID (``date`` defaults to its creation).

    A calendar message becomes an iMIP email (text/calendar part, From its ORGANIZER); a row without a
    calendar object (a reminder) becomes a plain text + HTML email from its stored sender.
    """
    if not message.is_calendar:
        return build_plain_message(
            message.sender_email or "", message.sender_name or "", message.recipient_email,
            message.recipient_name, message.subject, message.body_text, message.body_html,
            date=date or message.created_at, message_id=message.message_id,
        )
    recipient = Person(
        email=message.recipient_email, name=message.recipient_name or message.recipient_email, timezone="UTC"
    )
    return build_imip_message(
        message.ics,
        message.method,
        _organizer_of(message.ics),
        recipient,
        message.subject,
        message.body_text,
        message.body_html,
        date=date or message.created_at,
        message_id=message.message_id,
    )


def eml_bytes(message: OutboxMessage) -> bytes:
    """The message as an .eml file (what the coordinator downloads when no server is configured)."""
    return render_email(message).as_bytes()


# --- claiming -------------------------------------------------------------------------------------


def _claimable(now: datetime, lock_timeout: int):
    return or_(
        and_(OutboxMessage.state == OutboxState.PENDING, OutboxMessage.next_attempt_at <= now),
        and_(
            OutboxMessage.state == OutboxState.SENDING,
            OutboxMessage.locked_at < now - timedelta(seconds=lock_timeout),
        ),
    )


def claim(
    session: Session, *, worker_id: str, now: datetime, limit: int = 20, lock_timeout: int = 300
) -> list[int]:
    """Take up to ``limit`` due messages for ``worker_id`` and commit; no other worker gets them.

    Due: pending with ``next_attempt_at`` reached, or stuck in ``sending`` with an expired lock
    (a worker died between claiming and marking). Each claim counts one attempt.
    """
    condition = _claimable(now, lock_timeout)
    query = (
        select(OutboxMessage.id).where(condition).order_by(OutboxMessage.next_attempt_at, OutboxMessage.id)
    )
    query = query.limit(limit)
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    claimed = []
    for message_id in list(session.scalars(query)):
        result = session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == message_id, condition)
            .values(
                state=OutboxState.SENDING,
                locked_by=worker_id[:120],
                locked_at=now,
                attempts=OutboxMessage.attempts + 1,
            )
            .execution_options(synchronize_session=False)
        )
        if result.rowcount == 1:
            claimed.append(message_id)
    session.commit()
    return claimed


# --- sending --------------------------------------------------------------------------------------


class _Temporary(Exception):
    """Try again later."""


class _Permanent(Exception):
    """The server refused this message for good."""


def _connect(smtp: SmtpSettings) -> smtplib.SMTP:
    try:
        if smtp.use_ssl:
            client: smtplib.SMTP = smtplib.SMTP_SSL(
                smtp.server, smtp.port, timeout=smtp.timeout, context=ssl.create_default_context()
            )
        else:
            client = smtplib.SMTP(smtp.server, smtp.port, timeout=smtp.timeout)
        if smtp.use_tls and not smtp.use_ssl:
            client.starttls(context=ssl.create_default_context())
        if smtp.username:
            client.login(smtp.username, smtp.password or "")
    except (OSError, smtplib.SMTPException) as exc:
        raise _Temporary(
            f"cannot reach the mail server {smtp.server}:{smtp.port} ({_describe(exc)})"
        ) from exc
    return client


def _describe(exc: BaseException) -> str:
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return "; ".join(
            f"{addr} refused: {code} {_text(msg)}" for addr, (code, msg) in exc.recipients.items()
        )
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"{exc.smtp_code} {_text(exc.smtp_error)}"
    if isinstance(exc, socket.timeout | TimeoutError):
        return "timed out"
    return str(exc) or type(exc).__name__


def _text(value: bytes | str) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _send_one(client: smtplib.SMTP, email: EmailMessage, sender: str, recipient: str) -> None:
    try:
        refused = client.send_message(email, from_addr=sender, to_addrs=[recipient])
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _msg in exc.recipients.values()]
        error = _Permanent if codes and all(code >= 500 for code in codes) else _Temporary
        raise error(_describe(exc)) from exc
    except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
        raise (_Permanent if exc.smtp_code >= 500 else _Temporary)(_describe(exc)) from exc
    except (OSError, smtplib.SMTPException) as exc:
        raise _Temporary(_describe(exc)) from exc
    if refused:  # only possible with several recipients; kept for safety
        raise _Permanent("; ".join(f"{a} refused: {c} {_text(m)}" for a, (c, m) in refused.items()))


def _mark(session: Session, message_id: int, **values) -> None:
    session.execute(
        update(OutboxMessage)
        .where(OutboxMessage.id == message_id, OutboxMessage.state == OutboxState.SENDING)
        .values(locked_by=None, locked_at=None, **values)
        .execution_options(synchronize_session=False)
    )
    session.commit()


def _after_failure(
    session: Session,
    message: OutboxMessage,
    reason: str,
    *,
    permanent: bool,
    smtp: SmtpSettings,
    now: datetime,
    report: DeliveryReport,
) -> None:
    if permanent or message.attempts >= smtp.max_attempts:
        if not permanent:
            reason = f"gave up after {message.attempts} attempts: {reason}"
        _mark(session, message.id, state=OutboxState.FAILED, last_error=reason[:2000])
        report.failed.append(message.id)
    else:
        _mark(
            session,
            message.id,
            state=OutboxState.PENDING,
            last_error=reason[:2000],
            next_attempt_at=now + smtp.backoff(message.attempts),
        )
        report.retrying.append(message.id)


def deliver(session: Session, ids: Iterable[int], smtp: SmtpSettings, *, now: datetime) -> DeliveryReport:
    """Send claimed messages over one SMTP connection, marking each as soon as the server answers."""
    report = DeliveryReport()
    ids = list(ids)
    if not ids:
        return report
    # populate_existing: the claim changed these rows behind the identity map (attempts, state).
    query = select(OutboxMessage).where(OutboxMessage.id.in_(ids)).execution_options(populate_existing=True)
    messages = {m.id: m for m in session.scalars(query)}
    session.commit()  # end the read transaction; each mark below commits on its own
    client: smtplib.SMTP | None = None
    for message_id in ids:
        message = messages[message_id]
        try:
            if client is None:
                client = _connect(smtp)
            email = render_email(message, date=now)
            _send_one(client, email, str(email["From"].addresses[0].addr_spec), message.recipient_email)
        except _Permanent as exc:
            _after_failure(session, message, str(exc), permanent=True, smtp=smtp, now=now, report=report)
        except _Temporary as exc:
            _after_failure(session, message, str(exc), permanent=False, smtp=smtp, now=now, report=report)
            client = _drop(client)  # the connection may be unusable; the next message reconnects
        else:
            _mark(session, message.id, state=OutboxState.SENT, sent_at=now, last_error="")
            report.sent.append(message.id)
    _drop(client)
    return report


def _drop(client: smtplib.SMTP | None) -> None:
    if client is not None:
        try:
            client.quit()
        except (OSError, smtplib.SMTPException):
            client.close()


def run_once(
    session: Session, smtp: SmtpSettings, *, worker_id: str, now: datetime, batch: int = 20
) -> DeliveryReport:
    """Claim one batch of due messages and deliver it."""
    ids = claim(session, worker_id=worker_id, now=now, limit=batch, lock_timeout=smtp.lock_timeout)
    return deliver(session, ids, smtp, now=now)


# --- the coordinator's actions --------------------------------------------------------------------


def resend(session: Session, message_id: int, *, actor_id: int | None, now: datetime) -> OutboxMessage:
    """Put a failed or sent message back in the queue, due now; commits.

    :raise NotFound: no such message.
    :raise ValidationFailed: the message is already waiting or being sent.
    """
    message = session.get(OutboxMessage, message_id)
    if message is None:
        raise NotFound(f"Outbox message {message_id} does not exist.")
    if message.state not in (OutboxState.FAILED, OutboxState.SENT):
        raise ValidationFailed(
            "This message is already queued for delivery; only sent or failed ones can be resent."
        )
    previous = message.state.value
    if message.state == OutboxState.SENT:
        # A deliberate second copy needs its own Message-ID, or mail systems would drop it as a repeat.
        domain = message.message_id.rstrip(">").rpartition("@")[2] or "planner.example"
        message.message_id = f"<outbox-{secrets.token_hex(16)}@{domain}>"
    message.state = OutboxState.PENDING
    message.attempts = 0
    message.next_attempt_at = now
    message.locked_by = None
    message.locked_at = None
    message.last_error = ""
    record(
        session,
        actor_id=actor_id,
        action="outbox.resend",
        entity="outbox_message",
        entity_id=message.id,
        details={"previous_state": previous, "recipient": message.recipient_email},
        loop_id=message.loop_id,
    )
    session.commit()
    return message
