"""Hostile and broken input: every case is a Refusal with a reason, never an exception."""

from __future__ import annotations

import base64
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from replyutil import reply_email

from planner.core.inbound import InboundLimits, InboundReply, Refusal, read_reply

SAMPLES = Path(__file__).parents[2] / "data" / "replies"
UID = "interview-1@hire.example"


def _calendar(*event: str, method: str = "REPLY", extra: str = "") -> bytes:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", f"METHOD:{method}" if method else "", extra,
             "BEGIN:VEVENT", *event, "END:VEVENT", "END:VCALENDAR", ""]
    return "\r\n".join(line for line in lines if line is not None).replace("\r\n\r\n", "\r\n").encode()


REPLY = ("UID:" + UID, "SEQUENCE:0", "DTSTAMP:20300305T091244Z",
         "ATTENDEE;PARTSTAT=DECLINED;CN=Jordan Park:mailto:jordan@hire.example")


def _mail(calendar: bytes, sender: str = "jordan@hire.example", method: str = "REPLY") -> bytes:
    return reply_email(calendar, sender=sender, organizer="recruiting@hire.example", subject="Declined",
                       method=method)


def _reason(raw: bytes, limits: InboundLimits | None = None) -> str:
    found = read_reply(raw, limits) if limits else read_reply(raw)
    assert isinstance(found, Refusal), found
    assert found.reason.startswith(("The message was refused: ", "The file was refused: "))
    assert found.reason.endswith(".") and "\n" not in found.reason
    return found.reason


def test_a_plain_reply_reads():
    """The reference answer all the refusals below start from is accepted."""
    found = read_reply(_mail(_calendar(*REPLY)))
    assert isinstance(found, InboundReply) and found.partstat == "DECLINED"


@pytest.mark.parametrize(("raw", "words"), [
    (b"", "empty"),
    (b"\x00\xff\xfe garbage without headers", "not an email"),
    (b"From: jordan@hire.example\r\nSubject: lunch?\r\n\r\nAre you free?", "no calendar part"),
    (b"From: jordan@hire.example\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: "
     b"text/calendar\r\nContent-Transfer-Encoding: base64\r\n\r\n////\xff\xfe\r\n--x--\r\n", "not valid utf-8"),
    (b"From: jordan@hire.example\r\nContent-Type: text/calendar; charset=utf-8\r\n\r\n\xff\xfe\xfa", "utf-8"),
    (b"From: jordan@hire.example\r\nContent-Type: text/calendar\r\n\r\nhello, not a calendar", "no VCALENDAR"),
    (b"From: x\r\nContent-Type: application/ms-tnef\r\n\r\nxx", "winmail.dat"),
    (_calendar(*REPLY)[:-30], "cannot be parsed"),
])
def test_garbage_is_refused_with_a_reason(raw, words):
    """Empty, binary, non-calendar, undecodable, truncated and TNEF input each get their reason."""
    assert words.lower() in _reason(raw).lower()


@pytest.mark.parametrize(("calendar", "words"), [
    (_calendar(*REPLY, method="REQUEST"), "is a REQUEST"),
    (_calendar(*REPLY, method=""), "without METHOD"),
    (_calendar(*REPLY, *("END:VEVENT", "BEGIN:VEVENT", *REPLY)), "2 events"),
    (_calendar(*REPLY, "ATTENDEE;PARTSTAT=ACCEPTED:mailto:ana@hire.example"), "names 2 attendees"),
    (_calendar(*REPLY[:3], "ATTENDEE:mailto:jordan@hire.example"), "no PARTSTAT"),
    (_calendar(*REPLY[:3], "ATTENDEE;PARTSTAT=DELEGATED:mailto:jordan@hire.example"), "delegates"),
    (_calendar(*REPLY[:3], "ATTENDEE;PARTSTAT=MAYBE-LATER:mailto:jordan@hire.example"), "not one the planner"),
    (_calendar(*REPLY[:3], "ATTENDEE;PARTSTAT=DECLINED:jordan at home"), "not an email address"),
    (_calendar("SEQUENCE:0", *REPLY[2:]), "no usable UID"),
    (_calendar("UID:" + UID, "SEQUENCE:many", *REPLY[2:]), "SEQUENCE cannot be read"),
    (_calendar(*REPLY, "RECURRENCE-ID:20300306T140000Z"), "recurring"),
    (_calendar(*REPLY, method="COUNTER"), "no new time"),
    (_calendar(*REPLY, "DTSTART:20300311T090000", "DTEND:20300311T100000", method="COUNTER"), "no time zone"),
    (_calendar(*REPLY, "DTSTART;VALUE=DATE:20300311", method="COUNTER"), "whole day"),
    (_calendar(*REPLY, "DTSTART:20300311T090000Z", "DTEND:20300311T080000Z", method="COUNTER"), "ends before"),
    (_calendar(*REPLY, "DTSTART:20300311T090000Z", "DTEND:20300312T090000Z", method="COUNTER"), "12 hours"),
    (_calendar(*REPLY, "DTSTART:20300311T090000Z", method="COUNTER"), "no end"),
    (_calendar(*REPLY).replace(b"END:VCALENDAR", b"BEGIN:VTODO\r\nUID:t\r\nEND:VTODO\r\nEND:VCALENDAR"), "VTODO"),
])
def test_calendars_that_are_not_one_answer_are_refused(calendar, words):
    """Wrong method, several events or attendees, no or unknown PARTSTAT, broken values, bad COUNTER times."""
    assert words.lower() in _reason(_mail(calendar)).lower()


