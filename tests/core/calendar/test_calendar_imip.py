"""The iMIP email: MIME shape, headers, per-recipient bodies, escaping and refusals."""

from __future__ import annotations

import email
import email.policy

import pytest

from planner.core.calendar import (
    CalendarInputError,
    Organizer,
    build_cancel,
    build_imip_message,
    build_request,
    interviewer_html,
    panel_request_messages,
    reassignment_messages,
)
from tests.core.calendar.ics_scenario import (
    ALICE,
    ANA,
    BEN,
    CANCELLED,
    INVITED,
    MEI,
    NEW_PANEL,
    ORGANIZER,
    PANEL,
    RAJ,
    REASSIGNED,
    T0,
    T3,
    T4,
    TRAINEES,
)

INVITE = build_request(INVITED, ORGANIZER, PANEL, T0, trainees=TRAINEES)


def _reparsed(message) -> email.message.EmailMessage:
    """The message as a mail client receives it: serialised, then parsed again."""
    return email.message_from_bytes(message.as_bytes(), policy=email.policy.default)


def _shape(message) -> list[str]:
    return [part.get_content_type() for part in message.walk()]


def _message(ics=INVITE, method="REQUEST", recipient=ALICE, html="<p>hi</p>"):
    return build_imip_message(ics, method, ORGANIZER, recipient, "Invitation", "hi", html)


def test_request_email_has_the_checklist_mime_shape():
    """mixed[alternative[plain, html, calendar], application/ics attachment], calendar last."""
    assert _shape(_reparsed(_message())) == [
        "multipart/mixed",
        "multipart/alternative",
        "text/plain",
        "text/html",
        "text/calendar",
        "application/ics",
    ]


def test_calendar_part_is_inline_base64_with_method_and_charset():
    """The text/calendar part says method=REQUEST; charset=UTF-8, is base64 and not an attachment."""
    part = next(p for p in _reparsed(_message()).walk() if p.get_content_type() == "text/calendar")
    assert part.get_param("method") == "REQUEST"
    assert part.get_param("charset").upper() == "UTF-8"
    assert part["Content-Transfer-Encoding"] == "base64"
    assert part.get_content_disposition() is None
    assert part.get_payload(decode=True) == INVITE


def test_attachment_is_the_same_calendar():
    """The application/ics attachment is invite.ics with the identical bytes."""
    part = next(p for p in _reparsed(_message()).walk() if p.get_content_type() == "application/ics")
    assert part.get_content_disposition() == "attachment"
    assert part.get_filename() == "invite.ics"
    assert part.get_payload(decode=True) == INVITE


def test_cancel_email_has_no_attachment():
    """A CANCEL travels only inline: a second copy would read as a replayed cancel."""
    cancel = build_cancel(CANCELLED, ORGANIZER, NEW_PANEL, T4)
    message = _reparsed(_message(cancel, "CANCEL"))
    assert _shape(message) == ["multipart/alternative", "text/plain", "text/html", "text/calendar"]
    calendar_part = next(p for p in message.walk() if p.get_content_type() == "text/calendar")
    assert calendar_part.get_param("method") == "CANCEL"


def test_from_is_the_organizer_and_to_is_the_recipient():
    """From is the ORGANIZER mailbox with its name; To is the recipient."""
    message = _reparsed(_message())
    assert message["From"].addresses[0].addr_spec == ORGANIZER.email
    assert message["From"].addresses[0].display_name == ORGANIZER.name
    assert message["To"].addresses[0].addr_spec == ALICE.email
    assert message["To"].addresses[0].display_name == "Doe, Alice"


def test_email_lines_end_with_crlf():
    """The serialised email uses CRLF line endings, as SMTP requires."""
    data = _message().as_bytes()
    assert b"\r\n" in data
    assert b"\n" not in data.replace(b"\r\n", b"")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "CANCEL"}, "does not match|says METHOD"),
        ({"method": "PUBLISH"}, "REQUEST or CANCEL"),
        ({"recipient": BEN}, "not an ATTENDEE"),
    ],
)
def test_inconsistent_emails_are_refused(kwargs, message):
    """A method that differs from METHOD, a non-iMIP method or a recipient who is not an attendee."""
    with pytest.raises(CalendarInputError, match=message):
        _message(**kwargs)


def test_sender_must_be_the_calendar_organizer():
    """An email whose From differs from the calendar's ORGANIZER is refused."""
    other = Organizer("someone-else@hire.example.com", "Someone Else")
    with pytest.raises(CalendarInputError, match="ORGANIZER"):
        build_imip_message(INVITE, "REQUEST", other, ALICE, "Invitation", "hi", "<p>hi</p>")


def test_subject_with_a_line_break_is_refused():
    """A subject with a line break (header injection) is refused."""
    with pytest.raises(CalendarInputError, match="single line"):
        build_imip_message(
            INVITE, "REQUEST", ORGANIZER, ALICE, "Hi\r\nBcc: x@evil.example", "hi", "<p>hi</p>"
        )


def test_html_body_escapes_user_text():
    """Markup in notes and names is escaped in the HTML body."""
    html = interviewer_html(INVITED, ALICE, "invite", ORGANIZER)
    assert "<carefully>" not in html
    assert "&lt;carefully&gt;" in html
    assert "&quot;ownership&quot;" in html


def test_panel_gets_one_email_each_with_their_own_time():
    """Every panel member and trainee gets their own email; the calendar bytes are identical."""
    messages = panel_request_messages(INVITED, ORGANIZER, PANEL, T0, trainees=TRAINEES)
    assert [m.recipient for m in messages] == [ALICE, ANA, RAJ, MEI]
    assert len({m.ics for m in messages}) == 1
    bodies = [m.email.get_body(("plain",)).get_content() for m in messages]
    assert "18:00–19:00 Europe/Berlin" in bodies[0]
    assert "09:00–10:00 America/Los_Angeles" in bodies[1]
    assert "21:30–22:30 Asia/Kolkata" in bodies[2]
    assert "as a trainee" in bodies[3]


def test_reassignment_emails_cancel_for_the_removed_and_invite_the_added():
    """Ana gets a CANCEL saying she was taken off; Ben an invitation; the others an update."""
    messages = {
        m.recipient.email: m
        for m in reassignment_messages(REASSIGNED, ORGANIZER, [ANA], [BEN], NEW_PANEL, T3, trainees=TRAINEES)
    }
    assert set(messages) == {ANA.email, ALICE.email, BEN.email, RAJ.email, MEI.email}
    assert messages[ANA.email].method == "CANCEL"
    assert "taken off" in messages[ANA.email].email.get_body(("plain",)).get_content()
    assert messages[BEN.email].email["Subject"].startswith("Invitation:")
    assert messages[ALICE.email].email["Subject"].startswith("Updated:")
    assert messages[BEN.email].ics == messages[ALICE.email].ics


def test_reassignment_refuses_an_added_person_not_on_the_panel():
    """Everyone named as added must be on the new panel."""
    with pytest.raises(CalendarInputError, match="added"):
        reassignment_messages(REASSIGNED, ORGANIZER, [ANA], [ANA], NEW_PANEL, T3)
