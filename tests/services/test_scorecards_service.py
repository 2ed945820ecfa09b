"""Scorecard rules: who may write, when, what ratings are accepted, and that submitting is final."""

from __future__ import annotations

from datetime import timedelta

import pytest
from invitedata import make_interviewer
from loopworld import NOW, World, book
from sqlalchemy import func, select

from planner.core.errors import Conflict, NotFound, ValidationFailed
from planner.models import AuditEntry, InterviewStatus, Rating, Scorecard, Seat
from planner.queries.my_interviews import get_scorecard_sheet, list_my_interviews
from planner.services.scorecards import ScorecardInput, save_scorecard

START = NOW - timedelta(hours=3)


@pytest.fixture
def setup(db):
    world = World(db)
    people = {key: make_interviewer(db, name, f"{key}@hire.example", "UTC")
              for key, name in (("olivia", "Olivia Grant"), ("sam", "Sam Ortiz"), ("tia", "Tia Trainee"))}
    loop = world.loop()
    interview = book(db, world, loop, "tech", START, [people["olivia"], people["sam"]], [people["tia"]])
    db.commit()
    return world, people, interview


GOOD = ScorecardInput({"compiler-design": "4", "mentoring": "3"}, "Designed a clean SSA pass; mentors well.")


def _count(db, model) -> int:
    return db.scalar(select(func.count()).select_from(model))


def test_draft_then_submit(db, setup):
    """A draft keeps partial ratings; submitting needs every rating and notes, stamps the time and is audited."""
    _, people, interview = setup
    card = save_scorecard(db, people["olivia"].id, interview.id, ScorecardInput({"compiler-design": "2"}, ""),
                          submit=False, now=NOW)
    assert card.submitted_at is None and {r.score for r in card.ratings} == {2}
    card = save_scorecard(db, people["olivia"].id, interview.id, GOOD, submit=True, now=NOW)
    db.expire_all()
    stored = db.get(Scorecard, card.id)
    assert stored.submitted_at == NOW
    assert sorted(r.score for r in stored.ratings) == [3, 4]
    assert _count(db, Scorecard) == 1
    actions = db.scalars(select(AuditEntry.action).where(AuditEntry.entity == "scorecard",
                                                         AuditEntry.entity_id == card.id).order_by(AuditEntry.id)).all()
    assert actions == ["scorecard_saved", "scorecard_submitted"]


@pytest.mark.parametrize(("ratings", "message"), [
    ({"compiler-design": "5"}, "Ratings go from 1 (strong no) to 4 (strong yes); Compiler design got '5'"),
    ({"compiler-design": "0"}, "got '0'"),
    ({"mentoring": "abc"}, "Mentoring got 'abc'"),
    ({"compiler-design": "3", "pre-silicon-feedback": "3"}, "'pre-silicon-feedback' is not a competency this round"),
    ({"made-up": "2"}, "'made-up' is not a competency this round assesses"),
])
def test_bad_ratings_refused_and_nothing_saved(db, setup, ratings, message):
    """Scores outside 1-4, non-numbers and competencies the round does not assess raise one message; no row."""
    _, people, interview = setup
    save_scorecard(db, people["olivia"].id, interview.id, ScorecardInput({"compiler-design": "1"}, "first"),
                   submit=False, now=NOW)
    with pytest.raises(ValidationFailed, match=message.replace("(", r"\(").replace(")", r"\)")):
        save_scorecard(db, people["olivia"].id, interview.id, ScorecardInput(ratings, "changed"), submit=True, now=NOW)
    card = db.scalar(select(Scorecard))
    assert card.notes == "first" and [r.score for r in card.ratings] == [1]


def test_incomplete_submit_refused(db, setup):
    """Submitting with a competency unrated, or without notes, is refused and leaves no scorecard."""
    _, people, interview = setup
    with pytest.raises(ValidationFailed, match="Rate every competency before submitting: Mentoring not rated"):
        save_scorecard(db, people["olivia"].id, interview.id, ScorecardInput({"compiler-design": "3"}, "x"),
                       submit=True, now=NOW)
    with pytest.raises(ValidationFailed, match="Add notes"):
        save_scorecard(db, people["olivia"].id, interview.id, ScorecardInput(GOOD.ratings, "  "), submit=True, now=NOW)
    assert _count(db, Scorecard) == 0 and _count(db, Rating) == 0


