"""Template filters and globals: local times for the viewer, navigation that follows what exists."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask, request, url_for
from flask_login import current_user


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


def local(value: datetime | None, tz: str | None = None, fmt: str = "%a %d %b %Y, %H:%M") -> str:
    """Format an aware datetime in `tz` (default: the viewer's zone), with the zone abbreviation."""
    if value is None:
        return ""
    moment = value.astimezone(_zone(tz or viewer_timezone()))
    return f"{moment.strftime(fmt)} {moment.strftime('%Z')}"


def local_time(value: datetime | None, tz: str | None = None) -> str:
    return local(value, tz, "%H:%M")


def register(app: Flask) -> None:
    app.add_template_filter(local, "local")
    app.add_template_filter(local_time, "local_time")

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
