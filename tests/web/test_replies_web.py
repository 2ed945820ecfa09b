"""The coordinator's inbox, uploading an answer, the decline flag with its substitutes, proposed new times."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from changeutil import last_id, outbox
from imaputil import dovecot_server
from replyworld import answered_loop, mail_answer, seat_answers, table_counts
from sqlalchemy import select

from planner.models import InboundMessage, InboundOutcome, PartStat, Seat, SeatStatus
from planner.services.mailbox import ImapSettings, poll_once
from planner.services.replies import process_message

# The web layer uses the real clock: the loop world is far enough in the future (2030).
NOW = datetime.now(UTC)


def _seat(db, interview, person) -> Seat:
    db.expire_all()
    return db.scalar(select(Seat).where(Seat.interview_id == interview.id, Seat.interviewer_id == person.id))


def _upload(client, loop_id, raw: bytes, name="reply.eml"):
    return client.post(f"/coordinator/loops/{loop_id}/replies", data={"reply": (io.BytesIO(raw), name)},
                       content_type="multipart/form-data", follow_redirects=True)


def test_an_uploaded_decline_flags_the_loop_with_ranked_substitutes(login, db):
    """Upload a Declined .eml on the loop page: recorded, the seat says declined, the flag lists who can step in."""
    client = login("coordinator")
    a = answered_loop(db)
    page = _upload(client, a.loop.id, mail_answer(db, a.interview, a.mentor, "DECLINED", comment="Conference"))
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and f"Recorded: {a.mentor.name} declined &#39;Mentoring&#39;." in html
    assert re.search(rf"<strong>{a.mentor.name} declined Mentoring, \w{{3}} \d\d:\d\d \w+</strong>", html)
    assert "Conference" in html and 'data-answer="declined"' in html
    others = {"Eve", "Finn", "Cleo"} - {a.mentor.name}
    assert all(f"Use {name}" in html for name in others)
    assert _seat(db, a.interview, a.mentor).partstat_via == "upload"
    home = client.get("/coordinator/").get_data(as_text=True)
    assert f"{a.mentor.name} declined Mentoring," in home and f"/coordinator/loops/{a.loop.id}#answers" in home


def test_choosing_a_substitute_from_the_flag_replaces_and_the_flag_goes(login, db):
    """The flag's "Use X" posts to the replace page: X takes the seat, the decliner gets a CANCEL, the flag goes."""
    client = login("coordinator")
    a = answered_loop(db)
    process_message(db, mail_answer(db, a.interview, a.mentor, "DECLINED"), source="imap", now=NOW)
    joining = a.pool["eve"] if a.mentor.name != "Eve" else a.pool["finn"]
    after = last_id(db)
    page = client.post(f"/coordinator/interviews/{a.interview.id}/replace?leaving={a.mentor.id}",
                       data={"reason": "declined", "joining": str(joining.id)}, follow_redirects=True)
    html = page.get_data(as_text=True)
    assert "Panel changed" in html and "declined Mentoring" not in html
    sent = outbox(db, a.interview.id, after)
    assert ("reassign", "CANCEL", a.mentor.email) in [m[:3] for m in sent]
    assert _seat(db, a.interview, a.mentor).status == SeatStatus.REMOVED


@pytest.mark.parametrize(("raw", "words"), [
    (b"\x00 not mail", "Not recorded. The message was refused:"),
    (b"BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n", "it is a REQUEST"),
    (b"From: a@b.example\r\nSubject: x\r\n\r\n" + b"A" * 1_100_000, "larger than the 1,000,000 bytes allowed"),
])
def test_a_bad_upload_is_one_message_and_changes_nothing_else(login, db, raw, words):
    """Garbage, a REQUEST, an oversized file: one message, a refused row on the inbox, nothing else written."""
    client = login("coordinator")
    a = answered_loop(db)
    before, seats = table_counts(db, but=("inbound_messages",)), seat_answers(db)
    html = _upload(client, a.loop.id, raw).get_data(as_text=True)
    assert words in html.replace("&#39;", "'")
    assert table_counts(db, but=("inbound_messages",)) == before and seat_answers(db) == seats
    row = db.scalar(select(InboundMessage))
    assert row.outcome == InboundOutcome.REFUSED and row.source == "upload" and row.loop_id == a.loop.id


def test_an_upload_without_a_file_writes_nothing(login, db):
    """Pressing the button with no file: one message, no inbox row."""
    client = login("coordinator")
    a = answered_loop(db)
    page = client.post(f"/coordinator/loops/{a.loop.id}/replies", data={}, follow_redirects=True)
    assert "Choose the .eml or .ics file of the answer." in page.get_data(as_text=True)
    assert db.scalar(select(InboundMessage)) is None
    assert client.post("/coordinator/loops/999999/replies", data={}).status_code == 404


