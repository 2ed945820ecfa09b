"""Poll the organizer's IMAP mailbox for calendar answers; each message is processed exactly once.

Exactly once, without trusting flags: every message is keyed by ``<mailbox>:<UIDVALIDITY>:<UID>``
(RFC 3501: a UID never names another message while UIDVALIDITY stays the same). The key is written
with the change the message causes, in one transaction (:func:`planner.services.replies.process_message`,
unique constraint on ``inbound_messages.imap_key``). Only after that commit is the message marked
``\\Seen`` for the humans reading the mailbox. A poller killed before the commit leaves nothing behind
and the message is processed on restart; one killed after it finds the key on restart, skips the
message and marks it then. Messages are listed with ``UID SEARCH ALL`` and compared with the keys
already recorded, so a message someone opened (and so marked \\Seen) in a mail client is still read.

A message larger than the inbound size cap is refused on the size the server reports (``RFC822.SIZE``):
only its first header bytes are fetched, to show who sent it.
"""

from __future__ import annotations

import imaplib
import re
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.core.errors import PlannerError
from planner.core.inbound import InboundLimits
from planner.models import InboundMessage
from planner.services.replies import process_message

#: Keys looked up per query (well under every database's bound-parameter limit).
KEY_CHUNK = 500
#: Of a message refused on its size, only this much of the header is fetched (to show who sent it).
HEADER_BYTES = 65536


class MailboxUnavailable(PlannerError):
    """The IMAP server cannot be reached, refuses the login, or has no such mailbox."""


@dataclass(frozen=True)
class ImapSettings:
    """The organizer mailbox the calendar answers arrive in, from IMAP_* configuration."""

    server: str | None
    port: int = 993
    username: str | None = None
    password: str | None = None
    use_ssl: bool = True
    starttls: bool = False
    mailbox: str = "INBOX"
    poll_seconds: float = 60
    timeout: float = 30
    max_bytes: int = 1_000_000

    @classmethod
    def from_mapping(cls, config: Mapping) -> ImapSettings:
        """Read IMAP_SERVER/PORT/USERNAME/PASSWORD/USE_SSL/STARTTLS/MAILBOX/POLL_SECONDS/TIMEOUT and
        INBOUND_MAX_BYTES; the port defaults to 993 with SSL and 143 without."""
        use_ssl = bool(config.get("IMAP_USE_SSL", True))
        server = str(config.get("IMAP_SERVER") or "").strip() or None
        return cls(
            server=server,
            port=int(config.get("IMAP_PORT") or (993 if use_ssl else 143)),
            username=config.get("IMAP_USERNAME") or None,
            password=config.get("IMAP_PASSWORD") or None,
            use_ssl=use_ssl,
            starttls=bool(config.get("IMAP_STARTTLS")),
            mailbox=str(config.get("IMAP_MAILBOX") or "INBOX"),
            poll_seconds=float(config.get("IMAP_POLL_SECONDS") or 60),
            timeout=float(config.get("IMAP_TIMEOUT") or 30),
            max_bytes=int(config.get("INBOUND_MAX_BYTES") or 1_000_000),
        )

    @property
    def configured(self) -> bool:
        return bool(self.server)

    @property
    def limits(self) -> InboundLimits:
        return InboundLimits(max_bytes=self.max_bytes)


@dataclass
class PollReport:
    """What one pass over the mailbox did: the inbox rows it wrote, by outcome, and what is left."""

    outcomes: dict[str, int] = field(default_factory=dict)
    #: Messages processed before (by a poller that died before marking them \\Seen), marked now.
    marked_late: int = 0
    #: New messages left for the next pass (more than one batch was waiting).
    remaining: int = 0

    @property
    def processed(self) -> int:
        return sum(self.outcomes.values())


def _fail(settings: ImapSettings, what: str, exc: BaseException) -> MailboxUnavailable:
    # imaplib puts the server's answer in as bytes ("b'[AUTHENTICATIONFAILED] ...'"): show its text.
    raw = exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], bytes) else str(exc)
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    detail = " ".join(text.split())[:200].rstrip(".") or type(exc).__name__
    return MailboxUnavailable(f"{what} the IMAP server {settings.server}:{settings.port} ({detail}).")


