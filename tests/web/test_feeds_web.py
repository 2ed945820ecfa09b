"""The public calendar feed: token access, ETag/304, only the owner's seats, rotation kills the old URL."""

from __future__ import annotations

from datetime import timedelta

from invitedata import make_interviewer, make_loop
from sqlalchemy import select

from planner.db import utcnow
from planner.models import Interviewer, InterviewStatus, SeatStatus
from planner.services.feeds import rotate_feed_token


def _scenario(db):
    soon = utcnow().replace(microsecond=0) + timedelta(days=3)
    scenario = make_loop(db, rounds=2, first_start=soon)
    other = make_loop(
        db,
        rounds=1,
        first_start=soon,
        tag="-other",
        existing=[make_interviewer(db, "Zed Other", "zed@hire.example", "UTC")],
    )
    db.commit()
    return scenario, other


def test_feed_lists_only_the_owners_interviews_without_login(client, db):
    """Anonymous GET of a valid token returns that interviewer's interviews as text/calendar, no ATTENDEE."""
    scenario, other = _scenario(db)
    ana = scenario.interviewers[0]
    response = client.get(f"/feeds/{ana.feed_token}.ics")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/calendar; charset=utf-8"
    body = response.data.replace(b"\r\n ", b"")
    assert body.count(b"BEGIN:VEVENT") == 2
    for interview in scenario.interviews:
        assert f"UID:{interview.uid}".encode() in body
    assert other.interviews[0].uid.encode() not in body
    assert b"METHOD:PUBLISH" in body and b"ATTENDEE" not in body
    assert b"X-WR-CALNAME:Interviews \xe2\x80\x93 Ana Ruiz" in body


def test_etag_gives_304_until_something_changes(client, db):
    """A repeated request with If-None-Match gets 304; a change to an interview gives a new ETag."""
    scenario, _ = _scenario(db)
    url = f"/feeds/{scenario.interviewers[0].feed_token}.ics"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert etag.startswith('"') and client.get(url).headers["ETag"] == etag
    cached = client.get(url, headers={"If-None-Match": etag})
    assert cached.status_code == 304 and cached.data == b""
    interview = scenario.interviews[0]
    interview.location = "Room 7"
    interview.sequence += 1
    db.commit()
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert b"Room 7" in changed.data


def test_cancelled_shown_as_cancelled_and_removed_seats_left_out(client, db):
    """A cancelled interview stays with STATUS:CANCELLED; an interview the person was taken off disappears."""
    scenario, _ = _scenario(db)
    ana = scenario.interviewers[0]
    first, second = scenario.interviews
    first.status = InterviewStatus.CANCELLED
    first.sequence = 1
    next(s for s in second.seats if s.interviewer_id == ana.id).status = SeatStatus.REMOVED
    db.commit()
    body = client.get(f"/feeds/{ana.feed_token}.ics").data.replace(b"\r\n ", b"")
    assert body.count(b"BEGIN:VEVENT") == 1
    assert first.uid.encode() in body and b"STATUS:CANCELLED" in body
    assert second.uid.encode() not in body


def test_wrong_token_is_an_empty_404(client, db):
    """Unknown, truncated or odd tokens get 404 with an empty body and no hint."""
    scenario, _ = _scenario(db)
    token = scenario.interviewers[0].feed_token
    for bad in ["nope", token[:-1], token + "x", "x" * 200, "%00"]:
        response = client.get(f"/feeds/{bad}.ics")
        assert response.status_code == 404, bad
        assert response.data == b""


def test_rotated_token_stops_working(client, db):
    """After rotation the old URL is a 404 and the new one serves the feed."""
    scenario, _ = _scenario(db)
    ana = scenario.interviewers[0]
    old = ana.feed_token
    new = rotate_feed_token(db, ana.id, actor_id=None)
    assert new != old and len(new) >= 40
    assert client.get(f"/feeds/{old}.ics").status_code == 404
    assert client.get(f"/feeds/{new}.ics").status_code == 200
    assert db.scalar(select(Interviewer.feed_token).where(Interviewer.id == ana.id)) == new
