"""Recording calendar answers: applied on the seat, stale without change, refused with a reason, listed once."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from loopworld import NOW
from replyutil import reply_calendar
from replyworld import answered_loop, mail_answer, request_ics, seat_answers, table_counts
from sqlalchemy import select

from planner.core.calendar.itinerary import itinerary_uid
from planner.core.inbound import InboundLimits
from planner.models import (
    AuditEntry,
    InboundMessage,
    InboundOutcome,
    InterviewStatus,
    PartStat,
    Seat,
    SeatStatus,
)
from planner.queries.replies import list_declines, list_inbox
from planner.services.replies import process_message

SAMPLES = Path(__file__).parents[1] / "data" / "replies"
LATER = NOW + timedelta(hours=1)


def _seat(db, interview, person) -> Seat:
    return db.scalar(select(Seat).where(Seat.interview_id == interview.id, Seat.interviewer_id == person.id))


def test_a_decline_from_the_calendar_is_recorded_on_the_seat_and_flags_the_loop(db):
    """DECLINED with a comment: the seat holds it (when, comment, via mail), audited, the loop lists the decline."""
    a = answered_loop(db)
    raw = mail_answer(db, a.interview, a.mentor, "DECLINED", comment="At a conference", now=NOW)
    row = process_message(db, raw, source="imap", now=LATER, imap_key="INBOX:1:1")
    assert (row.outcome, row.interview_id, row.loop_id, row.interviewer_id) == (
        InboundOutcome.APPLIED, a.interview.id, a.loop.id, a.mentor.id)
    assert row.reason == f"{a.mentor.name} declined 'Mentoring'."
    seat = _seat(db, a.interview, a.mentor)
    assert (seat.partstat, seat.partstat_at, seat.partstat_comment, seat.partstat_via) == (
        PartStat.DECLINED, NOW, "At a conference", "mail")
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "reply_recorded"))
    assert (entry.loop_id, entry.interviewer_id, entry.reason) == (a.loop.id, a.mentor.id, "At a conference")
    [decline] = list_declines(db, now=LATER, loop_id=a.loop.id)
    assert (decline.name, decline.round_name, decline.comment, decline.via) == (a.mentor.name, "Mentoring",
                                                                                "At a conference", "mail")


def test_accepting_again_clears_the_decline(db):
    """A later ACCEPTED replaces the DECLINED; the loop is no longer flagged."""
    a = answered_loop(db)
    process_message(db, mail_answer(db, a.interview, a.mentor, "DECLINED", now=NOW), source="imap", now=LATER)
    later = NOW + timedelta(minutes=30)
    row = process_message(db, mail_answer(db, a.interview, a.mentor, "ACCEPTED", now=later), source="imap",
                          now=LATER)
    assert row.outcome == InboundOutcome.APPLIED and _seat(db, a.interview, a.mentor).partstat == PartStat.ACCEPTED
    assert list_declines(db, now=LATER) == []


def test_an_older_answer_arriving_late_is_stale(db):
    """Two answers to the same SEQUENCE arrive out of order: the one stamped earlier changes nothing."""
    a = answered_loop(db)
    process_message(db, mail_answer(db, a.interview, a.mentor, "ACCEPTED", now=NOW + timedelta(minutes=30)),
                    source="imap", now=LATER)
    row = process_message(db, mail_answer(db, a.interview, a.mentor, "DECLINED", now=NOW), source="imap", now=LATER)
    assert row.outcome == InboundOutcome.STALE and "later answer" in row.reason
    assert _seat(db, a.interview, a.mentor).partstat == PartStat.ACCEPTED


def _refused(db, raw, *, source="imap", **kwargs) -> InboundMessage:
    before, seats = table_counts(db, but=("inbound_messages",)), seat_answers(db)
    inbox = db.scalar(select(InboundMessage.id).order_by(InboundMessage.id.desc()).limit(1)) or 0
    row = process_message(db, raw, source=source, now=LATER, **kwargs)
    assert row.outcome in (InboundOutcome.REFUSED, InboundOutcome.STALE, InboundOutcome.DUPLICATE), row.reason
    assert row.reason and "\n" not in row.reason
    assert table_counts(db, but=("inbound_messages",)) == before and seat_answers(db) == seats
    assert db.scalars(select(InboundMessage.id).where(InboundMessage.id > inbox)).all() == [row.id]
    return row


def test_a_spoofed_sender_is_refused(db):
    """From someone other than the attendee: refused, naming both; nothing else changes."""
    a = answered_loop(db)
    row = _refused(db, mail_answer(db, a.interview, a.mentor, "DECLINED", sender="mallory@evil.example"))
    assert row.outcome == InboundOutcome.REFUSED
    assert "mallory@evil.example" in row.reason and a.mentor.email in row.reason
    assert row.sender == "mallory@evil.example" and row.interview_id == a.interview.id


def test_an_unknown_uid_is_refused(db):
    """A UID that is none of our interviews: refused as not an answer to our invites."""
    a = answered_loop(db)
    raw = mail_answer(db, a.interview, a.mentor, "DECLINED",
                      edit=lambda ics: ics.replace(a.interview.uid.encode(), b"someone-else@other.example"))
    row = _refused(db, raw)
    assert "No interview has the calendar UID 'someone-else@other.example'" in row.reason


def test_a_stale_sequence_is_recorded_and_changes_nothing(db):
    """An answer to SEQUENCE 0 after the invite went out at 1: recorded as stale with both numbers."""
    a = answered_loop(db)
    a.interview.sequence = 1
    db.commit()
    row = _refused(db, mail_answer(db, a.interview, a.mentor, "DECLINED", sequence=0))
    assert row.outcome == InboundOutcome.STALE
    assert "version 0 of the invite, but version 1 was sent" in row.reason
    assert row.interviewer_id == a.mentor.id


def test_garbage_mime_is_refused(db):
    """Bytes that are no email at all: refused with the reader's reason."""
    answered_loop(db)
    row = _refused(db, b"\x00\x01 not an email \xff")
    assert row.reason.startswith("The message was refused:")


