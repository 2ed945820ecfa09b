"""Answers shaped as Outlook, Google Calendar and Apple Calendar send them, and as a client builds them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from replyutil import reply_calendar, reply_email

from planner.core.calendar import Organizer, Person, build_request
from planner.core.inbound import InboundReply, Refusal, read_reply
from tests.core.calendar.ics_scenario import ANA, INVITED, ORGANIZER, PANEL, T0, TRAINEES

SAMPLES = Path(__file__).parents[2] / "data" / "replies"
UID = "interview-4f1c9a7e2b6d8c0a5e3f1b2d@hire.example"


def _read(name: str) -> InboundReply:
    found = read_reply((SAMPLES / name).read_bytes())
    assert isinstance(found, InboundReply), found
    return found


@pytest.mark.parametrize(("name", "partstat"), [
    ("outlook-declined.eml", "DECLINED"),
    ("google-accepted.eml", "ACCEPTED"),
    ("apple-tentative.eml", "TENTATIVE"),
])
def test_client_samples_give_their_partstat(name, partstat):
    """Each client's REPLY gives the attendee, the answer, the UID, SEQUENCE and the sender's address."""
    found = _read(name)
    assert (found.method, found.partstat, found.uid, found.sequence) == ("REPLY", partstat, UID, 0)
    assert found.attendee == found.sender == "jordan.park@hire.example"
    assert found.attendee_name == "Jordan Park"
    assert found.message_id and found.message_id.startswith("<")
    assert found.proposed_start is None


def test_outlook_sample_keeps_the_comment_and_decodes_the_subject():
    """Outlook's COMMENT (TEXT-escaped) and its RFC 2047 subject come out as plain text."""
    found = _read("outlook-declined.eml")
    assert found.comment == "Sorry, I am at the LLVM developers' meeting that week."
    assert found.subject == "Declined: Interview: Kim Lee \u2013 Compiler deep-dive (Compiler Engineer)"
    assert found.dtstamp == datetime(2030, 3, 5, 9, 12, 44, tzinfo=UTC)


def test_google_sample_sends_the_answer_twice_and_it_counts_once():
    """Google's inline text/calendar and its invite.ics attachment carry the same answer: one answer, no refusal."""
    assert "invite.ics" in (SAMPLES / "google-accepted.eml").read_text()
    assert _read("google-accepted.eml").partstat == "ACCEPTED"


def test_outlook_counter_proposes_a_time_across_the_daylight_saving_change():
    """A COUNTER for Mon 11 Mar 2030 09:00 Pacific (after the US change on 10 Mar) is 16:00 UTC, not 17:00."""
    found = _read("outlook-counter.eml")
    assert found.method == "COUNTER" and found.is_counter
    assert found.proposed_start == datetime(2030, 3, 11, 16, 0, tzinfo=UTC)
    assert found.proposed_end == datetime(2030, 3, 11, 17, 0, tzinfo=UTC)
    assert found.comment == "Could we do the Monday after instead?"


def test_a_reply_built_from_the_planners_own_request_reads_back():
    """METHOD:REPLY, only the answering ATTENDEE, PARTSTAT changed, DTSTAMP now: what a client sends."""
    request = build_request(INVITED, ORGANIZER, PANEL, T0, trainees=TRAINEES)
    now = datetime(2027, 3, 21, 9, 30, tzinfo=UTC)
    calendar = reply_calendar(request, ANA.email, "DECLINED", now=now, comment="On leave")
    email = reply_email(calendar, sender=f"Ana Ruiz <{ANA.email}>", organizer=ORGANIZER.email,
                        subject="Declined: interview")
    found = read_reply(email)
    assert isinstance(found, InboundReply), found
    assert (found.uid, found.sequence, found.partstat, found.comment) == (INVITED.uid, INVITED.sequence,
                                                                          "DECLINED", "On leave")
    assert found.attendee == found.sender == ANA.email.lower()
    assert found.dtstamp == now
    bare = read_reply(calendar)
    assert isinstance(bare, InboundReply) and bare.sender is None and bare.message_id is None


def test_a_counter_listing_the_whole_panel_is_the_senders():
    """A COUNTER may list every attendee; the one who sent it is the one proposing."""
    organizer = Organizer("recruiting@hire.example", "Recruiting")
    other = Person("ben@hire.example", "Ben", "UTC")
    request = build_request(INVITED, organizer, [ANA, other], T0)
    calendar = reply_calendar(request, ANA.email, "TENTATIVE", now=T0, method="COUNTER")
    # Put Ben back: the proposal lists the whole panel.
    text = calendar.decode().replace("END:VEVENT", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:ben@hire.example\r\n"
                                                   "END:VEVENT")
    found = read_reply(reply_email(text.encode(), sender=other.email, organizer=organizer.email,
                                   subject="New Time Proposed", method="COUNTER"))
    assert isinstance(found, InboundReply) and found.attendee == "ben@hire.example"
    assert isinstance(read_reply(text.encode()), Refusal)  # no sender: nobody to pick
