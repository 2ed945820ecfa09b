"""A proposal's trainee seats: dropping one, offering and seating free trainees, and confirm's re-check."""

from __future__ import annotations

from datetime import timedelta

import pytest
from loopworld import NOW, SETTINGS, World, proposal_errors, row_count
from sqlalchemy import func, select

from planner.core.errors import Conflict, ValidationFailed
from planner.models import Interview, LoopStatus, OutboxMessage, Seat, SeatRole
from planner.services import proposal_trainees, scheduling
from planner.services.scheduling_problem import parse_z


def _tech(interviews) -> dict:
    return next(i for i in interviews if i["round"] == "tech")


@pytest.fixture
def proposed(db):
    """Kim Lee's draft loop proposed with Dev (a compiler shadow) in the trainee seat of 'tech'."""
    world = World(db)
    world.pool = world.basic_pool()
    world.loop_obj = world.loop()
    db.commit()
    world.proposal = scheduling.propose(db, world.loop_obj.id, now=NOW)
    assert _tech(world.proposal.interviews)["trainees"] == [f"p{world.pool['dev'].id}"]
    return world


def test_dropping_a_trainee_keeps_assessors_and_times_and_confirms_without_the_seat(db, proposed):
    """Dropping Dev empties only the trainee seat; confirming that proposal seats no trainee and invites no Dev."""
    loop, dev = proposed.loop_obj, proposed.pool["dev"]
    before = [dict(i) for i in proposed.proposal.interviews]
    change = proposal_trainees.drop_trainee(db, loop.id, proposed.proposal.interviews, "tech", dev.id)
    assert (change.name, change.round_name) == ("Dev", "Compiler deep-dive")
    assert _tech(change.interviews) == dict(_tech(before), trainees=[])
    assert [i for i in change.interviews if i["round"] != "tech"] == [i for i in before if i["round"] != "tech"]
    assert proposed.proposal.interviews == before, "the proposal given is not changed in place"
    created = scheduling.confirm(db, loop.id, change.interviews, actor_id=None, now=NOW, settings=SETTINGS)
    tech = next(i for i in created if i.round_key == "tech")
    assert [s.role for s in tech.seats] == [SeatRole.ASSESSOR]
    assert db.scalar(select(func.count()).select_from(OutboxMessage)
                     .where(OutboxMessage.recipient_email == "dev@hire.example")) == 0


@pytest.mark.parametrize(("round_key", "who", "message"), [
    ("tech", "ana", "not a trainee in this round"),  # an assessor is swapped, never dropped
    ("mentor", "dev", "not a trainee in this round"),  # Dev sits in another round
    ("tech", None, "not a trainee in this round"),  # nobody with that id
    ("lunch", "dev", "not in the proposal"),
])
def test_dropping_someone_who_is_not_the_rounds_trainee_is_refused(db, proposed, round_key, who, message):
    """A round or person that is not a trainee seat of the proposal gets one sentence and no new proposal."""
    person_id = proposed.pool[who].id if who else 987654
    with pytest.raises(ValidationFailed, match=message):
        proposal_trainees.drop_trainee(db, proposed.loop_obj.id, proposed.proposal.interviews, round_key, person_id)