def test_a_ten_megabyte_attachment_is_refused_as_too_large(db):
    """A 10 MB message: refused on its size, the inbox row says how large."""
    a = answered_loop(db)
    raw = mail_answer(db, a.interview, a.mentor, "DECLINED")
    raw = raw.replace(b"Answer from my calendar.", b"Answer from my calendar." + b"A" * 10_000_000)
    row = _refused(db, raw)
    assert f"{len(raw):,} bytes, larger than the 1,000,000 bytes allowed" in row.reason and row.size == len(raw)


@pytest.mark.parametrize("case", ["not-on-panel", "taken-off", "cancelled", "candidate", "no-sender"])
def test_answers_that_cannot_apply_are_refused(db, case):
    """Someone not on the panel, someone taken off, a cancelled interview, the candidate, no From over IMAP."""
    a = answered_loop(db)
    raw = mail_answer(db, a.interview, a.mentor, "DECLINED")
    if case == "not-on-panel":
        raw = mail_answer(db, a.interview, a.mentor, "DECLINED", sender="eve@hire.example",
                          edit=lambda ics: ics.replace(a.mentor.email.encode(), b"eve@hire.example"))
        words = "eve@hire.example is not on the panel of 'Mentoring'"
    elif case == "taken-off":
        _seat(db, a.interview, a.mentor).status = SeatStatus.REMOVED
        words = "was taken off 'Mentoring'"
    elif case == "cancelled":
        a.interview.status = InterviewStatus.CANCELLED
        words = "'Mentoring' is cancelled"
    elif case == "candidate":
        raw = mail_answer(db, a.interview, a.mentor, "DECLINED", edit=lambda ics: ics.replace(
            a.interview.uid.encode(), itinerary_uid(a.interview.uid).encode()))
        words = "candidate's answer"
    else:
        raw = raw.replace(b"From: ", b"X-Was-From: ")
        words = "no usable From"
    db.commit()
    assert words in _refused(db, raw).reason


def test_an_uploaded_bare_ics_is_trusted_without_a_sender(db):
    """A coordinator's upload of a bare .ics (no From) applies; over IMAP the same bytes are refused."""
    a = answered_loop(db)
    ics = reply_calendar(request_ics(db, a.interview, a.mentor), a.mentor.email, "TENTATIVE", now=NOW)
    assert "no usable From" in _refused(db, ics).reason
    row = process_message(db, ics, source="upload", now=LATER, loop_id=a.loop.id, actor_id=None)
    assert row.outcome == InboundOutcome.APPLIED and row.fingerprint.startswith("sha256:")
    assert _seat(db, a.interview, a.mentor).partstat_via == "upload"


