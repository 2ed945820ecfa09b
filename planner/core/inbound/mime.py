"""The email around a calendar answer: its envelope (From, Message-ID, Subject) and its calendar parts.

Clients wrap a REPLY in different shapes (RFC 6047 allows them all):

* Outlook / Exchange: ``multipart/alternative`` of text, HTML and ``text/calendar; method=REPLY`` (base64);
* Google Calendar: ``multipart/mixed`` holding that alternative plus the same calendar again as an
  ``invite.ics`` attachment (``application/ics``);
* Apple Calendar (iCloud): ``multipart/mixed`` with the calendar only as an attachment, quoted-printable.

The message is parsed with the standard library's ``compat32`` policy, which reads headers as plain
strings: the richer header parser is more than an address and a subject need, and it is the part of
the module with a history of slow paths on crafted input. Every bound of :class:`InboundLimits` is
checked before the content behind it is read.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import Message
from email.policy import compat32
from email.utils import getaddresses

from planner.core.inbound.types import InboundLimits

_ADDRESS_RE = re.compile(r"^[^@\s<>\"]+@[^@\s<>\"]+\.[^@\s<>\"]+$")
_CALENDAR_TYPES = ("text/calendar", "application/ics", "text/x-vcalendar")


class MimeRefused(Exception):
    """The email cannot carry a calendar answer; the message is the reason, as a sentence fragment."""


@dataclass(frozen=True)
class CalendarPart:
    """The decoded text of one calendar part and the ``method=`` its Content-Type names ("" if none)."""

    text: str
    method: str


@dataclass(frozen=True)
class Envelope:
    """What the email says about itself, and the calendar parts found in it."""

    sender: str | None
    sender_problem: str
    message_id: str | None
    subject: str
    parts: tuple[CalendarPart, ...]
    #: True when the message carries Outlook's winmail.dat instead of a calendar part.
    tnef: bool = False


def looks_like_calendar(raw: bytes) -> bool:
    """True for a bare .ics file (an upload), as opposed to an email."""
    head = raw[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:15].upper() == b"BEGIN:VCALENDAR"


def check_headers(raw: bytes, limits: InboundLimits) -> None:
    """Refuse a header block, or one header field, larger than the limits, before parsing anything.

    :raise MimeRefused: the headers are too large or there is no header block at all.
    """
    match = re.search(rb"\r?\n\r?\n", raw[: limits.max_header_bytes + 4])
    if match is None:
        if len(raw) > limits.max_header_bytes:
            raise MimeRefused(f"its headers are larger than {limits.max_header_bytes:,} bytes")
        raise MimeRefused("it is not an email (no header block followed by a body)")
    field = 0
    for line in raw[: match.start()].splitlines():
        # A line starting with white space continues the field before it (RFC 5322 folding).
        field = field + len(line) if line[:1] in (b" ", b"\t") else len(line)
        if field > limits.max_header_field:
            raise MimeRefused(f"one of its header fields is longer than {limits.max_header_field:,} bytes")


def _text(value: str | None, limit: int) -> str:
    """A header's text with RFC 2047 encoded words decoded, on one line, cut to ``limit``."""
    if not value:
        return ""
    try:
        text = str(make_header(decode_header(value)))
    except (ValueError, LookupError, UnicodeError):
        text = value
    return " ".join(text.split())[:limit]


def _sender(message: Message) -> tuple[str | None, str]:
    """The single From address, lower case, or None with the reason."""
    values = message.get_all("From") or []
    if not values:
        return None, "it has no From address"
    addresses = [addr for _name, addr in getaddresses([str(v) for v in values]) if addr]
    if len(addresses) != 1:
        return None, "its From header does not name exactly one address"
    address = addresses[0].strip().lower()
    if not _ADDRESS_RE.match(address) or len(address) > 254:
        return None, "its From address is not a plain user@domain address"
    return address, ""


def _message_id(message: Message) -> str | None:
    value = " ".join(str(message.get("Message-ID") or "").split())
    return value[:300] or None


def _is_calendar(part: Message) -> bool:
    filename = (part.get_filename() or "").lower()
    return part.get_content_type() in _CALENDAR_TYPES or filename.endswith((".ics", ".ical", ".ifb"))


def _decode(part: Message) -> CalendarPart:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        raise MimeRefused("its calendar part is empty")
    charset = part.get_content_charset() or "utf-8"
    try:
        codecs.lookup(charset)
    except LookupError:
        charset = "utf-8"  # RFC 5545 text is UTF-8; an unknown label does not change that
    try:
        text = payload.decode(charset)
    except UnicodeDecodeError:
        raise MimeRefused(f"its calendar part is not valid {charset} text") from None
    return CalendarPart(text=text.lstrip("\ufeff"), method=str(part.get_param("method") or "").strip().upper())


def _walk(message: Message, limits: InboundLimits) -> tuple[list[Message], bool]:
    """Calendar parts in document order, checking the part count and depth; and whether TNEF was seen."""
    found, tnef, count = [], False, 0
    stack = [(message, 0)]
    while stack:
        part, depth = stack.pop()
        count += 1
        if count > limits.max_parts:
            raise MimeRefused(f"it has more than {limits.max_parts} MIME parts")
        if depth > limits.max_depth:
            raise MimeRefused(f"its MIME parts nest more than {limits.max_depth} deep")
        if part.is_multipart():
            children = part.get_payload()
            if not isinstance(children, list):
                raise MimeRefused("its multipart structure is broken")
            stack.extend((child, depth + 1) for child in reversed(children))
        elif part.get_content_type() in ("application/ms-tnef", "application/vnd.ms-tnef"):
            tnef = True
        elif _is_calendar(part):
            found.append(part)
    return found, tnef


def read_headers(raw: bytes, limits: InboundLimits) -> Envelope:
    """Only the envelope (sender, Message-ID, subject) from a message's header block; no calendar parts.

    For a message refused on its size: the inbox still shows who sent it. Anything unreadable is left out.
    """
    try:
        check_headers(raw[: limits.max_header_bytes] + b"\r\n\r\n", limits)
        message = message_from_bytes(raw[: limits.max_header_bytes], policy=compat32)
        sender, problem = _sender(message)
        return Envelope(sender, problem, _message_id(message), _text(message.get("Subject"), 300), ())
    except Exception:  # noqa: BLE001 - the size already decided the refusal; the rest is best effort
        return Envelope(None, "", None, "", ())


def read_envelope(raw: bytes, limits: InboundLimits) -> Envelope:
    """Parse an email within ``limits``: sender, Message-ID, subject and decoded calendar parts.

    :raise MimeRefused: the headers or the MIME structure break a limit, or a calendar part cannot be decoded.
    """
    check_headers(raw, limits)
    message = message_from_bytes(raw, policy=compat32)
    sender, problem = _sender(message)
    parts, tnef = _walk(message, limits)
    return Envelope(sender=sender, sender_problem=problem, message_id=_message_id(message),
                    subject=_text(message.get("Subject"), 300), parts=tuple(_decode(p) for p in parts), tnef=tnef)
