"""Replacing an interviewer of a scheduled loop: ranked substitutes, one transaction, re-checks, new times."""

from __future__ import annotations

from datetime import timedelta

import pytest
from changeutil import active, last_id, loop_errors, mark_sent, outbox, scheduled_loop
from loopworld import NOW, SETTINGS, World
from sqlalchemy import func, select

from planner.core.errors import Conflict, ValidationFailed
from planner.core.scheduling import load_problem, validate
from planner.models import AuditEntry, BusyBlock, Interview, OutboxMessage, Seat, SeatRole, SeatStatus
from planner.services import replacements, scheduling
from planner.services.loop_state import load_state


def mentoring_pool(world):
    pool = world.basic_pool()
    pool["eve"] = world.person("Eve", "Europe/Berlin", {"mentoring": "qualified"}, team="platform",
                               hours=("09:00", "23:00"), caps=(3, 4))
    pool["finn"] = world.person("Finn", "America/New_York", {"mentoring": "qualified"}, caps=(3, 6))
    return pool


def _mentor_leaves(db):
    """The world with the mentoring pool, a scheduled loop's mentoring interview, the mentor in it, and another
    mentor free to take the seat."""
    world = World(db)
    pool = mentoring_pool(world)
    _loop, rounds = scheduled_loop(db, world)
    mentor = rounds["mentor"]
    leaving = next(s.interviewer for s in mentor.seats)
    return world, pool, mentor, leaving, pool["eve"] if leaving.name != "Eve" else pool["finn"]


def test_options_are_ranked_least_loaded_first_with_plain_words(db):
    """Substitutes for the mentoring seat: valid, least loaded first, each with why in plain words."""
    world, pool, mentor, leaving, _joining = _mentor_leaves(db)
    # Finn already has two interviews that week in another loop; Eve none.
    for day in (4, 5):
        world.booked(pool["finn"], mentor.start.replace(day=day) - timedelta(hours=1),
                     mentor.start.replace(day=day))
    db.commit()
    options = replacements.replacement_options(db, mentor.id, leaving.id, now=NOW)
    names = [o.name for o in options.substitutes]
    assert leaving.name not in names and "Ana" not in names  # nobody twice in the loop
    candidates = {"Cleo", "Eve", "Finn"} - {leaving.name}
    assert set(names) == candidates
    first = options.substitutes[0]
    assert [o.week_load for o in options.substitutes] == sorted(o.week_load for o in options.substitutes)
    if {"Eve", "Finn"} == candidates:
        assert names == ["Eve", "Finn"]
        assert "qualified in Mentoring; 1 of 4 this week" in first.why
        assert "outside the hiring team" in first.why and "Europe/Berlin" in first.why
        assert "3 of 6 this week" in options.substitutes[1].why
        assert "outside the hiring team" not in options.substitutes[1].why
    assert options.role == "assessor" and not options.can_drop and options.new_plan is None


def test_every_offered_substitute_keeps_every_rule(db):
    """Each substitute, once seated, leaves a loop the scheduler's validator accepts."""
    world = World(db)
    mentoring_pool(world)
    world.person("Gia", "Asia/Kolkata", {"mentoring": "qualified"}, team="x")  # never free in the window
    world.person("Hal", "America/Chicago", {"compiler-design": "qualified"})   # wrong competency
    loop, rounds = scheduled_loop(db, world)
    assert loop_errors(db, loop.id) == []
    for interview in rounds.values():
        for seat in list(interview.seats):
            options = replacements.replacement_options(db, interview.id, seat.interviewer_id, now=NOW)
            assert "Gia" not in [o.name for o in options.substitutes]
            assert "Hal" not in [o.name for o in options.substitutes] or interview.round_key == "tech"
            state = load_state(db, loop.id, now=NOW)
            item = state.item(state.interviews[interview.id])
            role = "interviewers" if seat.role == SeatRole.ASSESSOR else "trainees"
            for option in options.substitutes:
                people = [p for p in item[role] if p != f"p{seat.interviewer_id}"] + [f"p{option.interviewer_id}"]
                entry = state.entry({interview.id: dict(item, **{role: people})})
                problem = load_problem(scheduling.problem_for(db, [loop.id], now=NOW))
                errors = validate(problem, {"loops": [entry], "stats": {}})
                assert [e for e in errors if not e.startswith("stats.")] == [], option


