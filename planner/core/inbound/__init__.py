"""Inbound calendar answers: iTIP REPLY and COUNTER (RFC 5546) carried by email (iMIP, RFC 6047).

Pure parsing of hostile input: bytes in, an :class:`InboundReply` or a :class:`Refusal` out, never an
exception. What an answer changes is decided in ``planner.services.replies``.
"""

from planner.core.inbound.reader import DEFAULT_LIMITS, fingerprint, read_reply
from planner.core.inbound.types import METHODS, PARTSTATS, InboundLimits, InboundReply, Refusal

__all__ = ["DEFAULT_LIMITS", "METHODS", "PARTSTATS", "InboundLimits", "InboundReply", "Refusal", "fingerprint",
           "read_reply"]