def test_the_inbox_pages_tabs_and_roles(login, db, app, make_user):
    """Newest first, tabs by outcome with counts, pages of INBOX_PAGE_SIZE; coordinators only."""
    client = login("coordinator")
    a = answered_loop(db)
    process_message(db, mail_answer(db, a.interview, a.mentor, "ACCEPTED"), source="imap", now=NOW)
    process_message(db, mail_answer(db, a.interview, a.mentor, "DECLINED", sender="eve@evil.example"),
                    source="imap", now=NOW + timedelta(minutes=1))
    html = client.get("/coordinator/inbox").get_data(as_text=True)
    assert html.index("eve@evil.example") < html.index(f"{a.mentor.name} accepted")
    assert "people can only answer for themselves" in html
    assert re.search(r"Refused <span class=\"badge badge-bad\">1</span>", html)
    refused = client.get("/coordinator/inbox?outcome=refused").get_data(as_text=True)
    assert "eve@evil.example" in refused and f"{a.mentor.name} accepted" not in refused
    app.config["INBOX_PAGE_SIZE"] = 1
    second = client.get("/coordinator/inbox?page=2").get_data(as_text=True)
    assert f"{a.mentor.name} accepted" in second and "2&ndash;2 of 2" in second
    assert client.get("/coordinator/inbox?page=x&outcome=nonsense").status_code == 200
    make_user(email="someone@example.com", roles=("interviewer",))
    interviewer = app.test_client()
    interviewer.post("/login", data={"email": "someone@example.com", "password": "password123"})
    assert interviewer.get("/coordinator/inbox").status_code == 403


def _counter(db, a, start):
    end, stamp = start + (a.interview.end - a.interview.start), "%Y%m%dT%H%M%SZ"

    def move(ics: bytes) -> bytes:
        return ics.replace(f"DTSTART:{a.interview.start:{stamp}}".encode(), f"DTSTART:{start:{stamp}}".encode()) \
            .replace(f"DTEND:{a.interview.end:{stamp}}".encode(), f"DTEND:{end:{stamp}}".encode())

    raw = mail_answer(db, a.interview, a.mentor, "TENTATIVE", method="COUNTER", comment="Later?", edit=move)
    return process_message(db, raw, source="imap", now=NOW)


def test_a_proposed_time_is_moved_to_or_dismissed_from_the_loop_page(login, db):
    """The loop page shows the proposal; Move re-checks and moves the round; Dismiss closes another one."""
    from planner.services import changes

    client = login("coordinator")
    a = answered_loop(db)
    start = changes.reschedule_options(db, a.interview.id, now=NOW)[0]
    row = _counter(db, a, start)
    html = client.get(f"/coordinator/loops/{a.loop.id}").get_data(as_text=True)
    assert f"{a.mentor.name} proposes" in html and "Move the round there" in html
    page = client.post(f"/coordinator/inbox/{row.id}/move", data={"next": f"/coordinator/loops/{a.loop.id}"},
                       follow_redirects=True)
    assert "moved to the proposed time" in page.get_data(as_text=True)
    db.expire_all()
    assert db.get(type(a.interview), a.interview.id).start == start
    again = process_message(db, mail_answer(db, a.interview, a.mentor, "TENTATIVE", method="COUNTER"),
                            source="imap", now=NOW)
    assert again.outcome == InboundOutcome.COUNTER, again.reason
    page = client.post(f"/coordinator/inbox/{again.id}/dismiss", data={"next": "https://evil.example/"})
    assert page.status_code == 302 and page.headers["Location"].endswith("/coordinator/inbox")
    assert "dismissed" in client.get("/coordinator/inbox").get_data(as_text=True)
    assert client.post("/coordinator/inbox/999999/move").status_code == 404


def _as_interviewer(login, db, person):
    client = login("interviewer", email=f"login-{person.email}")
    from planner.models import User

    person.user_id = db.scalar(select(User.id).where(User.email == f"login-{person.email}"))
    db.commit()
    return client


