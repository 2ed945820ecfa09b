"""What CalDAV sync reads from the app's configuration, as plain values the services can take."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_HORIZON_DAYS = 60
MAX_HORIZON_DAYS = 365
DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class CalendarSettings:
    """Keys for calendar secrets, the sync horizon and the network timeout.

    ``secret_keys`` are Fernet keys, newest first: the first encrypts, every one decrypts (rotation).
    """

    secret_keys: tuple[str, ...] = ()
    horizon_days: int = DEFAULT_HORIZON_DAYS
    timeout: float = DEFAULT_TIMEOUT
    #: Plain http:// calendars on other hosts than this machine; off, so a password never crosses a
    #: network unencrypted.
    allow_http: bool = False

    @classmethod
    def from_mapping(cls, config: Mapping[str, Any]) -> CalendarSettings:
        """Settings from the app config (``CALENDAR_SECRET_KEY``, ``CALDAV_HORIZON_DAYS``, ``CALDAV_TIMEOUT``,
        ``CALDAV_ALLOW_HTTP``); out-of-range numbers fall back to their defaults' bounds."""
        raw = config.get("CALENDAR_SECRET_KEY") or ()
        if isinstance(raw, str):
            raw = raw.replace(",", " ").split()
        keys = tuple(str(k).strip() for k in raw if str(k).strip())
        horizon = _number(config.get("CALDAV_HORIZON_DAYS"), DEFAULT_HORIZON_DAYS, int)
        timeout = _number(config.get("CALDAV_TIMEOUT"), DEFAULT_TIMEOUT, float)
        return cls(
            secret_keys=keys,
            horizon_days=min(max(horizon, 1), MAX_HORIZON_DAYS),
            timeout=min(max(timeout, 0.1), 300.0),
            allow_http=bool(config.get("CALDAV_ALLOW_HTTP", False)),
        )


def _number(value: Any, default, kind):
    try:
        return kind(value) if value not in (None, "") else default
    except (TypeError, ValueError):
        return default
