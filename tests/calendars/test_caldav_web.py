"""The CalDAV panel on the coordinator's person page and on the interviewer's own page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from caldavutil import KEY, blocks, counts, vcalendar, vevent
from poolutil import interviewer
from radicaleutil import PASSWORD
from sqlalchemy import select, text

from planner.models import AuditEntry, CalendarSource, Interviewer


@pytest.fixture
def coordinator(app, login):
    app.config["CALENDAR_SECRET_KEY"] = KEY
    return login("coordinator")


def _tomorrow_meeting() -> str:
    day = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y%m%d")
    return vcalendar(vevent("sync@web", f"{day}T100000", f"{day}T110000", "Planning", tzid="Europe/Madrid"))


def test_coordinator_saves_syncs_and_removes(coordinator, db, radicale):
    """Save encrypts the password and never shows it back; Sync now brings the busy block and says so;
    Remove takes the blocks along."""
    calendar = radicale.new_calendar()
    calendar.save_event(_tomorrow_meeting())
    person = interviewer(db, "Ana Ruiz", "Europe/Madrid")
    page = f"/coordinator/interviewers/{person.id}"

    saved = coordinator.post(f"{page}/calendar", data={"url": str(calendar.url), "username": "ana",
                                                       "password": PASSWORD})
    assert saved.status_code == 302 and saved.location.endswith(f"{page}#caldav")
    html = coordinator.get(page).get_data(as_text=True)
    assert "saved (encrypted); never shown" in html and "not synced yet" in html
    assert "Saved; leave blank to keep it." in html
    assert PASSWORD not in html
    assert PASSWORD not in db.execute(text("SELECT secret FROM calendar_sources")).scalar_one()

    synced = coordinator.post(f"{page}/calendar/sync", follow_redirects=True).get_data(as_text=True)
    assert "Synced: 1 busy block from 1 event." in synced and "· 1 busy block" in synced
    assert PASSWORD not in synced
    assert [b.summary for b in blocks(db, person.id)] == ["Planning"]

    # Saving again with a blank password keeps the secret.
    coordinator.post(f"{page}/calendar", data={"url": str(calendar.url), "username": "ana", "password": ""})
    again = coordinator.post(f"{page}/calendar/sync", follow_redirects=True).get_data(as_text=True)
    assert "Synced:" in again and "Last sync failed" not in again

    removed = coordinator.post(f"{page}/calendar/remove", follow_redirects=True).get_data(as_text=True)
    assert "Calendar removed, with the 1 busy block it brought." in removed
    assert blocks(db, person.id) == [] and db.scalar(select(CalendarSource)) is None
    actions = db.scalars(select(AuditEntry.action).where(AuditEntry.interviewer_id == person.id)).all()
    assert actions.count("calendar.set") == 2 and "calendar.sync" in actions and "calendar.remove" in actions


def test_failed_sync_is_one_message_on_the_page(coordinator, db, radicale):
    """A refused password: the page shows 'Last sync failed at ...: <reason>' once, no traceback, old blocks kept."""
    calendar = radicale.new_calendar()
    calendar.save_event(_tomorrow_meeting())
    person = interviewer(db, "Ana Ruiz", "Europe/Madrid")
    page = f"/coordinator/interviewers/{person.id}"
    coordinator.post(f"{page}/calendar", data={"url": str(calendar.url), "username": "ana", "password": PASSWORD})
    coordinator.post(f"{page}/calendar/sync")
    coordinator.post(f"{page}/calendar", data={"url": str(calendar.url), "username": "ana", "password": "wrong"})
    before = counts(db)

    response = coordinator.post(f"{page}/calendar/sync", follow_redirects=True)

    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert html.count("Last sync failed at") == 1
    assert "refused the user name or password (HTTP 401)" in html
    assert "The busy blocks of the last successful sync stay in force." in html
    assert "Traceback" not in html and "wrong" not in html.split("Last sync failed at")[1][:300]
    assert counts(db) == before and len(blocks(db, person.id)) == 1


@pytest.mark.parametrize(("form", "field_message"), [
    ({"url": "ftp://cal.example.com/", "username": "", "password": "x"}, "must start with https://"),
    ({"url": "https://a:b@cal.example.com/", "username": "", "password": "x"}, "not inside the calendar address"),
    ({"url": "https://cal.example.com/" + "x" * 600, "username": "", "password": "x"}, "longer than 500"),
])
def test_bad_input_is_refused_on_the_form(coordinator, db, form, field_message):
    """A bad address re-renders the person's page (400) with the message under the field; nothing is saved,
    and the typed password is not sent back."""
    person = interviewer(db)
    before = counts(db)
    response = coordinator.post(f"/coordinator/interviewers/{person.id}/calendar", data=form)
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and field_message in html
    assert 'value="x"' not in html and "Qualifications" in html
    assert counts(db) == before


def test_no_key_configured(app, login, db):
    """Without CALENDAR_SECRET_KEY the password is refused with how to set a key; nothing is saved."""
    app.config["CALENDAR_SECRET_KEY"] = None
    client = login("coordinator")
    person = interviewer(db)
    before = counts(db)
    response = client.post(f"/coordinator/interviewers/{person.id}/calendar",
                           data={"url": "https://cal.example.com/a/", "username": "a", "password": "secret"})
    assert response.status_code == 400
    assert "no calendar secret key is configured" in response.get_data(as_text=True)
    assert counts(db) == before


def test_interviewer_sets_and_syncs_their_own(app, client, db, make_user, radicale):
    """An interviewer saves and syncs their own calendar from /interviewer/; others' pages are not reachable."""
    app.config["CALENDAR_SECRET_KEY"] = KEY
    user = make_user(email="ana@hire.example", roles=("interviewer",))
    me = interviewer(db, "Ana Ruiz", "Europe/Madrid", email="ana@hire.example")
    db.get(Interviewer, me.id).user_id = user.id
    db.commit()
    client.post("/login", data={"email": "ana@hire.example", "password": "password123"})
    calendar = radicale.new_calendar()
    calendar.save_event(_tomorrow_meeting())

    assert client.post("/interviewer/calendar", data={"url": str(calendar.url), "username": "ana",
                                                      "password": PASSWORD}).status_code == 302
    html = client.post("/interviewer/calendar/sync", follow_redirects=True).get_data(as_text=True)
    assert "Synced: 1 busy block from 1 event." in html and "Busy time is read from your calendar" in html
    assert PASSWORD not in html
    assert client.post(f"/coordinator/interviewers/{me.id}/calendar/sync").status_code == 403
    bad = client.post("/interviewer/calendar", data={"url": "nonsense", "username": "", "password": ""})
    assert bad.status_code == 400 and "must start with https://" in bad.get_data(as_text=True)
    assert "My interviews" in bad.get_data(as_text=True)


def test_login_without_profile_gets_404(login):
    """An interviewer login not linked to the pool has no calendar to set."""
    client = login("interviewer")
    assert client.post("/interviewer/calendar/sync").status_code == 404
