"""What the people of a replaced seat receive: the time they last had, their role, one message each."""

from __future__ import annotations

from changeutil import last_id, mark_sent, outbox, scheduled_loop
from icalendar import Calendar
from loopworld import NOW, SETTINGS, World
from sqlalchemy import select

from planner.core.calendar import local_time_range
from planner.models import BusyBlock, Interview, OutboxMessage
from planner.services import replacements


def _rows(db, interview_id: int, after: int, email: str) -> list[OutboxMessage]:
    return list(db.scalars(select(OutboxMessage).where(
        OutboxMessage.interview_id == interview_id, OutboxMessage.id > after,
        OutboxMessage.recipient_email == email).order_by(OutboxMessage.id)))


def _vevent(row: OutboxMessage):
    (event,) = Calendar.from_ical(row.ics).walk("VEVENT")
    return event


def _moved_by_a_new_plan(db):
    """Ana declines the tech round and Gus, the only other compiler assessor, is busy then: the new plan
    moves the round to a time Gus is free. Returns (tech before, tech after, Gus, Ana, outbox mark)."""
    world = World(db)
    pool = world.basic_pool()
    _loop, rounds = scheduled_loop(db, world)
    tech = rounds["tech"]
    gus = world.person("Gus", "America/New_York", {"compiler-design": "qualified"}, caps=(3, 6))
    db.add(BusyBlock(interviewer_id=gus.id, start=tech.start, end=tech.end, summary="Dentist"))
    db.commit()
    before = (tech.start, tech.end, tech.sequence)
    plan = replacements.replacement_options(db, tech.id, pool["ana"].id, now=NOW).new_plan
    mark_sent(db)  # the invites went out: the people taken off need their CANCEL
    mark = last_id(db)
    replacements.replace_interviewer(db, tech.id, pool["ana"].id, plan=[c.as_dict() for c in plan],
                                     reason="declined", actor_id=None, now=NOW, settings=SETTINGS)
    return before, db.get(Interview, tech.id), gus, pool["ana"], mark


def test_the_person_taken_off_by_a_new_plan_is_told_the_time_they_had(db):
    """Ana's CANCEL and her "Removed from" email show the time she was invited to, not the new time."""
    (old_start, old_end, _seq), tech, _gus, ana, mark = _moved_by_a_new_plan(db)
    assert tech.start != old_start
    (cancel,) = _rows(db, tech.id, mark, ana.email)
    assert cancel.method == "CANCEL" and cancel.subject.startswith("Removed from:")
    event = _vevent(cancel)
    assert (event.DTSTART, event.DTEND) == (old_start, old_end)
    had = local_time_range(old_start, old_end, ana.timezone)
    moved_to = local_time_range(tech.start, tech.end, ana.timezone)
    assert had in cancel.body_text and had in cancel.body_html.replace("&#x27;", "'")
    assert moved_to not in cancel.body_text


def test_a_new_plan_sends_each_person_one_message(db):
    """Gus, who joins at the new time, gets one invitation (not an invitation then an update with the same
    data); the trainee who stays gets one update; the candidate one update; all at one SEQUENCE."""
    (_start, _end, before), tech, gus, ana, mark = _moved_by_a_new_plan(db)
    messages = outbox(db, tech.id, mark)
    by_person = {}
    for kind, method, email, sequence in messages:
        by_person.setdefault(email, []).append((kind, method, sequence))
    assert by_person.pop(ana.email) == [("reassign", "CANCEL", before + 1)]
    assert by_person.pop(gus.email) == [("reassign", "REQUEST", before + 2)]
    assert by_person.pop("kim@cand.example") == [("itinerary", "REQUEST", before + 2)]
    assert all(len(sent) == 1 and sent[0][2] == before + 2 for sent in by_person.values()), by_person
    assert tech.sequence == before + 2
    (invite,) = _rows(db, tech.id, mark, gus.email)
    assert invite.subject.startswith("Invitation:")
    assert _vevent(invite).DTSTART == tech.start


def test_a_trainee_taken_off_is_an_optional_participant_of_their_cancel(db):
    """Dropping Dev's trainee seat: his CANCEL lists him as OPT-PARTICIPANT, as his invite did."""
    world = World(db)
    pool = world.basic_pool()
    _loop, rounds = scheduled_loop(db, world)
    tech = rounds["tech"]
    (invite,) = _rows(db, tech.id, 0, pool["dev"].email)
    assert _vevent(invite)["ATTENDEE"][-1].params["ROLE"] == "OPT-PARTICIPANT"
    mark_sent(db)
    mark = last_id(db)
    replacements.replace_interviewer(db, tech.id, pool["dev"].id, reason="declined", actor_id=None, now=NOW,
                                     settings=SETTINGS)
    (cancel,) = _rows(db, tech.id, mark, pool["dev"].email)
    attendee = _vevent(cancel)["ATTENDEE"]
    assert str(attendee) == f"mailto:{pool['dev'].email}"
    assert attendee.params["ROLE"] == "OPT-PARTICIPANT"
