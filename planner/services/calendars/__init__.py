"""Interviewers' CalDAV calendars: settings with encrypted secrets, and busy-time sync."""

from planner.services.calendars.caldav_client import CalendarUnavailable, fetch_events
from planner.services.calendars.secrets import SecretBox, SecretKeyMissing, SecretUnreadable, generate_key
from planner.services.calendars.settings import CalendarSettings
from planner.services.calendars.sources import (
    CalendarInput,
    get_calendar,
    remove_calendar,
    rotate_calendar_secrets,
    set_calendar,
)
from planner.services.calendars.sync import SyncReport, sync_all, sync_calendar

__all__ = [
    "CalendarInput", "CalendarSettings", "CalendarUnavailable", "SecretBox", "SecretKeyMissing",
    "SecretUnreadable", "SyncReport", "fetch_events", "generate_key", "get_calendar", "remove_calendar",
    "rotate_calendar_secrets",
    "set_calendar", "sync_all", "sync_calendar",
]
