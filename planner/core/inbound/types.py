"""What reading an inbound calendar answer gives: the answer's facts, or a refusal with its reason."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

#: The answers an interviewer can give in a REPLY (RFC 5545 PARTSTAT for VEVENT, delegation aside).
PARTSTATS = ("ACCEPTED", "TENTATIVE", "DECLINED", "NEEDS-ACTION")
METHODS = ("REPLY", "COUNTER")


@dataclass(frozen=True)
class InboundLimits:
    """Bounds on hostile input: whatever exceeds one is refused before any more of it is read."""

    #: The whole message (or .ics file), in bytes.
    max_bytes: int = 1_000_000
    #: The header block of the message.
    max_header_bytes: int = 64_000
    #: One header field, its folded continuation lines included.
    max_header_field: int = 8_000
    #: MIME parts in the message, and how deep multiparts may nest.
    max_parts: int = 64
    max_depth: int = 6
    #: Characters of the COMMENT kept (the rest is cut, not refused).
    max_comment: int = 2000


@dataclass(frozen=True)
class InboundReply:
    """One attendee's answer to one interview invite (iTIP REPLY) or their proposed new time (COUNTER)."""

    method: str
    uid: str
    sequence: int
    #: The answering attendee's address, lower case, without ``mailto:``.
    attendee: str
    attendee_name: str
    #: ACCEPTED, TENTATIVE, DECLINED or NEEDS-ACTION; None for a COUNTER that gives none.
    partstat: str | None
    comment: str
    #: When the attendee's client made the answer (DTSTAMP, UTC), when it says so.
    dtstamp: datetime | None
    #: The proposed new time of a COUNTER (UTC); None for a REPLY.
    proposed_start: datetime | None
    proposed_end: datetime | None
    #: The email's From address (lower case), None for a bare .ics file.
    sender: str | None
    message_id: str | None
    subject: str
    size: int

    @property
    def is_counter(self) -> bool:
        return self.method == "COUNTER"


@dataclass(frozen=True)
class Refusal:
    """Why the input is not an answer the planner can take, with what could be read of its envelope."""

    reason: str
    sender: str | None = None
    message_id: str | None = None
    subject: str = ""
    size: int = 0
