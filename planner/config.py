"""Configuration defaults and load order: defaults, PLANNER_CONFIG file, PLANNER_* env, overrides."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from planner.core.errors import PlannerError


class ConfigError(PlannerError):
    """Start-up configuration is missing or wrong."""


DEFAULTS: dict[str, Any] = {
    "ENV": "development",
    "SECRET_KEY": None,
    "DATABASE_URL": None,  # None means the SQLite file in the instance folder
    "WTF_CSRF_ENABLED": True,
    "WTF_CSRF_TIME_LIMIT": None,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "REMEMBER_COOKIE_SAMESITE": "Lax",
    "REMEMBER_COOKIE_HTTPONLY": True,
    # Sign-in attempts that fail, per account (the email typed) and per client address, within a window
    # (Flask-Limiter's notation). Counts live in RATELIMIT_STORAGE_URI: "memory://" is per process, so
    # with several gunicorn workers use a shared store such as "redis://host:6379".
    "LOGIN_LIMIT_PER_ACCOUNT": "5 per 15 minutes",
    "LOGIN_LIMIT_PER_ADDRESS": "30 per 15 minutes",
    "RATELIMIT_STORAGE_URI": "memory://",
    # The largest request body (uploads included) read at all; bigger ones get the 413 page.
    "MAX_CONTENT_LENGTH": 8 * 1024 * 1024,
    # Public base URL used in invites and feed links. Unset: the address a page was requested on (pages and
    # the mail they send) or http://127.0.0.1:5000 (command-line mail); set it behind a proxy.
    "BASE_URL": None,
    # The organizer of every invite: a real mailbox on the team's domain; From equals it.
    "MAIL_ORGANIZER_EMAIL": "recruiting@planner.example",
    "MAIL_ORGANIZER_NAME": "Recruiting",
    "MAIL_SERVER": None,  # no server: messages stay in the outbox for download
    "MAIL_PORT": 25,
    "MAIL_USERNAME": None,
    "MAIL_PASSWORD": None,
    "MAIL_USE_TLS": False,
    "MAIL_USE_SSL": False,
    "MAIL_TIMEOUT": 10,
    "UID_DOMAIN": "planner.example",
    "SCHEDULER_TIME_LIMIT": 10.0,
    "OUTBOX_PAGE_SIZE": 50,  # messages per page on the coordinator's outbox
    # Candidates picking their own time through a link (README "Candidates").
    "COMPANY_NAME": None,  # shown to candidates; unset: MAIL_ORGANIZER_NAME
    "CANDIDATE_LINK_DAYS": 7,  # a link's lifetime (it also lives until a booked loop ends)
    "CANDIDATE_NOTICE_HOURS": 24,  # nothing offered, moved or cancelled closer than this to the first round
    "CANDIDATE_HORIZON_DAYS": 14,  # without windows on the loop: the coming days offered...
    "CANDIDATE_DAY_HOURS": "09:00-17:00",  # ...these hours of them in the candidate's zone...
    "CANDIDATE_DAYS": "mon tue wed thu fri",  # ...on these weekdays
    "CANDIDATE_START_MINUTES": 30,  # offered starts on whole multiples of this many minutes
    "CANDIDATE_SPLIT_DAYS": 2,  # days a loop with no gap limit may spread over
    "CANDIDATE_OFFER_CACHE_SECONDS": 600,  # offered times kept at most this long (changes drop them at once)
    # The organizer mailbox calendar answers arrive in (`planner inbox`); no server: answers are uploaded by hand.
    "IMAP_SERVER": None,
    "IMAP_PORT": None,  # 993 with IMAP_USE_SSL, else 143
    "IMAP_USERNAME": None,
    "IMAP_PASSWORD": None,
    "IMAP_USE_SSL": True,
    "IMAP_STARTTLS": False,
    "IMAP_MAILBOX": "INBOX",
    "IMAP_POLL_SECONDS": 60,
    "IMAP_TIMEOUT": 30,
    "INBOUND_MAX_BYTES": 1_000_000,  # a larger inbound message or upload is refused unread
    "INBOX_PAGE_SIZE": 50,  # messages per page on the coordinator's inbox
    "SCORECARD_DUE_HOURS": 24,  # a scorecard is due this many hours after its interview ends
    "SCORECARD_REMINDERS": True,  # `planner worker` queues one reminder a day to assessors with overdue scorecards
    # Fernet key(s) encrypting CalDAV passwords, newest first ("planner calendars keygen"); unset: none is saved.
    "CALENDAR_SECRET_KEY": None,
    "CALDAV_HORIZON_DAYS": 60,  # a CalDAV sync reads busy time from today to this many days ahead
    "CALDAV_TIMEOUT": 10,  # seconds to wait for a CalDAV server (connect, and each read)
    "CALDAV_ALLOW_HTTP": False,  # plain http:// calendars on other machines (passwords unencrypted on the wire)
    "POOL_PAGE_SIZE": 50,  # interviewers per page on the coordinator's pool list
    "LOOPS_PAGE_SIZE": 50,  # loops per page on the coordinator's loop list
    "POSTINGS_PAGE_SIZE": 50,  # postings per page on the coordinator's posting list
    "COVERAGE_PAGE_SIZE": 50,  # postings per page on the manager's coverage list
    # Pages people reload (overviews, lists, the feed) are kept per process until the data changes, and at
    # most this many seconds for what only the clock changes (planner/web/pagecache.py); 0 turns it off.
    "PAGE_CACHE_SECONDS": 30,
    "PAGE_CACHE_MAX_BYTES": 32 * 1024 * 1024,  # per process
}

# A development-only key so `make run` works out of the box; production refuses it.
DEVELOPMENT_SECRET_KEY = "development-only-not-secret"


def load_config(instance_path: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Merge the configuration sources in order and check what must be there.

    :raise ConfigError: the config file is missing, or production has no secret key.
    """
    config = dict(DEFAULTS)
    config_file = os.environ.get("PLANNER_CONFIG")
    if config_file:
        path = Path(config_file)
        if not path.is_file():
            raise ConfigError(f"PLANNER_CONFIG names {config_file!r}, which is not a file.")
        namespace: dict[str, Any] = {"__file__": str(path)}
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)  # noqa: S102
        config.update({k: v for k, v in namespace.items() if k.isupper()})
    for key, value in os.environ.items():
        if key.startswith("PLANNER_") and key != "PLANNER_CONFIG" and not key.startswith("PLANNER_TEST_"):
            config[key.removeprefix("PLANNER_")] = _parse_env_value(value)
    config.update(overrides or {})

    if not config.get("DATABASE_URL"):
        config["DATABASE_URL"] = f"sqlite:///{Path(instance_path) / 'planner.sqlite3'}"
    if not config.get("SECRET_KEY"):
        if config.get("ENV") == "production":
            raise ConfigError("PLANNER_SECRET_KEY is not set; production refuses to start without a secret key.")
        config["SECRET_KEY"] = DEVELOPMENT_SECRET_KEY
    if config.get("ENV") == "production":
        # Production is served over https: cookies never travel in clear text (unless set otherwise on purpose).
        for key in ("SESSION_COOKIE_SECURE", "REMEMBER_COOKIE_SECURE"):
            config.setdefault(key, True)
    return config


def _parse_env_value(value: str) -> Any:
    # Environment values are strings; booleans and integers are what mail settings need.
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered.lstrip("-").isdigit():
        return int(lowered)
    return value