def test_replace_writes_seats_messages_and_audit_in_one_transaction(db):
    """Replacing: old seat removed, new seat, CANCEL to the one off (SEQUENCE+1), REQUEST to the panel (+2)."""
    _world, _pool, mentor, leaving, joining = _mentor_leaves(db)
    loop = mentor.loop
    mark_sent(db)  # the invites went out: the person taken off needs the CANCEL
    before, mark = mentor.sequence, last_id(db)
    replacements.replace_interviewer(db, mentor.id, leaving.id, joining_id=joining.id, reason="declined: on leave",
                                     actor_id=None, now=NOW, settings=SETTINGS)
    db.expire_all()
    mentor = db.get(Interview, mentor.id)
    assert mentor.sequence == before + 2
    assert active(mentor) == {(joining.name, "assessor")}
    assert {(s.interviewer.name, s.status) for s in mentor.seats} >= {(leaving.name, SeatStatus.REMOVED)}
    assert outbox(db, mentor.id, mark) == [
        ("reassign", "CANCEL", leaving.email, before + 1),
        ("reassign", "REQUEST", joining.email, before + 2),
    ]
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "interviewer_replaced"))
    assert entry.reason == "declined: on leave" and entry.entity_id == mentor.id
    assert entry.details["leaving"] == leaving.id and entry.details["joining"] == joining.id
    assert loop_errors(db, loop.id) == []


def test_a_failing_recheck_writes_nothing(db):
    """The substitute got booked at that time meanwhile: Conflict, no seat, no message, no audit."""
    world, _pool, mentor, leaving, joining = _mentor_leaves(db)
    options = replacements.replacement_options(db, mentor.id, leaving.id, now=NOW)
    assert joining.id in [o.interviewer_id for o in options.substitutes]
    world.booked(joining, mentor.start, mentor.end)
    db.commit()
    counts = (db.scalar(select(func.count(OutboxMessage.id))), db.scalar(select(func.count(Seat.id))),
              db.scalar(select(func.count(AuditEntry.id))))
    with pytest.raises(Conflict, match="no longer fits"):
        replacements.replace_interviewer(db, mentor.id, leaving.id, joining_id=joining.id, reason="declined",
                                         actor_id=None, now=NOW, settings=SETTINGS)
    assert counts == (db.scalar(select(func.count(OutboxMessage.id))), db.scalar(select(func.count(Seat.id))),
                      db.scalar(select(func.count(AuditEntry.id))))
    assert active(db.get(Interview, mentor.id)) == {(leaving.name, "assessor")}


def test_bad_input_is_refused_with_one_sentence(db):
    """No reason, an empty assessor seat, someone not on the interview: ValidationFailed, nothing written."""
    world = World(db)
    pool = mentoring_pool(world)
    loop, rounds = scheduled_loop(db, world)
    mentor = rounds["mentor"]
    leaving = next(s.interviewer for s in mentor.seats)
    mark = last_id(db)
    with pytest.raises(ValidationFailed, match="Say why"):
        replacements.replace_interviewer(db, mentor.id, leaving.id, joining_id=pool["finn"].id, reason=" ",
                                         actor_id=None, now=NOW, settings=SETTINGS)
    with pytest.raises(ValidationFailed, match="Pick who takes the seat"):
        replacements.replace_interviewer(db, mentor.id, leaving.id, reason="declined", actor_id=None, now=NOW,
                                         settings=SETTINGS)
    with pytest.raises(ValidationFailed, match="does not sit"):
        replacements.replacement_options(db, mentor.id, pool["ana"].id, now=NOW)
    with pytest.raises(ValidationFailed, match="already started"):
        replacements.replacement_options(db, mentor.id, leaving.id, now=mentor.start)
    assert last_id(db) == mark


def test_a_trainee_seat_can_be_dropped(db):
    """Dropping the trainee: CANCEL to them, updated REQUEST to the assessor, SEQUENCE + 2, no newcomer."""
    world = World(db)
    pool = world.basic_pool()
    loop, rounds = scheduled_loop(db, world)
    tech = rounds["tech"]
    assert (pool["dev"].name, "trainee") in active(tech)
    options = replacements.replacement_options(db, tech.id, pool["dev"].id, now=NOW)
    assert options.role == "trainee" and options.can_drop and options.substitutes == []
    mark_sent(db)
    before, mark = tech.sequence, last_id(db)
    replacements.replace_interviewer(db, tech.id, pool["dev"].id, reason="declined", actor_id=None, now=NOW,
                                     settings=SETTINGS)
    assert active(db.get(Interview, tech.id)) == {("Ana", "assessor")}
    assert outbox(db, tech.id, mark) == [("reassign", "CANCEL", "dev@hire.example", before + 1),
                                         ("reassign", "REQUEST", "ana@hire.example", before + 2)]


