"""The candidate's link in the web app: sending it, the page, booking, bad links and bad input."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from candidateworld import counts
from icalendar import Calendar
from loopworld import World
from smtputil import smtp_server
from sqlalchemy import select

from planner.db import utcnow
from planner.models import BusyBlock, Interviewer, LoopStatus, OutboxMessage, Scorecard
from planner.services import candidate_links, outbox
from planner.web.candidate.tokens import token_of

FOCUS = "Walk through a pass you designed."


@pytest.fixture
def world(db):
    """The loop world with a loop that has no windows, a scorecard note and another candidate."""
    world = World(db)
    world.pool = world.basic_pool()
    world.link_loop = world.loop("Kim Lee", windows=())
    world.other = world.loop("Lou Park", windows=())
    world.link_loop.coverage_override = None
    db.commit()
    return world


def _issue(app, db, loop):
    issued = candidate_links.issue_link(db, loop.id, actor_id=None, now=utcnow(), lifetime_days=7)
    with app.test_request_context():
        return token_of(issued)


def _starts(html: str) -> list[str]:
    return re.findall(r'name="start" id="[^"]+" value="([^"]+)"', html)


def test_coordinator_emails_the_link_through_the_outbox(app, db, login, world):
    """Send: one plain email (no calendar part) to the candidate with a working link; the worker delivers it."""
    client = login("coordinator")
    response = client.post(f"/coordinator/loops/{world.link_loop.id}/candidate-link", data={"action": "send"})
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    url = re.search(r'value="(http[^"]+/c/[^"]+)"', page).group(1)
    message = db.scalar(select(OutboxMessage).where(OutboxMessage.kind == "candidate_link"))
    assert not message.is_calendar and message.ics is None and message.loop_id == world.link_loop.id
    assert message.recipient_email == "kim@cand.example" and url in message.body_text
    assert client.get(url.split("localhost", 1)[-1]).status_code == 200
    with smtp_server() as (port, handler):
        report = outbox.run_once(db, outbox.SmtpSettings(server="127.0.0.1", port=port, timeout=5),
                                 worker_id="w", now=utcnow() + timedelta(seconds=1))
    assert report.sent == [message.id]
    email = handler.received[0].email
    assert email.get_content_type() == "multipart/alternative" and "text/calendar" not in str(email)
    assert url in email.get_body(preferencelist=("plain",)).get_content()


def test_copying_makes_a_new_link_and_kills_the_old(app, db, login, world):
    """Each new link is shown once; the earlier one then gets the 'does not work' page."""
    client = login("coordinator")
    urls = []
    for _ in range(2):
        response = client.post(f"/coordinator/loops/{world.link_loop.id}/candidate-link", data={"action": "copy"})
        html = client.get(response.headers["Location"]).get_data(as_text=True)
        urls.append(re.search(r'value="http://localhost(/c/[^"]+)"', html).group(1))
        assert "Copy link" in html
    assert client.get(urls[0]).status_code == 404
    assert client.get(urls[1]).status_code == 200
    assert db.scalar(select(OutboxMessage).where(OutboxMessage.kind == "candidate_link")) is None


def test_candidate_page_shows_the_role_and_times_and_nothing_internal(app, client, db, world):
    """The page names the role and kinds of rounds; no interviewer, competency, focus question, note or other
    candidate appears anywhere in the HTML."""
    tech = world.booked(world.pool["ana"], utcnow() + timedelta(days=30), utcnow() + timedelta(days=30, hours=1))
    db.add(Scorecard(interview_id=tech.id, interviewer_id=world.pool["ana"].id, notes="Secret debrief note"))
    world.link_loop.coverage_override = "Internal override reason"
    db.commit()
    token = _issue(app, db, world.link_loop)
    response = client.get(f"/c/{token}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Compiler Engineer" in html and "Compiler deep-dive" in html and "Technical" in html
    assert len(_starts(html)) > 5
    forbidden = [FOCUS, "Secret debrief note", "Internal override reason", "Lou Park", "lou@cand.example",
                 "Compiler design", "Pre-silicon", "qualified", "shadow", "neuron-compiler", "bar-raisers"]
    for person in db.scalars(select(Interviewer)):
        forbidden += [person.name, person.email, f"p{person.id}\""]
    for text in forbidden:
        assert not re.search(rf"(?<![\w/]){re.escape(text)}(?!\w)", html), text
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response.headers["Cache-Control"]
    assert "<script>" not in html and "onclick" not in html and "onsubmit" not in html


@pytest.mark.parametrize("how", ["tampered", "garbage", "expired", "revoked"])
def test_dead_links_get_one_page_that_reveals_nothing(app, client, db, world, how):
    """Tampered, made-up, expired and revoked links: a 404 page without the role or the candidate; posts to
    them change nothing."""
    token = _issue(app, db, world.link_loop)
    if how == "tampered":
        token = token[:-3] + ("abc" if not token.endswith("abc") else "xyz")
    elif how == "garbage":
        token = "not-a-token"
    elif how == "expired":
        link = candidate_links.live_link(db, world.link_loop.id, utcnow())
        link.expires_at = utcnow() - timedelta(minutes=1)
        db.commit()
    else:
        candidate_links.revoke_link(db, world.link_loop.id, actor_id=None, now=utcnow())
    before = counts(db)
    for response in (client.get(f"/c/{token}"),
                     client.post(f"/c/{token}/book", data={"start": "2030-03-05T14:00:00+00:00"}),
                     client.post(f"/c/{token}/timezone", data={"timezone": "Asia/Singapore"}),
                     client.get(f"/c/{token}/itinerary.ics")):
        html = response.get_data(as_text=True)
        assert response.status_code == 404
        assert "This link does not work" in html
        assert "Kim" not in html and "Compiler" not in html
    assert counts(db) == before


@pytest.mark.parametrize("data", [{}, {"start": "yesterday"}, {"start": "2020-01-01T09:00:00+00:00"},
                                  {"start": "2030-03-05T14:00:00"}, {"start": "x" * 500}])
def test_bad_picks_get_one_message_and_change_nothing(app, client, db, world, data):
    """A missing, malformed, naive, past or oversized start: 400 with one sentence, no row written."""
    token = _issue(app, db, world.link_loop)
    before = counts(db)
    response = client.post(f"/c/{token}/book", data=data)
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and 'role="alert"' in html and "Traceback" not in html
    assert counts(db) == before and world.link_loop.status == LoopStatus.DRAFT


def test_bad_zone_and_windows_change_nothing(app, client, db, world):
    """An unknown zone, a window ending before it starts, one in the past: 400, nothing changes."""
    token = _issue(app, db, world.link_loop)
    before = counts(db)
    assert client.post(f"/c/{token}/timezone", data={"timezone": "Mars/Base"}).status_code == 400
    day = (utcnow() + timedelta(days=3)).date().isoformat()
    for window in ({"start": "15:00", "end": "10:00"}, {"start": "aa", "end": "10:00"}):
        response = client.post(f"/c/{token}/availability", data={"windows-0-day": day, **{
            f"windows-0-{k}": v for k, v in window.items()}})
        assert response.status_code == 400
    response = client.post(f"/c/{token}/availability", data={"windows-0-day": "2001-01-01",
                                                             "windows-0-start": "09:00", "windows-0-end": "10:00"})
    assert response.status_code == 400 and "in the past" in response.get_data(as_text=True)
    assert counts(db) == before and world.link_loop.candidate.timezone == "America/New_York"


def test_booking_shows_the_itinerary_with_ics_and_place(app, client, db, world):
    """Picking the second time books it; the page then shows the itinerary, the place and an .ics without
    interviewer addresses."""
    world.link_loop.location = "Building 7, 410 Terry Ave N"
    world.link_loop.video_url = "https://meet.example/kim"
    db.commit()
    token = _issue(app, db, world.link_loop)
    starts = _starts(client.get(f"/c/{token}").get_data(as_text=True))
    response = client.post(f"/c/{token}/book", data={"start": starts[1]})
    assert response.status_code == 303
    html = client.get(f"/c/{token}").get_data(as_text=True)
    assert "Your itinerary" in html and "Building 7, 410 Terry Ave N" in html and "https://meet.example/kim" in html
    assert "Move to another time" in html and "Cancel my interviews" in html
    assert "ana@hire.example" not in html and not re.search(r"\bAna\b", html)
    ics = client.get(f"/c/{token}/itinerary.ics")
    assert ics.status_code == 200 and ics.mimetype == "text/calendar"
    calendar = Calendar.from_ical(ics.data)
    assert len(list(calendar.walk("VEVENT"))) == 2
    assert b"ana@" not in ics.data and b"cleo@" not in ics.data


def test_a_time_taken_since_the_page_loaded_is_refused_with_fresh_times(app, client, db, world):
    """Ana became busy all day after the page loaded: 409, nothing booked, the page lists the times open now."""
    token = _issue(app, db, world.link_loop)
    starts = _starts(client.get(f"/c/{token}").get_data(as_text=True))
    picked = starts[0]
    start = datetime.fromisoformat(picked)
    db.add(BusyBlock(interviewer_id=world.pool["ana"].id, start=start - timedelta(hours=8),
                     end=start + timedelta(hours=14)))
    db.commit()
    before = counts(db)
    response = client.post(f"/c/{token}/book", data={"start": picked})
    html = response.get_data(as_text=True)
    assert response.status_code == 409 and "just taken" in html
    assert picked not in _starts(html) and _starts(html)
    assert counts(db) == before


def test_moving_and_cancelling_from_the_link(app, client, db, world):
    """Reopening the link after booking: move to another day, then cancel; each sends messages."""
    token = _issue(app, db, world.link_loop)
    starts = _starts(client.get(f"/c/{token}").get_data(as_text=True))
    client.post(f"/c/{token}/book", data={"start": starts[0]})
    moving = client.get(f"/c/{token}?move=1").get_data(as_text=True)
    other = next(s for s in _starts(moving) if s[:10] != starts[0][:10])
    assert client.post(f"/c/{token}/reschedule", data={"start": other}).status_code == 303
    db.expire_all()
    assert min(i.start for i in world.link_loop.interviews).isoformat() == other
    assert client.post(f"/c/{token}/cancel", data={"reason": "Accepted another offer"}).status_code == 303
    db.expire_all()
    assert world.link_loop.status == LoopStatus.DRAFT
    methods = {m.method for m in db.scalars(select(OutboxMessage).where(
        OutboxMessage.loop_id == world.link_loop.id))}
    assert methods == {"REQUEST", "CANCEL"}
    assert "Choose a start time" in client.get(f"/c/{token}").get_data(as_text=True)


def test_coordinator_bad_link_requests_change_nothing(app, db, login, world):
    """An unknown action, revoking when there is no link, a cancelled loop or a missing loop: one message or a
    404, and no row written."""
    client = login("coordinator")
    before = counts(db)
    response = client.post(f"/coordinator/loops/{world.link_loop.id}/candidate-link", data={"action": "bogus"})
    assert "Choose to send the link or to copy it." in client.get(response.headers["Location"]).get_data(True)
    response = client.post(f"/coordinator/loops/{world.link_loop.id}/candidate-link/revoke")
    assert "no working link" in client.get(response.headers["Location"]).get_data(True)
    assert client.post("/coordinator/loops/99999/candidate-link", data={"action": "send"}).status_code == 404
    assert counts(db) == before
    world.other.status = LoopStatus.CANCELLED
    db.commit()
    before = counts(db)
    response = client.post(f"/coordinator/loops/{world.other.id}/candidate-link", data={"action": "send"})
    assert "cancelled" in client.get(response.headers["Location"]).get_data(True)
    assert counts(db) == before
