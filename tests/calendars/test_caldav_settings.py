"""A calendar's settings: the password is encrypted at rest, never echoed, and bad input changes nothing."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from caldavutil import KEY, SETTINGS, connect, counts
from poolutil import interviewer
from sqlalchemy import select, text

from planner.core.errors import FieldError, NotFound
from planner.models import AuditEntry, CalendarSource
from planner.services.calendars import (
    CalendarInput,
    CalendarSettings,
    SecretBox,
    generate_key,
    remove_calendar,
    rotate_calendar_secrets,
    set_calendar,
)

SECRET = "app-pass-QX7-never-shown"
URL = "https://cal.example.com/dav/ana/work/"


def test_secret_is_encrypted_at_rest(db):
    """The raw column holds a Fernet token, not the password; the configured key opens it; the audit
    entry says only that the secret changed."""
    person = interviewer(db)
    connect(db, person.id, URL, password=SECRET)

    raw = db.execute(text("SELECT secret FROM calendar_sources")).scalar_one()
    assert SECRET not in raw and raw.startswith("gAAAA")
    assert SecretBox([KEY]).decrypt(raw) == SECRET
    audit = db.scalars(select(AuditEntry).where(AuditEntry.action == "calendar.set")).one()
    assert SECRET not in json.dumps(audit.details) and raw not in json.dumps(audit.details)
    assert audit.details["secret"] == "changed" and audit.interviewer_id == person.id and audit.loop_id is None


def test_blank_password_keeps_the_saved_one_and_a_new_address_forgets_the_sync_state(db):
    """Saving with an empty password keeps the secret; a new address drops the server state token."""
    person = interviewer(db)
    source = connect(db, person.id, URL, password=SECRET)
    token = source.secret
    source.state_token = "sync:abc"
    db.commit()

    set_calendar(db, person.id, CalendarInput(URL.replace("work", "home"), "ana", ""), settings=SETTINGS,
                 actor_id=None)

    row = db.get(CalendarSource, source.id)
    assert row.secret == token and row.state_token is None and row.url.endswith("/home/")
    assert db.scalars(select(AuditEntry).where(AuditEntry.action == "calendar.set")).all()[-1].details[
        "secret"] == "kept"


def test_no_key_refuses_to_store_a_password(db):
    """Without CALENDAR_SECRET_KEY a password is refused with a sentence on the password field; nothing is
    saved. A calendar without a password can still be saved."""
    person = interviewer(db)
    before = counts(db)
    with pytest.raises(FieldError) as caught:
        connect(db, person.id, URL, password=SECRET, settings=CalendarSettings())
    assert caught.value.field == "password" and "no calendar secret key is configured" in str(caught.value)
    assert "planner calendars keygen" in str(caught.value)
    db.rollback()
    assert counts(db) == before

    source = connect(db, person.id, URL, password="", settings=CalendarSettings())
    assert source.secret is None


@pytest.mark.parametrize(("url", "field_says"), [
    ("", "Give the calendar's CalDAV address"),
    ("ftp://cal.example.com/x/", "must start with https://"),
    ("https://ana:pw@cal.example.com/x/", "not inside the calendar address"),
    ("http://cal.example.com/x/", "Use an https:// address"),
    ("https://cal.example.com:99999/x/", "not a valid URL"),
    ("https://cal.example.com/" + "x" * 500, "limited to 500 characters"),
])
def test_bad_addresses_are_refused(db, url, field_says):
    """Each bad address gets one sentence on the URL field and changes nothing."""
    person = interviewer(db)
    before = counts(db)
    with pytest.raises(FieldError) as caught:
        connect(db, person.id, url, password=SECRET)
    assert caught.value.field == "url" and field_says in str(caught.value)
    db.rollback()
    assert counts(db) == before


def test_plain_http_only_to_this_machine_unless_allowed(db):
    """http:// is accepted for loopback (and with CALDAV_ALLOW_HTTP), https everywhere."""
    person = interviewer(db)
    assert connect(db, person.id, "http://127.0.0.1:5232/ana/work/", password=SECRET).url.startswith("http://")
    assert connect(db, person.id, "http://cal.lan/x/", password=SECRET,
                   settings=replace(SETTINGS, allow_http=True)).url == "http://cal.lan/x/"


def test_settings_from_config():
    """Keys may be a comma-separated list; numbers fall back to sane bounds."""
    settings = CalendarSettings.from_mapping({"CALENDAR_SECRET_KEY": "k1, k2", "CALDAV_HORIZON_DAYS": "9000",
                                              "CALDAV_TIMEOUT": "nonsense"})
    assert settings.secret_keys == ("k1", "k2") and settings.horizon_days == 365 and settings.timeout == 10.0
    assert CalendarSettings.from_mapping({}).secret_keys == ()


def test_rotation_re_encrypts_under_the_first_key(db):
    """With a new key first and the old one after it, rotate-key leaves every secret readable by the new key."""
    person = interviewer(db)
    connect(db, person.id, URL, password=SECRET)
    new = generate_key()

    assert rotate_calendar_secrets(db, settings=CalendarSettings(secret_keys=(new, KEY))) == 1

    raw = db.execute(text("SELECT secret FROM calendar_sources")).scalar_one()
    assert SecretBox([new]).decrypt(raw) == SECRET


def test_removing_a_calendar_that_is_not_there(db):
    """Removing twice: NotFound with the person's name."""
    person = interviewer(db, "Ana Ruiz")
    with pytest.raises(NotFound, match="Ana Ruiz has no CalDAV calendar"):
        remove_calendar(db, person.id, actor_id=None)
