"""Queuing calendar messages with the change they announce: who gets what, SEQUENCE, local times."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from invitedata import NOW, SETTINGS, make_interviewer, make_loop
from sqlalchemy import func, select

from planner.core.calendar import CalendarInputError
from planner.core.errors import NotFound, ValidationFailed
from planner.models import Interview, InterviewStatus, OutboxMessage, OutboxState, Seat, SeatRole, SeatStatus
from planner.services import invites

TRAINEE = ("Tia Shadow", "tia@hire.example", "Europe/London")


def _unfold(ics: bytes) -> bytes:
    return ics.replace(b"\r\n ", b"")


def _messages(db, interview_id=None):
    query = select(OutboxMessage).order_by(OutboxMessage.id)
    if interview_id:
        query = query.where(OutboxMessage.interview_id == interview_id)
    return list(db.scalars(query))


def test_mail_settings_from_config_and_uid_shape():
    """Settings come from the MAIL_*/BASE_URL/UID_DOMAIN keys; a new UID is interview-<hex>@domain."""
    settings = invites.MailSettings.from_mapping(
        {
            "MAIL_ORGANIZER_EMAIL": "r@x.example",
            "MAIL_ORGANIZER_NAME": "R",
            "BASE_URL": "https://p.example/",
            "UID_DOMAIN": "x.example",
        }
    )
    assert settings == invites.MailSettings("r@x.example", "R", "https://p.example", "x.example")
    uid = invites.new_interview_uid(settings)
    assert uid.startswith("interview-") and uid.endswith("@x.example")
    assert uid != invites.new_interview_uid(settings)


def test_announce_scheduled_queues_panel_and_candidate(db):
    """Each assessor and trainee gets a REQUEST at SEQUENCE 0 and the candidate their own copy."""
    scenario = make_loop(db, trainee=TRAINEE, rounds=2)
    count = invites.announce_scheduled(db, [i.id for i in scenario.interviews], settings=SETTINGS, now=NOW)
    rows = _messages(db)
    assert count == len(rows) == 10
    first = [r for r in rows if r.interview_id == scenario.interviews[0].id]
    assert [(r.kind, r.method, r.recipient_email) for r in first] == [
        ("invite", "REQUEST", "ana@hire.example"),
        ("invite", "REQUEST", "oliver@hire.example"),
        ("invite", "REQUEST", "priya@hire.example"),
        ("invite", "REQUEST", "tia@hire.example"),
        ("itinerary", "REQUEST", "kim@candidate.example"),
    ]
    assert len({r.message_id for r in rows}) == 10
    assert all(r.loop_id == scenario.loop.id and r.sequence == 0 and r.state.value == "pending" for r in rows)
    panel_ics = {_unfold(r.ics) for r in first if r.kind == "invite"}
    assert len(panel_ics) == 1  # one calendar object for the whole panel
    assert b"tia@hire.example" in next(iter(panel_ics)) and b"OPT-PARTICIPANT" in next(iter(panel_ics))
    candidate = first[-1]
    assert b"ana@hire.example" not in _unfold(candidate.ics) and b"(primary" not in _unfold(candidate.ics)
    assert "Compiler design (primary focus)" in first[0].body_text
    assert "Walk through a lowering pass" in first[0].body_html
    assert "https://planner.hire.example/interviewer/" in first[0].body_text
    assert "shadowing" in first[3].body_text


def test_messages_roll_back_with_the_change(db):
    """No change without its message and no message without its change: a rollback removes both."""
    scenario = make_loop(db, rounds=1)
    db.commit()
    interview_id = scenario.interviews[0].id
    interview = db.get(Interview, interview_id)
    interview.location = "Room 4"
    invites.announce_changed(db, interview_id, settings=SETTINGS, now=NOW)
    db.rollback()
    db.expire_all()
    assert db.get(Interview, interview_id).sequence == 0
    assert db.scalar(select(func.count()).select_from(OutboxMessage)) == 0


def test_changed_cancelled_replaced_bump_sequence(db):
    """Update +1 (REQUEST), cancel +2 (CANCEL at +1 to panel and candidate), replacement +2 (CANCEL, REQUEST)."""
    scenario = make_loop(db, rounds=2)
    first, second = scenario.interviews
    invites.announce_scheduled(db, [first.id, second.id], settings=SETTINGS, now=NOW)
    assert invites.announce_changed(db, first.id, settings=SETTINGS, now=NOW) == 4
    assert first.sequence == 1
    second.status = InterviewStatus.CANCELLED
    assert invites.announce_cancelled(db, second.id, settings=SETTINGS, now=NOW) == 4
    cancels = [r for r in _messages(db, second.id) if r.method == "CANCEL"]
    assert {r.kind for r in cancels} == {"cancel", "itinerary"} and {r.sequence for r in cancels} == {1}
    assert second.sequence == 2
    assert all(b"STATUS:CANCELLED" in r.ics for r in cancels)

    for row in _messages(db, first.id):  # delivered: Ana heard of the interview, so she gets the CANCEL
        row.state = OutboxState.SENT
    ana_seat = next(s for s in first.seats if s.interviewer.email == "ana@hire.example")
    ana_seat.status = SeatStatus.REMOVED
    newcomer = make_interviewer(db, "Noor Ali", "noor@hire.example", "Asia/Kolkata")
    db.add(Seat(interview_id=first.id, interviewer_id=newcomer.id, role=SeatRole.ASSESSOR))
    db.flush()
    db.expire(first)
    assert invites.announce_replaced(db, first.id, ana_seat.interviewer_id, settings=SETTINGS, now=NOW) == 4
    assert first.sequence == 3
    replaced = [r for r in _messages(db, first.id) if r.kind == "reassign"]
    assert [(r.method, r.recipient_email, r.sequence) for r in replaced] == [
        ("CANCEL", "ana@hire.example", 2),
        ("REQUEST", "noor@hire.example", 3),
        ("REQUEST", "oliver@hire.example", 3),
        ("REQUEST", "priya@hire.example", 3),
    ]
    assert replaced[1].subject.startswith("Invitation") and replaced[2].subject.startswith("Updated")
    assert b"ana@hire.example" not in _unfold(replaced[1].ics)


def test_replace_refuses_someone_still_seated_and_unknown_ids(db):
    """Replacing a person who still holds an active seat, or unknown ids, changes nothing."""
    scenario = make_loop(db, rounds=1)
    interview = scenario.interviews[0]
    with pytest.raises(ValidationFailed, match="still holds a seat"):
        invites.announce_replaced(db, interview.id, scenario.interviewers[0].id, settings=SETTINGS, now=NOW)
    with pytest.raises(NotFound):
        invites.announce_changed(db, 999999, settings=SETTINGS, now=NOW)
    assert interview.sequence == 0
    assert db.scalar(select(func.count()).select_from(OutboxMessage)) == 0


def test_missing_round_detail_keys_and_bad_link(db):
    """An empty round_detail still makes an invite; a javascript: video link is refused with one sentence."""
    scenario = make_loop(db, rounds=1)
    interview = scenario.interviews[0]
    interview.round_detail = {"kind": "technical"}
    assert invites.announce_scheduled(db, [interview.id], settings=SETTINGS, now=NOW) == 4
    assert "Competencies to assess" not in _messages(db)[0].body_text
    interview.video_url = "javascript:alert(1)"
    with pytest.raises(CalendarInputError, match="http"):
        invites.announce_changed(db, interview.id, settings=SETTINGS, now=NOW)


def test_every_recipient_sees_their_own_local_time_across_dst(db):
    """Across London's DST change: LA, London, Kolkata and a Sydney candidate each see their own time."""
    start = datetime(2027, 3, 28, 0, 30, tzinfo=UTC)  # London changes to BST at 01:00 UTC
    scenario = make_loop(db, rounds=1, first_start=start)
    invites.announce_scheduled(db, [scenario.interviews[0].id], settings=SETTINGS, now=NOW)
    bodies = {r.recipient_email: r.body_text for r in _messages(db)}
    assert "Sat 27 Mar 2027, 17:30–18:30 America/Los_Angeles (UTC-07:00)" in bodies["ana@hire.example"]
    assert (
        "Sun 28 Mar 2027, 00:30–02:30 Europe/London (UTC+00:00 → UTC+01:00: the clocks change"
        in bodies["oliver@hire.example"]
    )
    assert "Sun 28 Mar 2027, 06:00–07:00 Asia/Kolkata (UTC+05:30)" in bodies["priya@hire.example"]
    assert "Sun 28 Mar 2027, 11:30–12:30 Australia/Sydney (UTC+11:00)" in bodies["kim@candidate.example"]
    ics = _messages(db)[0].ics
    assert b"DTSTART:20270328T003000Z" in ics and b"DTEND:20270328T013000Z" in ics


def test_candidate_after_sydney_dst_change(db):
    """A week later Sydney has left daylight time: the candidate's body shows UTC+10:00."""
    start = datetime(2027, 4, 5, 8, 0, tzinfo=UTC)
    scenario = make_loop(db, rounds=1, first_start=start)
    invites.announce_scheduled(db, [scenario.interviews[0].id], settings=SETTINGS, now=NOW)
    bodies = {r.recipient_email: r.body_text for r in _messages(db)}
    assert "Mon 5 Apr 2027, 18:00–19:00 Australia/Sydney (UTC+10:00)" in bodies["kim@candidate.example"]
    assert "Mon 5 Apr 2027, 09:00–10:00 Europe/London (UTC+01:00)" in bodies["oliver@hire.example"]
    assert "Mon 5 Apr 2027, 01:00–02:00 America/Los_Angeles (UTC-07:00)" in bodies["ana@hire.example"]
