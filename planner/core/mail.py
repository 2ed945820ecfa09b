"""Plain emails (no calendar part): a text body and its HTML alternative. Pure: it sends nothing.

Shape::

    multipart/alternative
      text/plain; charset=utf-8
      text/html; charset=utf-8

Used for messages that announce no calendar change (scorecard reminders); calendar messages are built
by :mod:`planner.core.calendar.imip`. Boundaries derive from the content, so the same input gives
the same bytes.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime

from planner.core.errors import ValidationFailed


def build_plain_message(
    sender_email: str,
    sender_name: str,
    recipient_email: str,
    recipient_name: str,
    subject: str,
    text_body: str,
    html_body: str,
    *,
    date: datetime | None = None,
    message_id: str | None = None,
) -> EmailMessage:
    """One recipient's plain email (text with an HTML alternative).

    :param date: when the message is sent (the ``Date`` header), left out when ``None``.
    :param message_id: a ``<...@domain>`` Message-ID, left out when ``None`` (the sender adds one).
    :raise ValidationFailed: a header value with a line break (header injection), or no sender.
    """
    if not sender_email:
        raise ValidationFailed("A plain email needs a sender address.")
    if any(ch in value for value in (subject, message_id or "", sender_name, recipient_name) for ch in "\r\n"):
        raise ValidationFailed("The email subject, names and Message-ID must be single lines.")
    message = EmailMessage(policy=SMTP)
    message["From"] = Address(display_name=sender_name or "", addr_spec=sender_email)
    message["To"] = Address(display_name=recipient_name or "", addr_spec=recipient_email)
    message["Subject"] = subject
    if date is not None:
        if date.tzinfo is None:
            raise ValidationFailed("The date of an email must carry a time zone.")
        message["Date"] = format_datetime(date.astimezone(UTC).replace(microsecond=0))
    if message_id is not None:
        message["Message-ID"] = message_id
    message.set_content(text_body)
    message.add_alternative(html_body, subtype="html")
    digest = hashlib.sha256(b"\0".join(v.encode() for v in (recipient_email, subject, text_body, html_body)))
    message.set_boundary(f"=_planner_{digest.hexdigest()[:32]}_0")
    return message
