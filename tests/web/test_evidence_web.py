"""The manager's evidence view: planned -> scheduled -> scored per loop, gaps in words, trainees kept out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from invitedata import make_interviewer
from loopworld import NOW, World, book
from sqlalchemy import event

from planner.db import utcnow
from planner.models import InterviewStatus, LoopStatus, Rating, Scorecard
from planner.queries.evidence import get_posting_evidence

PAST = NOW - timedelta(days=1)


def scored(db, world, interview, person, scores: dict[str, int], *, submitted=True):
    card = Scorecard(interview_id=interview.id, interviewer_id=person.id, notes="n",
                     submitted_at=PAST + timedelta(hours=3) if submitted else None)
    card.ratings = [Rating(competency_id=world.competencies[s].id, score=v) for s, v in scores.items()]
    db.add(card)
    db.flush()


@pytest.fixture
def world(db):
    """Posting with must-haves compiler design, mentoring and (in no round) pre-silicon feedback; four people."""
    world = World(db, uncovered=True)
    world.people = {key: make_interviewer(db, name, f"{key}@hire.example", "UTC") for key, name in (
        ("olivia", "Olivia Grant"), ("sam", "Sam Ortiz"), ("cleo", "Cleo Park"), ("tia", "Tia Trainee"))}
    return world


def kim_loop(db, world, past=PAST):
    """Kim: tech round (Olivia + Sam, trainee Tia) done; Sam and Tia submitted, Olivia did not; mentor round by
    Cleo submitted."""
    p = world.people
    loop = world.loop("Kim Lee")
    tech = book(db, world, loop, "tech", past, [p["olivia"], p["sam"]], [p["tia"]])
    mentor = book(db, world, loop, "mentor", past + timedelta(hours=2), [p["cleo"]])
    scored(db, world, tech, p["sam"], {"compiler-design": 4, "mentoring": 3})
    scored(db, world, tech, p["tia"], {"compiler-design": 1, "mentoring": 1})
    scored(db, world, tech, p["olivia"], {"compiler-design": 1}, submitted=False)  # a draft never counts
    scored(db, world, mentor, p["cleo"], {"mentoring": 1})
    return loop


def test_matrix_states_averages_and_trainee_exclusion(db, world):
    """Cells go planned -> scheduled -> scored; averages use submitted assessor ratings only (no trainee, no draft)."""
    kim_loop(db, world)
    db.commit()
    view = get_posting_evidence(db, world.posting.id, NOW)
    (kim,) = view.loops
    assert [r.key for r in kim.rounds] == ["tech", "mentor"]
    rows = {r.slug: r for r in kim.rows}
    compiler = rows["compiler-design"]
    assert [c.state for c in compiler.cells] == ["scored", "none"]
    assert compiler.cells[0].average == 4.0  # Tia's 1 and Olivia's draft 1 are not counted
    assert {(m.name, m.state, m.score) for m in compiler.cells[0].people} == {
        ("Olivia Grant", "missing", None), ("Sam Ortiz", "scored", 4)}
    mentoring = rows["mentoring"]
    assert (mentoring.planned, mentoring.scheduled, mentoring.scored) == (2, 2, 2)
    assert mentoring.average == 2.0 and mentoring.cells[1].band == 1
    assert rows["pre-silicon-feedback"].planned == 0
    assert [(t.name, t.ratings) for t in kim.training] == [
        ("Tia Trainee", (("Compiler design", 1), ("Mentoring", 1)))]


def test_gaps_in_plain_words(db, world):
    """Missing scorecards name the person; never-planned, split ratings, cancelled and unscheduled rounds show."""
    kim_loop(db, world)
    p = world.people
    lee = world.loop("Lee Cancelled")
    book(db, world, lee, "tech", PAST, [p["sam"]], status=InterviewStatus.CANCELLED)
    mentor = book(db, world, lee, "mentor", PAST, [p["cleo"]])
    scored(db, world, mentor, p["cleo"], {"mentoring": 3})
    max_loop = world.loop("Max Partial")
    book(db, world, max_loop, "tech", NOW + timedelta(days=1), [p["sam"]])
    db.commit()
    loops = {lp.candidate_name: lp for lp in get_posting_evidence(db, world.posting.id, NOW).loops}
    kim = [(g.kind, g.text) for g in loops["Kim Lee"].gaps]
    assert ("gap", "Compiler design: planned in 1 round, 1 scorecard missing from Olivia Grant.") in kim
    assert ("gap", "Mentoring: planned in 2 rounds, 1 scorecard missing from Olivia Grant.") in kim
    assert ("gap", "Pre-silicon feedback: not assessed by any round of this loop, no evidence.") in kim
    assert ("note", "Mentoring: ratings split from 1 to 3; discuss at the debrief.") in kim
    assert not any(kind == "pending" for kind, _ in kim)
    lee = [(g.kind, g.text) for g in loops["Lee Cancelled"].gaps]
    assert ("gap", "Compiler design: interview cancelled, no evidence.") in lee
    assert ("note", "Mentoring: the Compiler deep-dive interview was cancelled; evidence comes from the other rounds "
                    "only.") in lee  # one round is all mentoring requires here
    assert not any("missing" in text for _, text in lee)
    max_gaps = [(g.kind, g.text) for g in loops["Max Partial"].gaps]
    assert ("gap", "Mentoring: the Mentoring round is not scheduled.") in max_gaps
    assert ("pending", "1 interview still to come; their evidence is not due yet.") in max_gaps
    assert [c.state for c in loops["Max Partial"].rows[0].cells] == ["scheduled", "none"]


def test_draft_and_cancelled_loops(db, world):
    """Draft loops are only named; cancelled loops are left out; an unknown posting is NotFound."""
    world.loop("Dee Draft")
    gone = world.loop("Cal Cancelled")
    gone.status = LoopStatus.CANCELLED
    db.commit()
    view = get_posting_evidence(db, world.posting.id, NOW)
    assert view.loops == () and view.drafts == ("Dee Draft",)
    from planner.core.errors import NotFound
    with pytest.raises(NotFound):
        get_posting_evidence(db, 999999, NOW)


def _queries(db, world) -> int:
    statements = []

    def count(*_args):
        statements.append(1)

    bind = db.get_bind()
    event.listen(bind, "before_cursor_execute", count)
    try:
        db.expire_all()
        get_posting_evidence(db, world.posting.id, NOW)
    finally:
        event.remove(bind, "before_cursor_execute", count)
    return len(statements)


def test_query_count_is_bounded(db, world):
    """One loop or eight, with scorecards: the same small number of queries (no N+1)."""
    kim_loop(db, world)
    db.commit()
    small = _queries(db, world)
    p = world.people
    for number in range(7):
        loop = world.loop(f"Cand {number}")
        tech = book(db, world, loop, "tech", PAST - timedelta(days=number), [p["olivia"], p["sam"]], [p["tia"]])
        book(db, world, loop, "mentor", PAST, [p["cleo"]], status=InterviewStatus.CANCELLED)
        scored(db, world, tech, p["olivia"], {"compiler-design": 3, "mentoring": 2})
        scored(db, world, tech, p["tia"], {"compiler-design": 2})
    world.loop("Unversioned", version=False).status = LoopStatus.SCHEDULED
    db.commit()
    large = _queries(db, world)
    assert len(get_posting_evidence(db, world.posting.id, NOW).loops) == 9
    assert small <= 10 and large <= small + 2  # + the working plan's two queries for the unversioned loop


def test_pages_and_access(client, db, login, world):
    """Manager and coordinator read the page; an interviewer gets 403; POST is refused; unknown posting 404."""
    kim_loop(db, world, utcnow() - timedelta(days=1))
    db.commit()
    url = f"/manager/postings/{world.posting.id}/evidence"
    client = login("manager")
    page = client.get(url).get_data(as_text=True)
    assert "Kim Lee" in page and "Mentoring: planned in 2 rounds, 1 scorecard missing from Olivia Grant." in page
    assert "Training scorecards (1), not counted in the decision" in page
    assert url in client.get(f"/manager/postings/{world.posting.id}").get_data(as_text=True)
    assert client.post(url).status_code == 405
    assert client.get("/manager/postings/999999/evidence").status_code == 404
    client.post("/logout")
    login("coordinator")
    assert client.get(url).status_code == 200
    assert client.get("/manager/").status_code == 403  # the rest of the manager area stays the manager's
    client.post("/logout")
    login("interviewer")
    assert client.get(url).status_code == 403


def test_coordinator_posting_header_links_to_evidence(login, db):
    """Coordinators reach the evidence view from the posting's header."""
    from planner.models import Posting

    posting = Posting(title="Evidence link", text="Mentor engineers.")
    db.add(posting)
    db.flush()
    client = login("coordinator")
    html = client.get(f"/coordinator/postings/{posting.id}").get_data(as_text=True)
    assert f'href="/manager/postings/{posting.id}/evidence"' in html
    assert client.get(f"/manager/postings/{posting.id}/evidence").status_code == 200