def connect(settings: ImapSettings) -> tuple[imaplib.IMAP4, str]:
    """Log in and select the mailbox; returns the connection and the mailbox's UIDVALIDITY.

    :raise MailboxUnavailable: unreachable, TLS or login refused, or no such mailbox.
    """
    try:
        if settings.use_ssl:
            conn = imaplib.IMAP4_SSL(settings.server, settings.port, ssl_context=ssl.create_default_context(),
                                     timeout=settings.timeout)
        else:
            conn = imaplib.IMAP4(settings.server, settings.port, timeout=settings.timeout)
            if settings.starttls:
                conn.starttls(ssl_context=ssl.create_default_context())
    except (OSError, imaplib.IMAP4.error) as exc:
        raise _fail(settings, "Cannot reach", exc) from None
    try:
        if settings.username:
            conn.login(settings.username, settings.password or "")
    except (OSError, imaplib.IMAP4.error) as exc:
        _close(conn)
        raise _fail(settings, f"The login as {settings.username} was refused by", exc) from None
    try:
        typ, _ = conn.select(_quoted(settings.mailbox))
        if typ != "OK":
            raise imaplib.IMAP4.error(f"no mailbox {settings.mailbox!r}")
        validity = conn.untagged_responses.get("UIDVALIDITY", [b""])[-1]
        return conn, validity.decode("ascii", "replace") if isinstance(validity, bytes) else str(validity)
    except (OSError, imaplib.IMAP4.error) as exc:
        _close(conn)
        raise _fail(settings, f"The mailbox {settings.mailbox!r} cannot be opened on", exc) from None


def _quoted(mailbox: str) -> str:
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _close(conn: imaplib.IMAP4) -> None:
    try:
        conn.logout()
    except (OSError, imaplib.IMAP4.error):
        pass


def _uids(conn: imaplib.IMAP4, criterion: str) -> list[int]:
    typ, data = conn.uid("SEARCH", None, criterion)
    if typ != "OK":
        raise imaplib.IMAP4.error(f"SEARCH {criterion} failed")
    return sorted(int(n) for n in b" ".join(d for d in data if isinstance(d, bytes)).split())


def _size(conn: imaplib.IMAP4, uid: int) -> int:
    typ, data = conn.uid("FETCH", str(uid), "(RFC822.SIZE)")
    match = re.search(rb"RFC822\.SIZE (\d+)", b" ".join(d for d in data if isinstance(d, bytes)))
    if typ != "OK" or match is None:
        raise imaplib.IMAP4.error(f"FETCH RFC822.SIZE of UID {uid} failed")
    return int(match.group(1))


def _body(conn: imaplib.IMAP4, uid: int, *, headers_only: bool) -> bytes:
    # BODY.PEEK leaves \\Seen alone: the message is marked only after its processing is committed.
    item = f"BODY.PEEK[HEADER]<0.{HEADER_BYTES}>" if headers_only else "BODY.PEEK[]"
    typ, data = conn.uid("FETCH", str(uid), f"({item})")
    parts = [item[1] for item in data if isinstance(item, tuple) and len(item) == 2]
    if typ != "OK" or not parts:
        raise imaplib.IMAP4.error(f"FETCH of UID {uid} failed")
    return parts[0]


def _known(session: Session, keys: list[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(keys), KEY_CHUNK):
        chunk = keys[start:start + KEY_CHUNK]
        found.update(session.scalars(select(InboundMessage.imap_key).where(InboundMessage.imap_key.in_(chunk))))
    return found


def _mark_seen(conn: imaplib.IMAP4, uids: list[int]) -> None:
    if uids:
        conn.uid("STORE", ",".join(str(u) for u in uids), "+FLAGS", "(\\Seen)")


def poll_once(settings: ImapSettings, session_factory: Callable[[], Session], *, now: Callable[[], datetime],
              batch: int = 50, on_processed: Callable[[InboundMessage], None] | None = None) -> PollReport:
    """Process up to ``batch`` new messages of the mailbox, oldest first, each in its own transaction.

    :param on_processed: called after each message's commit and before it is marked \\Seen.
    :raise MailboxUnavailable: the server cannot be reached or fails midway (what was committed stays).
    """
    conn, validity = connect(settings)
    report = PollReport()
    try:
        uids = _uids(conn, "ALL")
        keys = {uid: f"{settings.mailbox}:{validity}:{uid}" for uid in uids}
        with session_factory() as session:
            known = _known(session, list(keys.values()))
        unseen_known = [uid for uid in _uids(conn, "UNSEEN") if keys.get(uid) in known]
        _mark_seen(conn, unseen_known)
        report.marked_late = len(unseen_known)
        todo = [uid for uid in uids if keys[uid] not in known]
        report.remaining = max(0, len(todo) - batch)
        for uid in todo[:batch]:
            size = _size(conn, uid)
            oversized = size > settings.max_bytes
            raw = _body(conn, uid, headers_only=oversized)
            with session_factory() as session:
                row = process_message(session, raw, source="imap", now=now(), imap_key=keys[uid],
                                      limits=settings.limits, declared_size=size if oversized else None)
                outcome = row.outcome.value
                if on_processed is not None:
                    on_processed(row)
            report.outcomes[outcome] = report.outcomes.get(outcome, 0) + 1
            _mark_seen(conn, [uid])
    except (OSError, imaplib.IMAP4.error) as exc:
        raise _fail(settings, "Lost the connection to", exc) from None
    finally:
        _close(conn)
    return report
