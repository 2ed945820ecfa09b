"""Scheduling a loop from the database: the problem builder, proposals, caps in local days and weeks."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest
from loopworld import NOW, World, utc

from planner.core.errors import NotFound, ValidationFailed
from planner.core.scheduling import load_problem, validate
from planner.models import InterviewStatus
from planner.services import scheduling
from planner.services.loops import WindowInput, windows_utc


def _doc_person(doc, person):
    return next(p for p in doc["interviewers"] if p["id"] == f"p{person.id}")


def test_problem_document_carries_pool_rounds_and_existing_seats(db):
    """The builder lists active people with zone, hours, caps, skills and other loops' seats only."""
    world = World(db)
    pool = world.basic_pool()
    gone = world.person("Gone", "UTC", {"compiler-design": "qualified"}, active=False)
    loop = world.loop()
    world.booked(pool["ana"], utc(2030, 3, 5, 15), utc(2030, 3, 5, 16))
    world.booked(pool["ana"], utc(2030, 3, 5, 17), utc(2030, 3, 5, 18), status=InterviewStatus.CANCELLED)
    doc = scheduling.problem_for(db, [loop.id], now=NOW)
    ids = {p["id"] for p in doc["interviewers"]}
    assert f"p{gone.id}" not in ids and f"p{pool['ana'].id}" in ids
    ana = _doc_person(doc, pool["ana"])
    assert ana["timezone"] == "America/Los_Angeles"
    assert ana["working_hours"] == {"start": "06:00", "end": "14:00",
                                    "days": ["mon", "tue", "wed", "thu", "fri"]}
    assert (ana["max_per_day"], ana["max_per_week"]) == (1, 2)
    assert ana["skills"] == {"compiler-design": "qualified"}
    assert ana["existing"] == [{"start": "2030-03-05T15:00:00Z", "end": "2030-03-05T16:00:00Z"}]
    assert _doc_person(doc, pool["dev"])["skills"] == {"compiler-design": "shadow"}
    [entry] = doc["loops"]
    assert entry["id"] == f"loop{loop.id}" and entry["hiring_team"] == "neuron-compiler"
    assert entry["candidate"]["timezone"] == "America/New_York"
    assert entry["windows"] == [{"start": "2030-03-06T14:00:00Z", "end": "2030-03-06T22:00:00Z"}]
    tech, mentor = entry["rounds"]
    assert tech == {"id": "tech", "minutes": 60, "competencies": ["compiler-design"], "interviewers": 1,
                    "trainee": True}
    assert mentor["competencies"] == ["mentoring"] and mentor["trainee"] is False
    load_problem(doc)


def test_windows_in_the_past_are_cut_at_now(db):
    """A window that started already is offered only from the next slot after now."""
    world = World(db)
    world.basic_pool()
    loop = world.loop(windows=[(utc(2030, 3, 4, 11), utc(2030, 3, 4, 20))])
    doc = scheduling.problem_for(db, [loop.id], now=utc(2030, 3, 4, 12, 7))
    assert doc["loops"][0]["windows"] == [{"start": "2030-03-04T12:15:00Z", "end": "2030-03-04T20:00:00Z"}]


def test_windows_entered_across_a_dst_change_use_each_days_offset(db):
    """09:00 New York is 14:00Z before the March 2030 DST change and 13:00Z after it; proposals stay valid."""
    spans = windows_utc([WindowInput(date(2030, 3, 8), time(9), time(17)),
                         WindowInput(date(2030, 3, 11), time(9), time(17))], "America/New_York", now=NOW)
    assert spans == [(utc(2030, 3, 8, 14), utc(2030, 3, 8, 22)), (utc(2030, 3, 11, 13), utc(2030, 3, 11, 21))]
    world = World(db)
    world.basic_pool()
    # The Monday after the change, when Los Angeles is UTC-7 and New York UTC-4.
    loop = world.loop(windows=[spans[1]])
    proposal = scheduling.propose(db, loop.id, now=NOW)
    assert proposal.scheduled, proposal.reason
    problem = load_problem(scheduling.problem_for(db, [loop.id], now=NOW))
    errors = validate(problem, {"loops": [{"id": f"loop{loop.id}", "status": "scheduled",
                                           "interviews": proposal.interviews}], "stats": {}})
    assert [e for e in errors if not e.startswith("stats.")] == []
    tech = next(i for i in proposal.interviews if i["round"] == "tech")
    # Ana works 06:00-14:00 Los Angeles (UTC-7 after the change): 13:00Z-21:00Z.
    assert "2030-03-11T13:00:00Z" <= tech["start"] and tech["end"] <= "2030-03-11T21:00:00Z"


