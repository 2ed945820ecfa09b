"""Calendar answers that came in (by IMAP or upload): each message once, with what became of it."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from planner.db import Base, utcnow
from planner.models._types import enum_column


class InboundOutcome(enum.Enum):
    #: The answer was recorded on the person's seat.
    APPLIED = "applied"
    #: An answer to an older version of the invite (lower SEQUENCE): kept, changes nothing.
    STALE = "stale"
    #: Not an answer the planner can take (spoofed, unknown, malformed...): the reason says why.
    REFUSED = "refused"
    #: A proposed new time, waiting for the coordinator.
    COUNTER = "counter"
    #: The same message (same Message-ID) was processed before.
    DUPLICATE = "duplicate"


class CounterState(enum.Enum):
    OPEN = "open"
    MOVED = "moved"
    DISMISSED = "dismissed"


class InboundMessage(Base):
    """One processed inbound message, listed on the coordinator's inbox whatever its outcome."""

    __tablename__ = "inbound_messages"

    id: Mapped[int] = mapped_column(primary_key=True)
    received_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    #: "imap" or "upload".
    source: Mapped[str] = mapped_column(String(16))
    #: "<mailbox>:<UIDVALIDITY>:<UID>" of the IMAP message: written in the transaction of the change the
    #: message causes, so a poller killed before marking it \\Seen does not apply it twice.
    imap_key: Mapped[str | None] = mapped_column(String(300), unique=True)
    #: The Message-ID (or "sha256:..." of a bare .ics): the same answer uploaded and mailed counts once.
    fingerprint: Mapped[str | None] = mapped_column(String(300), index=True)
    sender: Mapped[str] = mapped_column(String(254), default="")
    subject: Mapped[str] = mapped_column(String(300), default="")
    size: Mapped[int] = mapped_column(default=0)
    method: Mapped[str] = mapped_column(String(16), default="")
    calendar_uid: Mapped[str] = mapped_column(String(255), default="")
    attendee: Mapped[str] = mapped_column(String(254), default="")
    partstat: Mapped[str] = mapped_column(String(16), default="")
    sequence: Mapped[int | None]
    comment: Mapped[str] = mapped_column(Text, default="")
    proposed_start: Mapped[datetime | None]
    proposed_end: Mapped[datetime | None]
    outcome: Mapped[InboundOutcome] = mapped_column(enum_column(InboundOutcome, "inbound_outcome"), index=True)
    reason: Mapped[str] = mapped_column(Text, default="")
    interview_id: Mapped[int | None] = mapped_column(ForeignKey("interviews.id", ondelete="SET NULL"), index=True)
    loop_id: Mapped[int | None] = mapped_column(ForeignKey("loops.id", ondelete="SET NULL"), index=True)
    interviewer_id: Mapped[int | None] = mapped_column(ForeignKey("interviewers.id", ondelete="SET NULL"),
                                                       index=True)
    #: Who uploaded it (None for mail).
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    #: What became of a COUNTER: open until the coordinator moves the round or dismisses it.
    counter_state: Mapped[CounterState | None] = mapped_column(enum_column(CounterState, "counter_state"))
    resolved_at: Mapped[datetime | None]
    resolved_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
