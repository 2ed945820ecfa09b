"""Pure rules for CalDAV calendars: which addresses are accepted, and the horizon a sync covers."""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime, time, timedelta
from urllib.parse import urlsplit

from planner.core.errors import FieldError
from planner.core.pool.hours import validate_timezone

MAX_URL = 500
MAX_USERNAME = 200
MAX_SECRET = 1000


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine (localhost, 127.0.0.0/8, ::1)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def clean_calendar_url(url: str, *, allow_http: bool = False) -> str:
    """The calendar collection's address, trimmed, or FieldError("url", ...) saying what is wrong.

    Credentials inside the address are refused so the password only ever lives in its own, encrypted
    field; plain http is refused except to this machine unless ``allow_http``.
    """
    text = (url or "").strip()
    if not text:
        raise FieldError("url", "Give the calendar's CalDAV address, such as https://cal.example.com/dav/ana/work/.")
    if len(text) > MAX_URL:
        raise FieldError("url", f"The calendar address is limited to {MAX_URL} characters.")
    if any(ch.isspace() for ch in text):
        raise FieldError("url", "The calendar address cannot contain spaces.")
    try:
        parts = urlsplit(text)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - a malformed port raises here
    except ValueError:
        raise FieldError("url", "The calendar address is not a valid URL.") from None
    if parts.scheme not in ("http", "https") or not host:
        raise FieldError("url", "The calendar address must start with https:// and name a server.")
    if parts.username is not None or parts.password is not None:
        raise FieldError(
            "url", "Put the user name and password in their own fields, not inside the calendar address."
        )
    if parts.scheme == "http" and not allow_http and not is_loopback(host):
        raise FieldError(
            "url", "Use an https:// address: over plain http the calendar password would cross the network "
            "unencrypted."
        )
    return text


def sync_horizon(now: datetime, timezone: str, days: int) -> tuple[datetime, datetime]:
    """The UTC span a sync covers: from the start of the person's local today, ``days`` local days on."""
    zone = validate_timezone(timezone)
    today = now.astimezone(zone).date()
    start = datetime.combine(today, time(0), tzinfo=zone).astimezone(UTC)
    end = datetime.combine(today + timedelta(days=days), time(0), tzinfo=zone).astimezone(UTC)
    return start, end