def test_an_upload_on_another_loops_page_is_refused(db):
    """An answer uploaded on loop B's page about loop A: refused, naming A's candidate."""
    a = answered_loop(db)
    other = a.world.loop(name="Other Person")
    db.commit()
    row = _refused(db, mail_answer(db, a.interview, a.mentor, "ACCEPTED"), source="upload", loop_id=other.id)
    assert "another candidate's loop (Kim Lee)" in row.reason


def test_the_same_message_is_processed_once(db):
    """The same IMAP key returns the first row untouched; the same Message-ID again is listed as a duplicate."""
    a = answered_loop(db)
    raw = mail_answer(db, a.interview, a.mentor, "DECLINED", message_id="<once@client.example>")
    first = process_message(db, raw, source="imap", now=LATER, imap_key="INBOX:7:3")
    counts = table_counts(db)
    again = process_message(db, raw, source="imap", now=LATER, imap_key="INBOX:7:3")
    assert again.id == first.id and table_counts(db) == counts
    duplicate = _refused(db, raw, source="upload", loop_id=a.loop.id)
    assert duplicate.outcome == InboundOutcome.DUPLICATE and "processed on" in duplicate.reason


def test_client_samples_apply_when_their_uid_is_ours(db):
    """The Outlook, Google and Apple samples, for an interview with their UID, set DECLINED/ACCEPTED/TENTATIVE."""
    a = answered_loop(db)
    a.interview.uid = "interview-4f1c9a7e2b6d8c0a5e3f1b2d@hire.example"
    a.mentor.email = "jordan.park@hire.example"
    db.commit()
    stamp = {"outlook-declined.eml": "DECLINED", "google-accepted.eml": "ACCEPTED",
             "apple-tentative.eml": "TENTATIVE"}
    # Oldest answer first (by DTSTAMP): Google 08:15, Outlook 09:12, Apple 17:30 on 5 March 2030.
    for name in ("google-accepted.eml", "outlook-declined.eml", "apple-tentative.eml"):
        row = process_message(db, (SAMPLES / name).read_bytes(), source="imap", now=NOW + timedelta(days=2))
        assert row.outcome == InboundOutcome.APPLIED, row.reason
        assert _seat(db, a.interview, a.mentor).partstat.value == stamp[name].lower()


def test_a_counter_waits_for_the_coordinator(db):
    """A COUNTER is listed as an open proposal with its times and audited; the seat is not changed."""
    a = answered_loop(db)
    raw = mail_answer(db, a.interview, a.mentor, "TENTATIVE", method="COUNTER", comment="Later please")
    seats = seat_answers(db)
    row = process_message(db, raw, source="imap", now=LATER)
    assert row.outcome == InboundOutcome.COUNTER and row.counter_state.value == "open"
    assert (row.proposed_start, row.proposed_end) == (a.interview.start, a.interview.end)
    assert seat_answers(db) == seats
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "counter_received"))
    assert (entry.loop_id, entry.interviewer_id) == (a.loop.id, a.mentor.id)


def test_the_inbox_lists_every_outcome_newest_first_in_pages(db):
    """Applied, refused and stale rows all appear, newest first; pages of the configured size; counts per tab."""
    a = answered_loop(db)
    process_message(db, mail_answer(db, a.interview, a.mentor, "ACCEPTED"), source="imap", now=LATER)
    process_message(db, b"junk", source="imap", now=LATER + timedelta(minutes=1))
    process_message(db, mail_answer(db, a.interview, a.mentor, "DECLINED", sender="x@evil.example"),
                    source="imap", now=LATER + timedelta(minutes=2))
    page = list_inbox(db, size=2)
    assert [r.message.outcome.value for r in page.rows] == ["refused", "refused"]
    assert page.pages == 2 and page.counts == {"all": 3, "applied": 1, "counter": 0, "stale": 0, "refused": 2,
                                               "duplicate": 0}
    second = list_inbox(db, size=2, page=2)
    assert [r.message.outcome.value for r in second.rows] == ["applied"]
    assert second.rows[0].person == a.mentor.name and second.rows[0].candidate == "Kim Lee"
    assert [r.message.outcome.value for r in list_inbox(db, tab="applied").rows] == ["applied"]
    assert list_inbox(db, page=99, size=2).page == 2


def test_a_smaller_configured_cap_applies(db):
    """The size cap comes from the caller's limits (INBOUND_MAX_BYTES)."""
    a = answered_loop(db)
    raw = mail_answer(db, a.interview, a.mentor, "ACCEPTED")
    row = _refused(db, raw, limits=InboundLimits(max_bytes=len(raw) - 1))
    assert "larger than" in row.reason
