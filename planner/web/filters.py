"""Template filters and globals: local times for the viewer, navigation that follows what exists."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask, request, url_for
from flask_login import current_user

from planner.core.prose import DATE_FORMAT, noun, plural
from planner.core.timezones import zone_label


def _zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def viewer_timezone() -> str:
    """The signed-in viewer's zone, UTC for anonymous pages."""
    if current_user and current_user.is_authenticated:
        return current_user.timezone or "UTC"
    return "UTC"


#: Directives that put a time of day in a format; a date alone ("Thu 10 Dec") gets no zone abbreviation.
_TIME_DIRECTIVES = ("%H", "%I", "%M", "%X", "%c", "%T", "%R")


def local(value: datetime | None, tz: str | None = None, fmt: str = DATE_FORMAT + ", %H:%M") -> str:
    """Format an aware datetime in `tz` (default: the viewer's zone), with the zone abbreviation after a time."""
    if value is None:
        return ""
    zone = _zone(tz or viewer_timezone())
    moment = value.astimezone(zone)
    if not any(directive in fmt for directive in _TIME_DIRECTIVES):
        return moment.strftime(fmt)
    return f"{moment.strftime(fmt)} {zone_label(zone.key, moment.strftime('%Z'))}"




def local_time(value: datetime | None, tz: str | None = None) -> str:
    """The time of day in ``tz`` (default: the viewer's zone) with its zone: "14:00 CET"."""
    return local(value, tz, "%H:%M")


def local_date(value: datetime | date | None, tz: str | None = None) -> str:
    """The date of a moment in ``tz`` (default: the viewer's zone), or a calendar date as it is."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return local(value, tz, DATE_FORMAT)
    return value.strftime(DATE_FORMAT)


def sentence(text: str | None) -> str:
    """The text with its first letter capitalised and the rest left alone.

    Jinja's ``capitalize`` lower-cases everything after the first letter, which turns the round and people's
    names inside a scheduler's reason ("round Compiler design deep-dive: ...") into lower case.
    """
    text = str(text or "")
    return text[:1].upper() + text[1:]


def plural_filter(count, singular: str, many: str | None = None, bare: bool = False) -> str:
    """``{{ n|plural('interview') }}`` -> "1 interview" / "2 interviews"; ``bare=True`` gives the noun alone."""
    count = int(count or 0)
    return noun(count, singular, many) if bare else plural(count, singular, many)


def register(app: Flask) -> None:
    app.add_template_filter(plural_filter, "plural")
    app.add_template_filter(sentence, "sentence")
    app.add_template_filter(local, "local")
    app.add_template_filter(local_time, "local_time")
    app.add_template_filter(local_date, "local_date")

    @app.context_processor
    def _globals():
        def has_endpoint(endpoint: str) -> bool:
            return endpoint in app.view_functions

        def nav_active(prefix: str) -> bool:
            return (request.endpoint or "").startswith(prefix)

        return {
            "viewer_timezone": viewer_timezone,
            "has_endpoint": has_endpoint,
            "nav_active": nav_active,
            "url_for": url_for,
        }