def test_submitted_is_final(db, setup):
    """Once submitted, neither a draft save nor a second submit changes anything."""
    _, people, interview = setup
    save_scorecard(db, people["olivia"].id, interview.id, GOOD, submit=True, now=NOW)
    for submit in (False, True):
        with pytest.raises(Conflict, match="already submitted"):
            save_scorecard(db, people["olivia"].id, interview.id,
                           ScorecardInput({"compiler-design": "1", "mentoring": "1"}, "rewrite"), submit=submit,
                           now=NOW + timedelta(hours=1))
    card = db.scalar(select(Scorecard))
    assert card.notes == GOOD.notes and sorted(r.score for r in card.ratings) == [3, 4] and card.submitted_at == NOW


def test_only_own_active_seat_and_not_before_start(db, setup):
    """No seat or a removed seat is NotFound; before the start or when cancelled the scorecard is refused."""
    world, people, interview = setup
    outsider = make_interviewer(db, "Out Sider", "out@hire.example", "UTC")
    with pytest.raises(NotFound):
        save_scorecard(db, outsider.id, interview.id, GOOD, submit=False, now=NOW)
    with pytest.raises(NotFound):
        get_scorecard_sheet(db, outsider.id, interview.id, NOW)
    seat = db.scalar(select(Seat).where(Seat.interviewer_id == people["sam"].id))
    seat.status = seat.status.__class__("removed")
    db.commit()
    with pytest.raises(NotFound):
        save_scorecard(db, people["sam"].id, interview.id, GOOD, submit=False, now=NOW)
    later = book(db, world, world.loop("Lee Later"), "mentor", NOW + timedelta(minutes=5), [people["olivia"]])
    with pytest.raises(ValidationFailed, match="has not started yet"):
        save_scorecard(db, people["olivia"].id, later.id, ScorecardInput({}, "x"), submit=False, now=NOW)
    assert get_scorecard_sheet(db, people["olivia"].id, later.id, NOW).blocked.startswith("This interview has not")
    interview.status = InterviewStatus.CANCELLED
    db.commit()
    with pytest.raises(ValidationFailed, match="cancelled"):
        save_scorecard(db, people["olivia"].id, interview.id, GOOD, submit=False, now=NOW)
    assert _count(db, Scorecard) == 0


def test_panel_hidden_until_own_submitted(db, setup):
    """Others' scorecards are invisible (status only) until the viewer submits; then trainee ones are marked."""
    _, people, interview = setup
    save_scorecard(db, people["sam"].id, interview.id, GOOD, submit=True, now=NOW)
    save_scorecard(db, people["tia"].id, interview.id, ScorecardInput({"compiler-design": "1", "mentoring": "1"},
                                                                      "trainee view"), submit=True, now=NOW)
    sheet = get_scorecard_sheet(db, people["olivia"].id, interview.id, NOW)
    assert sheet.panel == () and sheet.mine is None
    assert ("Sam Ortiz", "assessor", True) in sheet.panel_status
    assert [c.slug for c in sheet.competencies] == ["compiler-design", "mentoring"]
    save_scorecard(db, people["olivia"].id, interview.id, ScorecardInput({"compiler-design": "3"}, "d"),
                   submit=False, now=NOW)
    assert get_scorecard_sheet(db, people["olivia"].id, interview.id, NOW).panel == ()
    save_scorecard(db, people["olivia"].id, interview.id, GOOD, submit=True, now=NOW)
    sheet = get_scorecard_sheet(db, people["olivia"].id, interview.id, NOW)
    assert {(c.name, c.role) for c in sheet.panel} == {("Sam Ortiz", "assessor"), ("Tia Trainee", "trainee")}
    assert next(c for c in sheet.panel if c.role == "trainee").ratings == {"compiler-design": 1, "mentoring": 1}


def test_home_states(db, setup):
    """The home list says write / edit / submitted for started interviews, nothing for future ones."""
    world, people, interview = setup
    future = book(db, world, world.loop("Fu Ture"), "mentor", NOW + timedelta(days=1), [people["olivia"]])
    db.commit()

    def states():
        upcoming, past = list_my_interviews(db, people["olivia"].id, NOW)
        return {i.id: i.scorecard for i in upcoming + past}

    assert states() == {interview.id: "write", future.id: ""}
    save_scorecard(db, people["olivia"].id, interview.id, ScorecardInput({}, "draft"), submit=False, now=NOW)
    assert states()[interview.id] == "edit"
    save_scorecard(db, people["olivia"].id, interview.id, GOOD, submit=True, now=NOW)
    assert states()[interview.id] == "submitted"