def test_an_interviewer_declines_with_a_reason_on_their_page(login, db):
    """No reason: one message, nothing changes. With one: recorded, shown back, and the loop is flagged."""
    a = answered_loop(db)
    client = _as_interviewer(login, db, a.mentor)
    home = client.get("/interviewer/").get_data(as_text=True)
    assert f"/interviewer/interviews/{a.interview.id}/answer" in home and "Decline the interview" in home
    seats = seat_answers(db)
    page = client.post(f"/interviewer/interviews/{a.interview.id}/answer", data={"answer": "declined", "reason": " "},
                       follow_redirects=True)
    assert "Say why you decline" in page.get_data(as_text=True) and seat_answers(db) == seats
    page = client.post(f"/interviewer/interviews/{a.interview.id}/answer",
                       data={"answer": "declined", "reason": "Jury duty that week"}, follow_redirects=True)
    html = page.get_data(as_text=True)
    assert "You declined &#39;Mentoring&#39;" in html and "Your reason: Jury duty that week" in html
    assert _seat(db, a.interview, a.mentor).partstat == PartStat.DECLINED
    page = client.post(f"/interviewer/interviews/{a.interview.id}/answer", data={"answer": "accepted"},
                       follow_redirects=True)
    assert "You accepted" in page.get_data(as_text=True)
    assert _seat(db, a.interview, a.mentor).partstat == PartStat.ACCEPTED
    other = a.rounds["tech"]
    assert client.post(f"/interviewer/interviews/{other.id}/answer", data={"answer": "accepted"}).status_code == 404
    page = client.post(f"/interviewer/interviews/{a.interview.id}/answer", data={"answer": "maybe"},
                       follow_redirects=True)
    assert "Choose accept or decline." in page.get_data(as_text=True)


def test_bad_replies_by_mail_are_refused_with_their_reasons_on_the_inbox_page(login, db, session_factory):
    """Spoofed sender, unknown UID, stale SEQUENCE, garbage MIME and a 10 MB attachment, delivered to a real IMAP
    mailbox and polled: each is listed with its reason, and nothing but the inbox changes."""
    client = login("coordinator")
    a = answered_loop(db)
    a.interview.sequence = 1
    db.commit()
    big = mail_answer(db, a.interview, a.mentor, "DECLINED", sequence=1)
    big = big.replace(b"Answer from my calendar.", b"Answer from my calendar." + b"A" * 10_000_000)
    bad = {
        "spoofed": mail_answer(db, a.interview, a.mentor, "DECLINED", sequence=1, sender="mallory@evil.example"),
        "unknown": mail_answer(db, a.interview, a.mentor, "DECLINED", sequence=1,
                               edit=lambda ics: ics.replace(a.interview.uid.encode(), b"nobody@else.example")),
        "stale": mail_answer(db, a.interview, a.mentor, "DECLINED", sequence=0),
        "garbage": b"From: x@y.example\r\nContent-Type: multipart/mixed; boundary=q\r\n\r\n--q\r\n\xff\xfe--",
        "large": big,
    }
    before, seats = table_counts(db, but=("inbound_messages",)), seat_answers(db)
    with dovecot_server() as imap:
        for raw in bad.values():
            imap.append(raw)
        report = poll_once(ImapSettings.from_mapping(imap.config), session_factory, now=lambda: NOW)
    assert report.outcomes == {"refused": 4, "stale": 1}
    assert table_counts(db, but=("inbound_messages",)) == before and seat_answers(db) == seats
    html = client.get("/coordinator/inbox").get_data(as_text=True).replace("&#39;", "'")
    for words in ("comes from mallory@evil.example", "No interview has the calendar UID 'nobody@else.example'",
                  "version 0 of the invite, but version 1 was sent", "has no calendar part",
                  "larger than the 1,000,000 bytes allowed"):
        assert words in html, words


@pytest.mark.parametrize(("start", "shown"), [
    (datetime(2030, 3, 8, 15, 0, tzinfo=UTC), "Fri 10:00 EST"),   # before the US change on Sun 10 March 2030
    (datetime(2030, 3, 11, 14, 0, tzinfo=UTC), "Mon 10:00 EDT"),  # after it: the same wall time, one hour less UTC
])
def test_a_decline_is_shown_in_the_coordinators_zone_across_daylight_saving(app, db, make_user, start, shown):
    """The flag says the interview's time in the viewer's zone, on either side of a daylight-saving change."""
    a = answered_loop(db)
    a.interview.start, a.interview.end = start, start + (a.interview.end - a.interview.start)
    db.commit()
    process_message(db, mail_answer(db, a.interview, a.mentor, "DECLINED"), source="imap", now=NOW)
    make_user(email="ny@example.com", roles=("coordinator",), timezone="America/New_York")
    client = app.test_client()
    client.post("/login", data={"email": "ny@example.com", "password": "password123"})
    home = client.get("/coordinator/").get_data(as_text=True)
    assert f"{a.mentor.name} declined Mentoring, {shown}" in home