@pytest.mark.parametrize(("booked_at", "fits"), [
    # 05:00Z on 6 March is 21:00 on 5 March in Los Angeles: another local day, the daily cap of 1 is free.
    (utc(2030, 3, 6, 5), True),
    # 23:00Z on 6 March is 15:00 on 6 March in Los Angeles: the same local day, the cap is full.
    (utc(2030, 3, 6, 23), False),
])
def test_daily_cap_counts_the_interviewers_local_day(db, booked_at, fits):
    """An existing seat counts on the interviewer's local day, not the UTC day or the candidate's."""
    world = World(db)
    pool = world.basic_pool()
    world.booked(pool["ana"], booked_at, booked_at + timedelta(minutes=30))
    loop = world.loop()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    assert proposal.scheduled is fits, proposal.reason
    if not fits:
        assert proposal.reason


def test_weekly_cap_counts_the_interviewers_local_iso_week(db):
    """Seats on Sunday evening in Los Angeles (Monday in UTC) fill Ana's ISO week of the window."""
    world = World(db)
    pool = world.basic_pool()
    # Ana's weekly cap is 2; both seats are in her ISO week 10 (Mon 4 - Sun 10 March, local).
    world.booked(pool["ana"], utc(2030, 3, 4, 16), utc(2030, 3, 4, 17))
    world.booked(pool["ana"], utc(2030, 3, 11, 3), utc(2030, 3, 11, 4))  # Sun 10 March 20:00 LA
    loop = world.loop()
    assert not scheduling.propose(db, loop.id, now=NOW).scheduled


def test_seat_in_the_next_local_week_leaves_the_weekly_cap_free(db):
    """A seat on Monday 11 March in Los Angeles belongs to ISO week 11 and does not block week 10."""
    world = World(db)
    pool = world.basic_pool()
    world.booked(pool["ana"], utc(2030, 3, 4, 16), utc(2030, 3, 4, 17))
    world.booked(pool["ana"], utc(2030, 3, 11, 16), utc(2030, 3, 11, 17))
    loop = world.loop()
    assert scheduling.propose(db, loop.id, now=NOW).scheduled


def test_loop_without_any_published_plan_is_refused(db):
    """Scheduling asks for a published plan instead of inventing one."""
    world = World(db)
    world.basic_pool()
    loop = world.loop(version=False)
    db.delete(world.version)
    db.flush()
    with pytest.raises(ValidationFailed, match="publish the plan"):
        scheduling.propose(db, loop.id, now=NOW)


def test_loop_without_version_uses_the_latest_published_one(db):
    """A loop created before any pin is scheduled with the posting's latest version."""
    world = World(db)
    world.basic_pool()
    loop = world.loop(version=False)
    assert scheduling.propose(db, loop.id, now=NOW).scheduled


def test_unknown_loop_is_not_found(db):
    """Proposing for a loop id that does not exist says so."""
    with pytest.raises(NotFound):
        scheduling.propose(db, 987654, now=NOW)


def test_unscheduled_loop_says_which_round_in_plain_words(db):
    """Without any compiler assessor the loop is unscheduled with a reason in names, not ids."""
    world = World(db)
    world.person("Cleo", "America/New_York", {"mentoring": "qualified"})
    loop = world.loop()
    proposal = scheduling.propose(db, loop.id, now=NOW)
    assert not proposal.scheduled
    assert proposal.reason and "loop" + str(loop.id) not in proposal.reason
    # Competencies by their names too ("no one is qualified in Compiler design"), not by their slugs.
    assert "qualified in Compiler design" in proposal.reason and "compiler-design" not in proposal.reason