def test_nobody_at_that_time_gives_a_new_time_that_moves_one_round(db):
    """Ana declines and the only other compiler assessor is busy then: a new time with him, one round moved."""
    world = World(db)
    pool = world.basic_pool()
    loop, rounds = scheduled_loop(db, world)
    tech = rounds["tech"]
    gus = world.person("Gus", "America/New_York", {"compiler-design": "qualified"}, caps=(3, 6))
    db.add(BusyBlock(interviewer_id=gus.id, start=tech.start, end=tech.end, summary="Dentist"))
    db.commit()
    options = replacements.replacement_options(db, tech.id, pool["ana"].id, now=NOW)
    assert options.substitutes == []
    plan = options.new_plan
    assert plan and len(plan) <= replacements.MAX_MOVED_ROUNDS
    change = next(c for c in plan if c.interview_id == tech.id)
    assert change.moved and gus.id in change.interviewers and pool["ana"].id not in change.interviewers
    assert "Ana" in change.removed and "Gus" in change.added
    mark_sent(db)
    before, mark = tech.sequence, last_id(db)
    candidate_mark = db.get(Interview, rounds["mentor"].id).sequence
    replacements.replace_interviewer(db, tech.id, pool["ana"].id, plan=[c.as_dict() for c in plan],
                                     reason="declined", actor_id=None, now=NOW, settings=SETTINGS)
    tech = db.get(Interview, tech.id)
    assert tech.start == change.start and tech.sequence == before + 2
    messages = outbox(db, tech.id, mark)
    assert ("reassign", "CANCEL", "ana@hire.example", before + 1) in messages
    assert ("reassign", "REQUEST", "gus@hire.example", before + 2) in messages
    assert ("itinerary", "REQUEST", "kim@cand.example", before + 2) in messages
    if len(plan) == 1:
        assert db.get(Interview, rounds["mentor"].id).sequence == candidate_mark
    assert loop_errors(db, loop.id) == []


def test_no_substitute_and_no_new_time_says_so(db):
    """Ana is the only compiler assessor: no substitute, no new plan, and the page gets a sentence."""
    world = World(db)
    pool = world.basic_pool()
    loop, rounds = scheduled_loop(db, world)
    options = replacements.replacement_options(db, rounds["tech"].id, pool["ana"].id, now=NOW)
    assert options.substitutes == [] and options.new_plan is None
    assert "nobody else can take this seat" in options.why_none


def test_trainee_seat_role_is_kept_when_someone_else_trains(db):
    """A second shadow can take the trainee seat; the seat keeps its role and training level."""
    world = World(db)
    pool = world.basic_pool()
    ivy = world.person("Ivy", "America/New_York", {"compiler-design": "reverse-shadow"})
    loop, rounds = scheduled_loop(db, world)
    tech = rounds["tech"]
    options = replacements.replacement_options(db, tech.id, pool["dev"].id, now=NOW)
    assert [o.name for o in options.substitutes] == ["Ivy"]
    assert "training in Compiler design (reverse-shadow)" in options.substitutes[0].why
    replacements.replace_interviewer(db, tech.id, pool["dev"].id, joining_id=ivy.id, reason="declined",
                                     actor_id=None, now=NOW, settings=SETTINGS)
    seat = next(s for s in db.get(Interview, tech.id).seats if s.interviewer_id == ivy.id)
    assert seat.role == SeatRole.TRAINEE and seat.training_level == "reverse-shadow"


def test_a_trainee_of_the_loop_can_step_up_giving_up_their_trainee_seat(db):
    """Dev trains in the tech round and is qualified in mentoring: he can take Cleo's seat, told on both."""
    world = World(db)
    pool = world.basic_pool()
    pool["dev"].qualifications.append(type(pool["dev"].qualifications[0])(
        competency_id=world.competencies["mentoring"].id, level=pool["cleo"].qualifications[0].level))
    db.flush()
    loop, rounds = scheduled_loop(db, world)
    tech, mentor = rounds["tech"], rounds["mentor"]
    if (pool["dev"].name, "trainee") not in active(tech) or (pool["cleo"].name, "assessor") not in active(mentor):
        pytest.skip("the scheduler staffed the loop differently")
    options = replacements.replacement_options(db, mentor.id, pool["cleo"].id, now=NOW)
    dev = next(o for o in options.substitutes if o.name == "Dev")
    assert dev.gives_up == "Compiler deep-dive" and "gives up their trainee seat" in dev.why
    assert options.substitutes[-1] is dev  # stepping up comes after everyone free
    mark_sent(db)
    tech_seq, mark = tech.sequence, last_id(db)
    replacements.replace_interviewer(db, mentor.id, pool["cleo"].id, joining_id=pool["dev"].id, reason="declined",
                                     actor_id=None, now=NOW, settings=SETTINGS)
    assert active(db.get(Interview, mentor.id)) == {("Dev", "assessor")}
    assert active(db.get(Interview, tech.id)) == {("Ana", "assessor")}
    assert ("reassign", "CANCEL", "dev@hire.example", tech_seq + 1) in outbox(db, tech.id, mark)
    assert loop_errors(db, loop.id) == []


def test_someone_taken_off_the_loop_is_not_offered_for_it_again(db):
    """After the mentor is replaced (say they declined), the one who took the seat declines too: the first
    mentor, qualified and free, is not offered back; the others are."""
    _world, _pool, mentor, leaving, joining = _mentor_leaves(db)
    replacements.replace_interviewer(db, mentor.id, leaving.id, joining_id=joining.id, reason="declined: ill",
                                     actor_id=None, now=NOW, settings=SETTINGS)
    db.expire_all()
    options = replacements.replacement_options(db, mentor.id, joining.id, now=NOW)
    names = {o.name for o in options.substitutes}
    assert leaving.name not in names
    assert names == {"Cleo", "Eve", "Finn"} - {leaving.name, joining.name}
