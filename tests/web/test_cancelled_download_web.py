"""A cancelled interview on the interviewer's page: no "Add to calendar", and its download address says why.

Also the feed of an interviewer without interviews, as the route serves it.
"""

from __future__ import annotations

from datetime import timedelta

from icalendar import Calendar
from invitedata import SETTINGS, make_interviewer, make_loop

from planner.db import utcnow
from planner.models import InterviewStatus
from planner.services import invites
from planner.web.filters import local, local_time


def _signed_in_with_two_interviews(db, make_user, client):
    """Priya, signed in, with two upcoming interviews announced; the second one then cancelled."""
    user = make_user(email="priya@hire.example", roles=("interviewer",))
    me = make_interviewer(db, "Priya Nair", "priya@hire.example", "Asia/Kolkata", user_id=user.id)
    start = (utcnow() + timedelta(days=3)).replace(hour=8, minute=0, second=0, microsecond=0)
    scenario = make_loop(db, rounds=2, first_start=start, existing=[me])
    kept, cancelled = scenario.interviews
    invites.announce_scheduled(db, [kept.id, cancelled.id], settings=SETTINGS, now=utcnow())
    cancelled.status = InterviewStatus.CANCELLED
    invites.announce_cancelled(db, cancelled.id, settings=SETTINGS, now=utcnow())
    db.commit()
    assert client.post("/login", data={"email": user.email, "password": "password123"}).status_code == 302
    return me, kept, cancelled


def test_no_add_to_calendar_link_for_a_cancelled_interview(client, db, make_user):
    """The cancelled card is marked cancelled and offers no .ics; the scheduled one still does."""
    _me, kept, cancelled = _signed_in_with_two_interviews(db, make_user, client)
    page = client.get("/interviewer/").get_data(as_text=True)
    assert f'data-interview="{cancelled.id}"' in page and "Cancelled" in page
    assert f"/interviewer/interviews/{kept.id}.ics" in page
    assert f"/interviewer/interviews/{cancelled.id}.ics" not in page
    assert page.count("Add to calendar (.ics)") == 1


def test_the_download_of_a_cancelled_interview_is_gone_with_a_clear_page(client, db, make_user):
    """410 Gone, an HTML page naming the round and its time in the interviewer's zone, and no calendar data."""
    me, _kept, cancelled = _signed_in_with_two_interviews(db, make_user, client)
    response = client.get(f"/interviewer/interviews/{cancelled.id}.ics")
    assert response.status_code == 410
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "Interview cancelled" in page and "nothing to add to your calendar" in page
    assert f"{local(cancelled.start, me.timezone)}–{local_time(cancelled.end, me.timezone)}" in page
    assert "BEGIN:VCALENDAR" not in page and "Content-Disposition" not in response.headers


def test_the_feed_of_an_interviewer_without_interviews_holds_one_journal_entry(client, db):
    """The feed route serves the empty feed as one VJOURNAL, no VEVENT, with the usual name and hints."""
    newcomer = make_interviewer(db, "Noor Ali", "noor@hire.example", "UTC")
    db.commit()
    response = client.get(f"/feeds/{newcomer.feed_token}.ics")
    assert response.status_code == 200
    cal = Calendar.from_ical(response.data)
    assert [c.name for c in cal.subcomponents] == ["VJOURNAL"]
    assert str(cal["NAME"]) == "Interviews – Noor Ali" and cal.get("X-PUBLISHED-TTL") is not None
