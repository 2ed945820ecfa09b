"""Reading a CalDAV calendar (RFC 4791) with the ``caldav`` package: its state, and events in a time range.

Every failure becomes :class:`CalendarUnavailable` with one sentence of our own. The library's and
the HTTP stack's messages are never passed on: they can quote request URLs and headers, and the
password must not end up on a page or in a log.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

import caldav
from caldav.elements import cdav, dav
from caldav.elements.base import ValuedBaseElement
from caldav.lib import error as dav_errors
from caldav.lib.http_sync import requests as http

from planner.core.errors import ValidationFailed

log = logging.getLogger(__name__)

_CALENDAR_TYPE = "{urn:ietf:params:xml:ns:caldav}calendar"


class CalendarUnavailable(ValidationFailed):
    """The calendar could not be read: server down, slow, refusing, or answering nonsense."""


class _GetCtag(ValuedBaseElement):
    """Apple's collection tag (``CS:getctag``): changes whenever anything in the calendar changes."""

    tag = "{http://calendarserver.org/ns/}getctag"


@dataclass(frozen=True)
class Fetched:
    """What one visit to the server brought.

    ``state`` is the collection's sync-token or ctag ("sync:..." / "ctag:..."), None when the server
    offers neither; ``objects`` the calendar objects (iCalendar text) overlapping the range, or None
    when ``state`` equalled the known one and nothing was downloaded.
    """

    state: str | None
    objects: tuple[str, ...] | None


def fetch_events(
    url: str,
    username: str,
    password: str,
    *,
    start: datetime,
    end: datetime,
    timeout: float,
    known_state: str | None = None,
) -> Fetched:
    """Read the collection's state and, unless it equals ``known_state``, its events in [start, end).

    The events come from one ``calendar-query`` REPORT with a VEVENT time-range filter; recurring
    events arrive whole (master, overrides, EXDATEs), to be expanded by the caller.

    :raise CalendarUnavailable: one sentence saying why (never the server's own words).
    """
    try:
        with caldav.DAVClient(
            url=url,
            username=username or None,
            password=password or None,
            timeout=timeout,
            enable_rfc6764=False,  # the address is the calendar itself: no DNS discovery
        ) as client:
            calendar = client.calendar(url=url)
            props = calendar.get_properties([dav.ResourceType(), dav.SyncToken(), _GetCtag()])
            kinds = props.get(dav.ResourceType.tag) or []
            if _CALENDAR_TYPE not in (kinds if isinstance(kinds, list | tuple) else [kinds]):
                raise CalendarUnavailable(
                    "The address is not a calendar (it may be the account's home or an address book); "
                    "give the address of the calendar itself."
                )
            state = _state(props)
            if state is not None and state == known_state:
                return Fetched(state, None)
            return Fetched(state, _events_in_range(client, calendar.url, start, end))
    except CalendarUnavailable:
        raise
    except Exception as exc:  # noqa: BLE001 - every failure of a remote server becomes one sentence
        # Only the exception's type is logged: its text may quote the request.
        log.info("CalDAV fetch failed: %s", type(exc).__name__)
        raise CalendarUnavailable(describe_failure(exc, timeout)) from None


def _state(props: dict) -> str | None:
    token = props.get(dav.SyncToken.tag)
    if token:
        return f"sync:{str(token).strip()}"[:500]
    ctag = props.get(_GetCtag.tag)
    if ctag:
        return f"ctag:{str(ctag).strip()}"[:500]
    return None


def _events_in_range(client, url, start: datetime, end: datetime) -> tuple[str, ...]:
    """One calendar-query REPORT (RFC 4791 7.8): every object with a VEVENT overlapping [start, end).

    Sent as it is rather than through ``Calendar.search``, which drops objects it cannot parse:
    here an unreadable object must fail the sync instead of silently emptying the busy time.
    """
    query = cdav.CalendarQuery() + [
        dav.Prop() + [dav.GetEtag(), cdav.CalendarData()],
        cdav.Filter() + (cdav.CompFilter("VCALENDAR") + (cdav.CompFilter("VEVENT") + cdav.TimeRange(start, end))),
    ]
    response = client.report(str(url), str(query), depth=1)
    if response.status >= 400:
        raise dav_errors.ReportError(status=response.status)
    found = response.expand_simple_props([cdav.CalendarData(), dav.GetEtag()])
    objects = []
    own_path = urlsplit(str(url)).path.rstrip("/")
    for href, props in found.items():
        if urlsplit(str(href)).path.rstrip("/") == own_path:
            continue  # some servers list the collection itself
        data = props.get(cdav.CalendarData.tag)
        if not data:
            raise CalendarUnavailable("The calendar server listed an event without its calendar data.")
        objects.append(data if isinstance(data, str) else bytes(data).decode("utf-8", errors="replace"))
    return tuple(objects)


def describe_failure(exc: BaseException, timeout: float) -> str:
    """One sentence for a failed visit to a CalDAV server, built only from the kind of failure."""
    status = getattr(exc, "status", None)
    if isinstance(exc, dav_errors.AuthorizationError):
        return (
            f"The calendar server refused the user name or password (HTTP {status or 401}); "
            "check them, or use an app password."
        )
    if isinstance(exc, dav_errors.NotFoundError) or status == 404:
        return "There is no calendar at that address (HTTP 404); check the URL."
    if isinstance(exc, dav_errors.RateLimitError):
        return "The calendar server asked to slow down (too many requests); try again later."
    if isinstance(exc, dav_errors.DAVError):
        code = f"HTTP {status}" if status else "an unexpected answer"
        return f"The calendar server answered with an error ({code}); it may not be a CalDAV calendar."
    if isinstance(exc, http.exceptions.Timeout | TimeoutError):
        return f"The calendar server did not answer within {timeout:g} seconds."
    if isinstance(exc, http.exceptions.SSLError):
        return "The calendar server's certificate could not be verified."
    if isinstance(exc, http.exceptions.ConnectionError | ConnectionError):
        return "The calendar server cannot be reached (it is down, or the address names no server)."
    if isinstance(exc, http.exceptions.RequestException):
        return f"The request to the calendar server failed ({type(exc).__name__})."
    return f"The calendar server's answer could not be read as CalDAV ({type(exc).__name__})."