def test_trainee_options_are_free_trainees_of_the_round_each_keeping_every_rule(db, proposed):
    """After a drop, the options are shadows and reverse-shadows of the round who are free, ranked by load;
    people without training in it, at their cap, or off work then are not offered."""
    loop, pool = proposed.loop_obj, proposed.pool
    eve = proposed.person("Eve", "America/New_York", {"compiler-design": "reverse-shadow"})
    proposed.person("Fay", "America/New_York", {"compiler-design": "shadow"}, caps=(0, 5))
    proposed.person("Gus", "Asia/Tokyo", {"compiler-design": "shadow"})  # asleep during the window
    abe = proposed.person("Abe", "America/New_York", {"compiler-design": "shadow"})
    proposed.booked(abe, NOW + timedelta(days=1, hours=3), NOW + timedelta(days=1, hours=4))  # Tue, same week
    db.commit()
    dropped = proposal_trainees.drop_trainee(db, loop.id, proposed.proposal.interviews, "tech", pool["dev"].id)
    options = proposal_trainees.trainee_options(db, loop.id, dropped.interviews, "tech", now=NOW)
    assert [o.name for o in options] == ["Dev", "Eve", "Abe"]  # Abe already sits in an interview that week
    assert "training in Compiler design (shadow)" in options[0].why
    assert "Compiler design (reverse-shadow)" in options[1].why
    assert "1 of 5 interviews that week" in options[2].why
    for option in options:
        assert proposal_errors(db, loop.id, option.interviews) == []
    added = proposal_trainees.add_trainee(db, loop.id, dropped.interviews, "tech", eve.id, now=NOW)
    assert _tech(added.interviews)["trainees"] == [f"p{eve.id}"] and added.name == "Eve"
    for person in (pool["cleo"], pool["ana"]):  # not training in compiler design; already an assessor
        with pytest.raises(ValidationFailed, match="cannot take the trainee seat"):
            proposal_trainees.add_trainee(db, loop.id, dropped.interviews, "tech", person.id, now=NOW)


def test_a_seat_is_only_offered_where_the_plan_has_one_and_it_is_empty(db, proposed):
    """'Mentoring' has no trainee seat in the plan; 'tech' already holds Dev; an unknown round is refused."""
    loop, interviews = proposed.loop_obj, proposed.proposal.interviews
    with pytest.raises(ValidationFailed, match="'Mentoring' has no trainee seat"):
        proposal_trainees.trainee_options(db, loop.id, interviews, "mentor", now=NOW)
    with pytest.raises(ValidationFailed, match="already has its trainee"):
        proposal_trainees.add_trainee(db, loop.id, interviews, "tech", proposed.pool["dev"].id, now=NOW)
    with pytest.raises(ValidationFailed, match="not in the proposal"):
        proposal_trainees.trainee_options(db, loop.id, interviews, "lunch", now=NOW)


def test_confirm_rechecks_a_trainee_seated_by_hand(db, proposed):
    """A trainee seated from the options but booked elsewhere before confirming makes confirm a Conflict."""
    loop, pool = proposed.loop_obj, proposed.pool
    eve = proposed.person("Eve", "America/New_York", {"compiler-design": "shadow"})
    db.commit()
    dropped = proposal_trainees.drop_trainee(db, loop.id, proposed.proposal.interviews, "tech", pool["dev"].id)
    added = proposal_trainees.add_trainee(db, loop.id, dropped.interviews, "tech", eve.id, now=NOW)
    start = parse_z(_tech(added.interviews)["start"])
    proposed.booked(eve, start, start + timedelta(minutes=30))
    db.commit()
    before = (row_count(db, Interview), row_count(db, Seat), row_count(db, OutboxMessage))
    with pytest.raises(Conflict, match="no longer fits.*Eve"):
        scheduling.confirm(db, loop.id, added.interviews, actor_id=None, now=NOW, settings=SETTINGS)
    assert (row_count(db, Interview), row_count(db, Seat), row_count(db, OutboxMessage)) == before
    assert db.get(type(loop), loop.id).status == LoopStatus.DRAFT


def test_trainee_seats_change_only_on_draft_loops(db, proposed):
    """Once the loop is scheduled, the proposal's trainee seats are no longer edited."""
    loop = proposed.loop_obj
    scheduling.confirm(db, loop.id, proposed.proposal.interviews, actor_id=None, now=NOW, settings=SETTINGS)
    with pytest.raises(ValidationFailed, match="only draft loops"):
        proposal_trainees.drop_trainee(db, loop.id, proposed.proposal.interviews, "tech", proposed.pool["dev"].id)