def test_cancelled_round_leaving_a_must_have_short_counts_as_a_gap(db, world, login):
    """One of two required rounds cancelled: the evidence view counts it among the gaps, 'now 1 of 2 required'."""
    p = world.people
    mentoring = next(pc for pc in world.posting.competencies if pc.competency_id == world.competencies["mentoring"].id)
    mentoring.required_coverage = 2
    lee = world.loop("Lee Cancelled")
    book(db, world, lee, "tech", NOW + timedelta(days=1), [p["sam"]], status=InterviewStatus.CANCELLED)
    book(db, world, lee, "mentor", NOW + timedelta(days=1, hours=2), [p["cleo"]])
    db.commit()
    (view,) = get_posting_evidence(db, world.posting.id, NOW).loops
    gaps = [g.text for g in view.gaps if g.kind == "gap"]
    assert "Mentoring: the Compiler deep-dive interview was cancelled; now 1 of 2 required rounds." in gaps
    html = login("manager").get(f"/manager/postings/{world.posting.id}/evidence").get_data(as_text=True)
    assert f">{len(gaps)} gaps<" in html


def test_columns_follow_the_time_the_candidate_meets_the_rounds(db, world):
    """The plan lists tech then mentor; booked mentor first, the columns read mentor, then tech."""
    p = world.people
    loop = world.loop("Early Mentor")
    book(db, world, loop, "tech", PAST + timedelta(hours=3), [p["sam"]])
    book(db, world, loop, "mentor", PAST, [p["cleo"]])
    db.commit()
    (view,) = get_posting_evidence(db, world.posting.id, NOW).loops
    assert [r.key for r in view.rounds] == ["mentor", "tech"]
    rows = {r.slug: r for r in view.rows}
    assert [c.state != "none" for c in rows["compiler-design"].cells] == [False, True]
