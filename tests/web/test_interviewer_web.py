"""The interviewer's home: upcoming interviews in their zone, what to assess, downloads, the feed card."""

from __future__ import annotations

from datetime import timedelta

from invitedata import make_interviewer, make_loop

from planner.db import utcnow
from planner.models import Interviewer


def _me(db, make_user, client, tz="Asia/Kolkata", viewer_tz="UTC"):
    user = make_user(email="priya@hire.example", roles=("interviewer",), timezone=viewer_tz)
    me = make_interviewer(db, "Priya Nair", "priya@hire.example", tz, user_id=user.id)
    db.commit()
    response = client.post("/login", data={"email": "priya@hire.example", "password": "password123"})
    assert response.status_code == 302
    return me


def test_home_lists_upcoming_interviews_in_the_interviewers_zone(client, db, make_user):
    """Upcoming interviews show the interviewer's and the viewer's local time, competencies and questions."""
    me = _me(db, make_user, client, tz="Asia/Kolkata", viewer_tz="America/Los_Angeles")
    start = (utcnow() + timedelta(days=2)).replace(hour=8, minute=0, second=0, microsecond=0)
    scenario = make_loop(db, rounds=1, first_start=start, existing=[me])
    past = make_loop(db, rounds=1, first_start=start - timedelta(days=20), existing=[me], tag="-past")
    db.commit()
    page = client.get("/interviewer/").get_data(as_text=True)
    assert "13:30 IST–14:30 IST" in page  # the interviewer's zone, in the date format of every page
    assert "PST–" in page  # and the viewer's
    assert "Compiler design" in page and "primary" in page
    assert "Walk through a lowering pass you designed." in page
    assert "Kim Lee" in page and "https://video.example/room-1" in page
    assert f"/interviewer/interviews/{scenario.interviews[0].id}.ics" in page
    assert "Past interviews (1)" in page and "Kim Lee-past" in page
    assert f"/interviewer/interviews/{past.interviews[0].id}.ics" not in page
    assert f"/feeds/{me.feed_token}.ics" in page and "webcal://" in page



def test_feed_url_follows_the_address_in_use_unless_base_url_is_set(app, client, db, make_user):
    """Without BASE_URL the feed card shows the host and port the page was opened on; with it, BASE_URL."""
    me = _me(db, make_user, client)
    feed = f"/feeds/{me.feed_token}.ics"
    # The session cookie belongs to the host it was set on: log in again on the other address.
    login = {"email": "priya@hire.example", "password": "password123"}
    assert client.post("/login", data=login, base_url="http://planner.test:8123").status_code == 302
    page = client.get("/interviewer/", base_url="http://planner.test:8123").get_data(as_text=True)
    assert f"http://planner.test:8123{feed}" in page and f"webcal://planner.test:8123{feed}" in page
    app.config["BASE_URL"] = "https://planner.example.com/"
    page = client.get("/interviewer/", base_url="http://planner.test:8123").get_data(as_text=True)
    assert f"https://planner.example.com{feed}" in page and "planner.test:8123" not in page

def test_ics_download_only_for_own_interviews(client, db, make_user):
    """The .ics download works for the interviewer's own interview and is 404 for anybody else's."""
    me = _me(db, make_user, client)
    mine = make_loop(db, rounds=1, existing=[me])
    theirs = make_loop(
        db, rounds=1, tag="-x", existing=[make_interviewer(db, "Zed", "zed@hire.example", "UTC")]
    )
    db.commit()
    response = client.get(f"/interviewer/interviews/{mine.interviews[0].id}.ics")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/calendar; charset=utf-8"
    assert "attachment" in response.headers["Content-Disposition"]
    assert mine.interviews[0].uid.encode() in response.data.replace(b"\r\n ", b"")
    assert b"METHOD:PUBLISH" in response.data
    assert client.get(f"/interviewer/interviews/{theirs.interviews[0].id}.ics").status_code == 404
    assert client.get("/interviewer/interviews/999999.ics").status_code == 404


def test_rotate_link_issues_a_new_token(client, db, make_user):
    """POST rotate gives a new token; the page shows it and the old feed URL is dead."""
    me = _me(db, make_user, client)
    old = me.feed_token
    response = client.post("/interviewer/feed/rotate")
    assert response.status_code == 302
    db.expire_all()
    new = db.get(Interviewer, me.id).feed_token
    assert new != old
    page = client.get("/interviewer/").get_data(as_text=True)
    assert f"/feeds/{new}.ics" in page and old not in page
    assert client.get(f"/feeds/{old}.ics").status_code == 404


def test_unlinked_login_sees_a_clear_message(login):
    """A login with the interviewer role but no pool entry is told to ask a coordinator; downloads 404."""
    client = login("interviewer")
    assert "not linked to an interviewer profile" in client.get("/interviewer/").get_data(as_text=True)
    assert client.get("/interviewer/interviews/1.ics").status_code == 404
    assert client.post("/interviewer/feed/rotate").status_code == 404
