"""Plain emails (no calendar part): the candidate's scheduling link, and the email any such outbox row becomes.

Pure: the texts are built from plain values, HTML-escaped with the standard library, and the email has
stable MIME boundaries (derived from its content), like the calendar emails.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from html import escape
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class PlainEmail:
    """Subject and both bodies of a plain email."""

    subject: str
    text: str
    html: str


def link_email(*, candidate_name: str, role: str, company: str, url: str, expires_at: datetime, timezone: str,
               sender_name: str) -> PlainEmail:
    """The email inviting a candidate to pick their interview time (the link's expiry in their zone)."""
    until = expires_at.astimezone(ZoneInfo(timezone)).strftime("%A %d %B, %H:%M %Z")
    subject = f"Choose your interview time: {role}"
    text = (f"Hello {candidate_name},\n\n"
            f"Thank you for your interest in the {role} role at {company}. Please choose a time for your "
            f"interviews here:\n\n{url}\n\n"
            "Every time the page offers has every interviewer available. You can also tell us when you are "
            f"free instead. The link works until {until}; it is personal, please do not forward it.\n\n"
            f"{sender_name}\n")
    html = (f"<p>Hello {escape(candidate_name)},</p>"
            f"<p>Thank you for your interest in the {escape(role)} role at {escape(company)}. "
            "Please choose a time for your interviews:</p>"
            f'<p><a href="{escape(url)}">Choose your interview time</a></p>'
            "<p>Every time the page offers has every interviewer available. You can also tell us when you are "
            f"free instead. The link works until {escape(until)}; it is personal, please do not forward it.</p>"
            f"<p>{escape(sender_name)}</p>")
    return PlainEmail(subject, text, html)