def test_batch_schedules_every_draft_loop_of_the_posting(db):
    """The hiring event proposes all draft loops at once, each scheduled or with a reason."""
    world = World(db)
    world.basic_pool()
    world.person("Ben", "Europe/Berlin", {"compiler-design": "qualified"}, hours=("09:00", "24:00"))
    first = world.loop("Kim Lee")
    second = world.loop("Lou Park")
    proposals = scheduling.propose_batch(db, world.posting.id, now=NOW)
    assert [p.loop_id for p in proposals] == [first.id, second.id]
    assert all(p.scheduled for p in proposals)
    people = [p for prop in proposals for i in prop.interviews for p in i["interviewers"]]
    starts = {(p, i["start"]) for prop in proposals for i in prop.interviews for p in i["interviewers"]}
    assert len(starts) == len(people)


def test_batch_without_draft_loops_is_refused(db):
    """A posting with no draft loop gives one clear message."""
    world = World(db)
    with pytest.raises(ValidationFailed, match="no draft loops"):
        scheduling.propose_batch(db, world.posting.id, now=NOW)


def test_demo_hiring_event_schedules_what_the_single_loop_proposal_schedules(db):
    """In the demo, Kim Lee's rounds need more time than her windows hold; beside her loop, Sam Okafor's
    loop (which first-fit cannot place but the solver can) is still scheduled in the hiring event."""
    from sqlalchemy import select

    from planner.db import utcnow
    from planner.models import Loop, LoopStatus
    from planner.services.demo import load_demo

    now = utcnow()
    load_demo(db, now=now)
    drafts = db.scalars(select(Loop).where(Loop.status == LoopStatus.DRAFT).order_by(Loop.id)).all()
    names = {loop.id: loop.candidate.name for loop in drafts}
    posting_id = drafts[0].posting_id
    batch = {p.loop_id: p for p in scheduling.propose_batch(db, posting_id, now=now)}
    single = {loop_id: scheduling.propose(db, loop_id, now=now) for loop_id in batch}
    assert {names[i]: p.scheduled for i, p in batch.items()} == {"Kim Lee": False, "Sam Okafor": True}
    assert {names[i]: p.scheduled for i, p in single.items()} == {"Kim Lee": False, "Sam Okafor": True}
    kim = next(p for i, p in batch.items() if names[i] == "Kim Lee")
    assert kim.reason.startswith("the rounds need 315 minutes but the longest candidate window is 300 minutes")


def test_people_in_reasons_and_fixes_are_named(db):
    """The engine quotes people's ids in reasons and fixes ("relax the weekly cap of 'p7'"), so the
    coordinator reads their names, not problem ids."""
    from planner.services.scheduling_problem import build_problem

    world = World(db)
    pool = world.basic_pool()
    built = build_problem(db, [world.loop()], now=NOW)
    ana = f"p{pool['ana'].id}"
    assert built.humanise(f"relax the weekly cap of '{ana}'") == "relax the weekly cap of Ana"
    assert built.humanise(f"qualify '{ana}' in 'mentoring'") == "qualify Ana in Mentoring"
    assert built.humanise(f"only 1 is: '{ana}'") == "only 1 is: Ana"


def test_reasons_name_rounds_and_competencies_even_after_an_apostrophe(db):
    """An apostrophe in a reason ("candidate's") does not stop the ids after it being put into names."""
    from planner.services.scheduling_problem import build_problem

    world = World(db)
    world.basic_pool()
    built = build_problem(db, [world.loop()], now=NOW)
    reason = ("round 'tech': no common free time inside the candidate's windows for a panel that covers "
              "'compiler-design', 'mentoring'")
    assert built.humanise(reason) == (
        "round Compiler deep-dive: no common free time inside the candidate's windows for a panel that "
        "covers Compiler design, Mentoring")
