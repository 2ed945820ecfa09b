"""The CalDAV calendar panel shared by the coordinator's person page and the interviewer's own page.

Each role registers routes that call these helpers for "its" person; the panel's template reads
``calendar_panel(...)``, so the pages it sits on include it with one line and need no other change.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, flash, g
from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import Length

from planner.core.errors import FieldError, PlannerError, ValidationFailed
from planner.core.pool.caldav import MAX_SECRET, MAX_URL, MAX_USERNAME
from planner.db import utcnow
from planner.queries.calendars import CalendarStatus, get_calendar_status
from planner.services import calendars
from planner.web.dbsession import get_session


class CalDAVForm(FlaskForm):
    """Address, user and password of a CalDAV calendar (the password field is never filled in)."""

    url = StringField("CalDAV address", validators=[Length(max=MAX_URL)],
                      description="The calendar's own address, e.g. https://cal.example.com/dav/ana/work/")
    username = StringField("User name", validators=[Length(max=MAX_USERNAME)])
    password = PasswordField("Password or app password", validators=[Length(max=MAX_SECRET)])


@dataclass
class Panel:
    """What the panel template needs: the status, the form, and where its buttons post."""

    status: CalendarStatus | None
    form: CalDAVForm
    save_url: str
    remove_url: str
    sync_url: str
    horizon_days: int
    #: "their" on the coordinator's page, "your" on the interviewer's own.
    whose: str


def settings() -> calendars.CalendarSettings:
    return calendars.CalendarSettings.from_mapping(current_app.config)


def panel(person_id: int, *, save_url: str, remove_url: str, sync_url: str, whose: str) -> Panel:
    """The panel for one person: a form bound to the last failed POST of this request, or the saved values."""
    status = get_calendar_status(get_session(), person_id)
    form = g.get("caldav_form")
    if form is None:
        form = CalDAVForm(formdata=None, data={"url": status.url, "username": status.username} if status else {})
    return Panel(status, form, save_url, remove_url, sync_url, settings().horizon_days, whose)


def save(person_id: int, actor_id: int) -> bool:
    """Save the posted calendar; on bad input keep the form (with its errors) for the re-rendered page."""
    form = CalDAVForm()
    if form.validate_on_submit():
        data = calendars.CalendarInput(url=form.url.data or "", username=form.username.data or "",
                                       password=form.password.data or "")
        try:
            calendars.set_calendar(get_session(), person_id, data, settings=settings(), actor_id=actor_id)
        except FieldError as exc:
            get_session().rollback()
            getattr(form, exc.field, form.url).errors.append(str(exc))
        except ValidationFailed as exc:
            get_session().rollback()
            form.url.errors.append(str(exc))
        else:
            flash("Calendar saved. Press “Sync now” to fetch the busy time from it.", "success")
            return True
    form.password.data = ""  # never sent back to the browser
    g.caldav_form = form
    return False


def remove(person_id: int, actor_id: int) -> None:
    """Remove the calendar and its busy blocks, and say how many went."""
    try:
        removed = calendars.remove_calendar(get_session(), person_id, actor_id=actor_id)
    except PlannerError as exc:
        flash(str(exc), "error")
    else:
        flash(f"Calendar removed, with the {removed} busy block{'s' if removed != 1 else ''} it brought.",
              "success")


def sync(person_id: int, actor_id: int) -> None:
    """Sync now. Success is flashed; a failure is shown once, by the panel's "Last sync failed" line."""
    try:
        report = calendars.sync_calendar(get_session(), person_id, now=utcnow(), settings=settings(),
                                         actor_id=actor_id)
    except PlannerError as exc:  # no calendar (removed meanwhile)
        flash(str(exc), "error")
        return
    if report.ok:
        flash(f"Synced: {report.message}", "success")
