"""Read an inbound calendar answer from raw bytes (an .eml or a bare .ics), treating them as hostile.

:func:`read_reply` never raises: every way the input can be wrong (too large, not MIME, no calendar,
not UTF-8, a REQUEST instead of a REPLY, two different answers in one email...) becomes a
:class:`Refusal` whose reason is one sentence a coordinator can read.
"""

from __future__ import annotations

import hashlib

from planner.core.inbound.itip import CalendarFacts, ItipRefused, pick_answer, read_calendar
from planner.core.inbound.mime import (
    CalendarPart,
    Envelope,
    MimeRefused,
    looks_like_calendar,
    read_envelope,
    read_headers,
)
from planner.core.inbound.types import InboundLimits, InboundReply, Refusal

DEFAULT_LIMITS = InboundLimits()


def fingerprint(raw: bytes) -> str:
    """A stable key for input without a Message-ID (a bare .ics): its SHA-256."""
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def _facts(parts: tuple[CalendarPart, ...], limits: InboundLimits) -> CalendarFacts:
    """The one answer the calendar parts carry (Google sends it twice: inline and as invite.ics)."""
    found, first_problem = [], None
    for part in parts:
        try:
            facts = read_calendar(part.text, max_comment=limits.max_comment)
        except ItipRefused as exc:
            first_problem = first_problem or exc
            continue
        if part.method and part.method != facts.method:
            raise ItipRefused(f"its email says method={part.method[:20]} but its calendar says METHOD:{facts.method}")
        found.append(facts)
    if not found:
        raise first_problem or ItipRefused("it has no calendar part")
    if any(other != found[0] for other in found[1:]):
        raise ItipRefused("it carries two different calendar answers; send them one at a time")
    return found[0]


def _reply(facts: CalendarFacts, envelope: Envelope | None, size: int) -> InboundReply:
    sender = envelope.sender if envelope else None
    answer = pick_answer(facts, sender)
    return InboundReply(
        method=facts.method, uid=facts.uid, sequence=facts.sequence, attendee=answer.address,
        attendee_name=answer.name, partstat=answer.partstat, comment=facts.comment, dtstamp=facts.dtstamp,
        proposed_start=facts.proposed_start, proposed_end=facts.proposed_end, sender=sender,
        message_id=envelope.message_id if envelope else None, subject=envelope.subject if envelope else "",
        size=size)


def _refusal(reason: str, envelope: Envelope | None, size: int, *, bare: bool = False) -> Refusal:
    what = "The file" if bare else "The message"
    text = reason[:1].lower() + reason[1:]
    return Refusal(reason=f"{what} was refused: {text}.", sender=envelope.sender if envelope else None,
                   message_id=envelope.message_id if envelope else None,
                   subject=envelope.subject if envelope else "", size=size)


def _too_large(size: int, limits: InboundLimits) -> str:
    return f"it is {size:,} bytes, larger than the {limits.max_bytes:,} bytes allowed"


def read_reply(raw: bytes, limits: InboundLimits = DEFAULT_LIMITS, *,
               declared_size: int | None = None) -> InboundReply | Refusal:
    """The REPLY or COUNTER carried by ``raw`` (an email or a bare .ics file), or why it is refused.

    Larger input than ``limits.max_bytes`` is refused on its length alone, before anything is parsed.

    :param declared_size: the size a mail server reports for a message whose body was not fetched
        because of it; ``raw`` then holds only its header block, read for the envelope alone.
    """
    if declared_size is not None and declared_size > limits.max_bytes:
        envelope = read_headers(bytes(raw or b""), limits)
        return _refusal(_too_large(declared_size, limits), envelope, declared_size)
    size = len(raw) if isinstance(raw, bytes | bytearray) else 0
    if not isinstance(raw, bytes | bytearray) or not raw.strip():
        return _refusal("it is empty", None, size)
    if size > limits.max_bytes:
        return _refusal(_too_large(size, limits), None, size)
    raw = bytes(raw)
    bare = looks_like_calendar(raw)
    envelope = None
    try:
        if bare:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                return _refusal("it is not UTF-8 text", None, size, bare=True)
            return _reply(_facts((CalendarPart(text.lstrip("\ufeff"), ""),), limits), None, size)
        envelope = read_envelope(raw, limits)
        if not envelope.parts:
            reason = ("it carries Outlook's winmail.dat (TNEF) instead of a calendar part; record the answer "
                      "by hand" if envelope.tnef else
                      "it has no calendar part (text/calendar or an .ics attachment), so it is not a calendar answer")
            return _refusal(reason, envelope, size)
        return _reply(_facts(envelope.parts, limits), envelope, size)
    except (MimeRefused, ItipRefused) as exc:
        return _refusal(str(exc), envelope, size, bare=bare)
    except Exception:  # noqa: BLE001 - hostile input must never escape as a traceback, whatever it breaks
        return _refusal("it cannot be read as an email with a calendar answer", envelope, size, bare=bare)