def test_the_email_method_must_match_the_calendar():
    """Content-Type method=COUNTER around a METHOD:REPLY calendar is refused (RFC 6047 wants them equal)."""
    assert "method=COUNTER" in _reason(_mail(_calendar(*REPLY), method="COUNTER"))


def test_two_different_answers_in_one_email_are_refused():
    """An email whose inline part declines and whose attachment accepts answers nothing."""
    message = EmailMessage()
    message["From"] = "jordan@hire.example"
    message.set_content("two answers")
    message.add_attachment(_calendar(*REPLY), maintype="text", subtype="calendar", filename="a.ics")
    accepted = _calendar(*REPLY).replace(b"DECLINED", b"ACCEPTED")
    message.add_attachment(accepted, maintype="text", subtype="calendar", filename="b.ics")
    assert "two different" in _reason(message.as_bytes(policy=SMTP))


def test_a_ten_megabyte_attachment_is_refused_on_its_size_alone():
    """A 10 MB message is refused as too large before its MIME is parsed (it would otherwise read fine)."""
    message = EmailMessage()
    message["From"] = "jordan@hire.example"
    message.set_content("see attachment")
    message.add_alternative(_calendar(*REPLY), maintype="text", subtype="calendar", params={"method": "REPLY"})
    message.add_attachment(b"\0" * 10_000_000, maintype="application", subtype="octet-stream", filename="x.bin")
    raw = message.as_bytes(policy=SMTP)
    reason = _reason(raw)
    assert f"{len(raw):,} bytes" in reason and "1,000,000 bytes allowed" in reason
    assert isinstance(read_reply(raw, InboundLimits(max_bytes=20_000_000)), InboundReply)


def test_a_size_declared_by_the_server_is_refused_from_the_headers_alone():
    """The poller passes only the headers of an oversized message: the refusal still names the sender."""
    headers = b"From: Jordan <jordan@hire.example>\r\nSubject: big\r\nMessage-ID: <m1@x>\r\n\r\n"
    found = read_reply(headers, declared_size=12_000_000)
    assert isinstance(found, Refusal) and "12,000,000 bytes" in found.reason
    assert (found.sender, found.message_id, found.subject, found.size) == ("jordan@hire.example", "<m1@x>", "big",
                                                                          12_000_000)


@pytest.mark.parametrize(("raw", "words"), [
    (b"X-Long: " + b"a" * 9000 + b"\r\n\r\nbody", "header fields is longer"),
    (b"X-Folded: a\r\n" + b" bbb\r\n" * 3000 + b"\r\nbody", "header fields is longer"),
    (b"".join(b"X-%d: v\r\n" % i for i in range(9000)) + b"\r\nbody", "headers are larger"),
])
def test_headers_are_bounded(raw, words):
    """One long header, one header folded over many lines, or a huge header block: refused before parsing."""
    assert words in _reason(raw)


def test_mime_parts_and_nesting_are_bounded():
    """More parts than the limit, or multiparts nested deeper than it, are refused."""
    message = EmailMessage()
    message["From"] = "jordan@hire.example"
    message.set_content("many")
    for number in range(70):
        message.add_attachment(b"x", maintype="application", subtype="octet-stream", filename=f"{number}.bin")
    assert "more than 64 MIME parts" in _reason(message.as_bytes(policy=SMTP))
    nested = b"BODY"
    for depth in range(10):
        nested = (b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (depth, depth) + nested
                  + b"\r\n--b%d--\r\n" % depth)
    assert "nest more than 6 deep" in _reason(b"From: jordan@hire.example\r\n" + nested)


def test_from_addresses_are_read_strictly():
    """A From with two addresses, or none usable, leaves no sender (the service then refuses the answer)."""
    found = read_reply(_mail(_calendar(*REPLY), sender="a@hire.example, b@hire.example"))
    assert isinstance(found, InboundReply) and found.sender is None
    encoded = base64.b64encode("Jördan".encode()).decode()
    found = read_reply(_mail(_calendar(*REPLY), sender=f"=?utf-8?B?{encoded}?= <Jordan@Hire.Example>"))
    assert isinstance(found, InboundReply) and found.sender == "jordan@hire.example"


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=3000))
def test_random_bytes_never_raise(raw):
    """Whatever the bytes, the answer is an InboundReply or a Refusal."""
    assert isinstance(read_reply(raw), InboundReply | Refusal)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_damaged_samples_never_raise(data):
    """Client samples with bytes cut, flipped or inserted anywhere still give a reply or a refusal."""
    name = data.draw(st.sampled_from(sorted(p.name for p in SAMPLES.glob("*.eml"))))
    raw = bytearray((SAMPLES / name).read_bytes())
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(raw) - 1))
        action = data.draw(st.sampled_from(["cut", "flip", "insert"]))
        if action == "cut":
            del raw[at:at + data.draw(st.integers(1, 200))]
        elif action == "flip":
            raw[at] = data.draw(st.integers(0, 255))
        else:
            raw[at:at] = data.draw(st.binary(min_size=1, max_size=40))
        if not raw:
            raw = bytearray(b"x")
    assert isinstance(read_reply(bytes(raw)), InboundReply | Refusal)
