"""The iMIP email (RFC 6047) that carries one calendar message to one recipient. Pure: it sends nothing.

Shape (checklist section 0.6 and 1.7), as recommended by the CalConnect developer guide::

    multipart/mixed
      multipart/alternative
        text/plain; charset=utf-8
        text/html; charset=utf-8
        text/calendar; method=REQUEST; charset=UTF-8   (base64, no Content-Disposition)
      application/ics; name=invite.ics                  (attachment, REQUEST only)

The attachment serves people who open the file in a calendar by hand; a cancellation has nothing to
import, and a second copy of the same CANCEL looks like a replayed cancel without a SEQUENCE bump
(``ics_check.py`` reports exactly that), so CANCEL emails carry only the inline part; their top
level is then ``multipart/alternative``.

The ``method=`` parameter equals the calendar's METHOD, ``From`` is the ORGANIZER mailbox and the
recipient must be one of its ATTENDEEs; the builder refuses anything else rather than send an
invite that shows no Accept/Decline. MIME boundaries are derived from the content so the same input
gives the same bytes (golden files), instead of the random ones the stdlib would pick.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime

from icalendar import Calendar

from planner.core.calendar.events import CalendarInputError, Organizer, Person, require_now

IMIP_METHODS = ("REQUEST", "CANCEL")


def _calendar_facts(ics_bytes: bytes) -> tuple[str, str, set[str]]:
    """METHOD, ORGANIZER address and ATTENDEE addresses of a single-event calendar, lowercased."""
    try:
        cal = Calendar.from_ical(ics_bytes)
    except ValueError as exc:
        raise CalendarInputError("The calendar data of the email cannot be parsed.") from exc
    # One UID per iTIP message (RFC 5546 1.4): exactly one VEVENT and nothing else with a UID, so the
    # calendar part can also be stored by CalDAV as one object (RFC 4791 4.1).
    components = [c for c in cal.subcomponents if c.name != "VTIMEZONE"]
    if len(components) != 1 or components[0].name != "VEVENT":
        raise CalendarInputError("An iMIP email carries exactly one interview (one VEVENT, one UID).")
    vevent = components[0]

    def address(value: object) -> str:
        return str(value).lower().removeprefix("mailto:")

    attendees = vevent.get("ATTENDEE") or []
    if not isinstance(attendees, list):
        attendees = [attendees]
    return (
        str(cal.get("METHOD", "")).upper(),
        address(vevent.get("ORGANIZER", "")),
        {address(a) for a in attendees},
    )


def _set_stable_boundaries(message: EmailMessage, seed: bytes) -> None:
    digest = hashlib.sha256(seed).hexdigest()[:32]
    for number, part in enumerate(p for p in message.walk() if p.is_multipart()):
        part.set_boundary(f"=_planner_{digest}_{number}")


def build_imip_message(
    ics_bytes: bytes,
    method: str,
    organizer: Organizer,
    recipient: Person,
    subject: str,
    text_body: str,
    html_body: str,
    *,
    date: datetime | None = None,
    message_id: str | None = None,
) -> EmailMessage:
    """One recipient's iMIP email for a REQUEST or CANCEL calendar object.

    :param ics_bytes: output of a REQUEST/CANCEL builder; sent inline and as an attachment.
    :param method: ``REQUEST`` or ``CANCEL``; must equal the calendar's METHOD.
    :param date: when the message is sent (the ``Date`` header), left out when ``None``.
    :param message_id: a ``<...@domain>`` Message-ID, left out when ``None`` (the sender adds one).
    :raise CalendarInputError: unknown or mismatched method, organizer not the ORGANIZER, recipient
        not an ATTENDEE, or a header value with a line break.
    """
    method = method.upper()
    if method not in IMIP_METHODS:
        raise CalendarInputError(f"iMIP emails carry REQUEST or CANCEL, not {method}.")
    cal_method, cal_organizer, cal_attendees = _calendar_facts(ics_bytes)
    if cal_method != method:
        raise CalendarInputError(f"The email says method={method} but the calendar says METHOD:{cal_method}.")
    if cal_organizer != organizer.email.lower():
        raise CalendarInputError("The email must come from the calendar's ORGANIZER mailbox.")
    if recipient.email.lower() not in cal_attendees:
        raise CalendarInputError(f"{recipient.email} is not an ATTENDEE of this calendar message.")
    if any(ch in value for value in (subject, message_id or "") for ch in "\r\n"):
        raise CalendarInputError("The email subject and Message-ID must be single lines.")

    message = EmailMessage(policy=SMTP)
    message["From"] = Address(display_name=organizer.name, addr_spec=organizer.email)
    message["To"] = Address(display_name=recipient.name, addr_spec=recipient.email)
    message["Subject"] = subject
    if date is not None:
        message["Date"] = format_datetime(require_now(date))
    if message_id is not None:
        message["Message-ID"] = message_id
    message.set_content(text_body)
    message.add_alternative(html_body, subtype="html")
    # Inline alternative, last in the list: the part Outlook, Gmail and Thunderbird act on.
    message.add_alternative(
        ics_bytes,
        maintype="text",
        subtype="calendar",
        cte="base64",
        params={"method": method, "charset": "UTF-8"},
    )
    if method == "REQUEST":
        message.add_attachment(ics_bytes, maintype="application", subtype="ics", filename="invite.ics")
    _set_stable_boundaries(
        message,
        b"\0".join(
            [ics_bytes, recipient.email.encode(), subject.encode(), text_body.encode(), html_body.encode()]
        ),
    )
    return message
