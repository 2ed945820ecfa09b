"""Calendar answers made the way a client makes them: from the planner's own REQUEST email.

A client that answers an invite takes the event it received, sets METHOD:REPLY, keeps only the
answering ATTENDEE with its new PARTSTAT, stamps DTSTAMP with the time of the answer and mails it
back to the ORGANIZER from the attendee's address (RFC 5546 section 3.2.3, RFC 6047).
"""

from __future__ import annotations

import secrets
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage

from icalendar import Calendar, vCalAddress

WORDS = {"ACCEPTED": "Accepted", "DECLINED": "Declined", "TENTATIVE": "Tentative"}


def calendar_of(email_bytes: bytes) -> Calendar:
    """The text/calendar part of an iMIP email."""
    message = message_from_bytes(email_bytes, policy=policy.default)
    part = next(p for p in message.walk() if p.get_content_type() == "text/calendar")
    return Calendar.from_ical(part.get_payload(decode=True))


def reply_calendar(request_ics: bytes, attendee: str, partstat: str, *, now: datetime, comment: str | None = None,
                   sequence: int | None = None, method: str = "REPLY") -> bytes:
    """The REPLY (or COUNTER) a client makes from a REQUEST's calendar bytes."""
    cal = Calendar.from_ical(request_ics)
    cal.pop("METHOD")
    cal.add("METHOD", method)
    event = next(iter(cal.walk("VEVENT")))
    attendees = event.get("ATTENDEE")
    attendees = attendees if isinstance(attendees, list) else [attendees]
    mine = [a for a in attendees if str(a).lower().removeprefix("mailto:") == attendee.lower()]
    assert mine, f"{attendee} is not an attendee of this invite"
    event.pop("ATTENDEE")
    event.add("ATTENDEE", vCalAddress.new(attendee, cn=mine[0].params.get("CN"), partstat=partstat))
    event.pop("DTSTAMP")
    event.add("DTSTAMP", now)
    if comment:
        event.add("COMMENT", comment)
    if sequence is not None:
        event.pop("SEQUENCE")
        event.add("SEQUENCE", sequence)
    return cal.to_ical()


def reply_email(calendar: bytes, *, sender: str, organizer: str, subject: str, method: str = "REPLY",
                message_id: str | None = None) -> bytes:
    """The iMIP email a client sends with the answer: text and the calendar part, from the attendee."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = organizer
    message["Subject"] = subject
    message["Message-ID"] = message_id or f"<reply-{secrets.token_hex(8)}@client.example>"
    message.set_content("Answer from my calendar.")
    message.add_alternative(calendar, maintype="text", subtype="calendar", params={"method": method})
    return message.as_bytes(policy=policy.SMTP)


def reply_from_request(request_email: bytes, attendee: str, partstat: str, *, now: datetime,
                       comment: str | None = None, sender: str | None = None, sequence: int | None = None) -> bytes:
    """The answer email a calendar client sends for one delivered REQUEST email."""
    original = message_from_bytes(request_email, policy=policy.default)
    calendar = reply_calendar(calendar_of(request_email).to_ical(), attendee, partstat, now=now, comment=comment,
                              sequence=sequence)
    return reply_email(calendar, sender=sender or attendee, organizer=str(original["From"]),
                       subject=f"{WORDS.get(partstat, partstat)}: {original['Subject']}")
