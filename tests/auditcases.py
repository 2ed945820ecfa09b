"""The audit-trail test table: a small scheduled world and one run per state-changing service.

``CASES`` maps "module.function" to the action it must write and a run returning the (loop_id,
interviewer_id) the entry must name, and, when the actor is not the coordinator's login, the actor's id
(None: no login); ``tests/services/test_audit_trail.py`` drives it. The calendar side's cases are in
``tests/auditcases_calendar.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time, timedelta

from changeutil import scheduled_loop
from loopworld import NOW, SETTINGS, WINDOW, World
from sqlalchemy import select

from planner.core.library import CompetencyDef
from planner.models import OutboxMessage, OutboxState, PostingCompetency, Priority, SelectionState
from planner.services import (
    changes,
    competencies,
    feeds,
    library,
    loops,
    outbox,
    plans,
    postings,
    reminders,
    replacements,
    scheduling,
    scorecards,
    users,
)
from planner.services import pool as pool_service

ICS = (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:x@t\r\n"
       b"DTSTAMP:20300301T000000Z\r\nDTSTART:20300305T150000Z\r\nDTEND:20300305T160000Z\r\nSUMMARY:Gym\r\n"
       b"END:VEVENT\r\nEND:VCALENDAR\r\n")
NEXT_DAY = ((WINDOW[0] + timedelta(days=1), WINDOW[1] + timedelta(days=1)),)
POSTING_TEXT = "Basic qualifications: strong compiler design skills. You must mentor engineers."


@dataclass
class Ctx:
    """The world every case runs in: a coordinator login, a posting with a plan, a pool, a scheduled loop."""

    db: object
    world: World
    actor: int
    pool: dict
    loop: object
    rounds: dict
    #: New sessions on the same connection, for services that open their own (the IMAP poller).
    factory: object = None

    @property
    def person(self):
        return self.pool["cleo"]

    @property
    def mentor(self):
        return self.rounds["mentor"]


def make_ctx(db, factory=None) -> Ctx:
    """A world with a coordinator login, a scheduled loop and a pool with a spare mentor."""
    world = World(db)
    pool = world.basic_pool()
    pool["eve"] = world.person("Eve", "Europe/Berlin", {"mentoring": "qualified"}, team="platform",
                               hours=("09:00", "23:00"), caps=(3, 4))
    loop, rounds = scheduled_loop(db, world)
    actor = users.create_user(db, email="coord@hire.example", name="Casey Coordinator", password="password123",
                              roles=["coordinator"]).id
    return Ctx(db, world, actor, pool, loop, rounds, factory)


def _interviewer_in(interview):
    return next(s.interviewer for s in interview.seats)


def scorecard(c: Ctx, submit: bool):
    interview = c.rounds["tech"]
    person = _interviewer_in(interview)
    ratings = {"compiler-design": "3", "mentoring": "4"}
    scorecards.save_scorecard(c.db, person.id, interview.id, scorecards.ScorecardInput(ratings, "Solid."),
                              submit=submit, now=interview.end, actor_id=c.actor)
    return c.loop.id, person.id


def _new_round(c: Ctx, name: str = "Design review"):
    ids = {slug: comp.id for slug, comp in c.world.competencies.items()}
    return plans.add_round(c.db, c.world.posting.id, plans.RoundInput(
        name, "design", 45, competencies={ids["compiler-design"]: "primary"}), actor_id=c.actor)


def _posting(c: Ctx):
    return postings.create_posting(c.db, postings.PostingFields("Compiler Lead", POSTING_TEXT), actor_id=c.actor)


def _suggested(c: Ctx):
    """A new posting with one suggested competency (the test library has no phrases to extract with)."""
    posting = _posting(c)
    posting.competencies.append(PostingCompetency(competency_id=c.world.competencies["mentoring"].id,
                                                  state=SelectionState.SUGGESTED, priority=Priority.MUST_HAVE))
    c.db.commit()
    return posting


def _competency(c: Ctx):
    return competencies.create_competency(c.db, "graph-theory", competencies.CompetencyFields(
        "Graph theory", "technical", phrases="graph theory"), actor_id=c.actor)


def _window():
    day = (NOW + timedelta(days=3)).date()
    return [loops.WindowInput(day, time(9), time(17))]


def _loop_input():
    return loops.LoopInput("Zoe Park", "zoe@cand.example", "Europe/Berlin", _window())


def _draft(c: Ctx):
    return loops.create_loop(c.db, c.world.posting.id, _loop_input(), actor_id=c.actor, now=NOW)


def busy(c: Ctx):
    return pool_service.add_busy_block(c.db, c.person.id, NOW + timedelta(days=1), NOW + timedelta(days=1, hours=1),
                                       "Dentist", actor_id=c.actor)


def _qualify(c: Ctx, level="shadow"):
    return pool_service.set_qualification(c.db, c.person.id, c.world.competencies["compiler-design"].id, level,
                                          actor_id=c.actor, now=NOW)


def _person_input(**changes_):
    values = {"name": "Gil Ross", "email": "gil@hire.example", "timezone": "Europe/Paris"} | changes_
    return pool_service.InterviewerInput(**values)


#: "module.function" -> (the action it writes, a run that returns the (loop_id, interviewer_id[, actor_id])
#: expected).
CASES: dict = {}
NOBODY = (None, None)


def case(name: str, action: str):
    def register(run):
        CASES[name] = (action, run)
        return run
    return register


@case("postings.create_posting", "posting.create")
def _create_posting(c):
    _posting(c)
    return NOBODY


@case("postings.update_posting", "posting.update")
def _update_posting(c):
    fields = postings.PostingFields("Compiler Engineer II", POSTING_TEXT)
    postings.update_posting(c.db, c.world.posting.id, fields, actor_id=c.actor)
    return NOBODY


@case("postings.refresh_suggestions", "posting.extract")
def _refresh(c):
    postings.refresh_suggestions(c.db, c.world.posting.id, actor_id=c.actor)
    return NOBODY


@case("postings.decide_competency", "posting.competency.reject")
def _decide(c):
    posting = _suggested(c)
    postings.decide_competency(c.db, posting.id, posting.competencies[0].id, decision="reject",
                               priority="must-have", required_coverage=2, actor_id=c.actor)
    return NOBODY


@case("postings.accept_all_suggestions", "posting.competency.accept_all")
def _accept_all(c):
    postings.accept_all_suggestions(c.db, _suggested(c).id, actor_id=c.actor)
    return NOBODY


@case("postings.add_competency", "posting.competency.add")
def _add_competency(c):
    postings.add_competency(c.db, _posting(c).id, _competency(c).id, priority="nice-to-have", required_coverage=1,
                            actor_id=c.actor)
    return NOBODY


@case("competencies.create_competency", "competency.create")
def _create_competency(c):
    _competency(c)
    return NOBODY


@case("competencies.update_competency", "competency.update")
def _update_competency(c):
    fields = competencies.CompetencyFields("Graph algorithms", "technical", phrases="graphs")
    competencies.update_competency(c.db, _competency(c).id, fields, actor_id=c.actor)
    return NOBODY


@case("competencies.retire_competency", "competency.retire")
def _retire(c):
    competencies.retire_competency(c.db, _competency(c).id, now=NOW, actor_id=c.actor)
    return NOBODY


@case("competencies.restore_competency", "competency.restore")
def _restore(c):
    retired = competencies.retire_competency(c.db, _competency(c).id, now=NOW, actor_id=c.actor)
    competencies.restore_competency(c.db, retired.id, actor_id=c.actor)
    return NOBODY


@case("library.seed_library", "library.seed")
def _seed(c):
    library.seed_library(c.db, [CompetencyDef(slug="kernels", name="Kernels", category="technical", description="",
                                              rubric_strong="", rubric_weak="", phrases=("kernels",))])
    c.db.commit()
    return NOBODY


@case("plans.add_round", "round_added")
def _add_round(c):
    _new_round(c)
    return NOBODY


@case("plans.update_round", "round_updated")
def _update_round(c):
    data = plans.RoundInput("Design deep-dive", "design", 60,
                            competencies={c.world.competencies["compiler-design"].id: "primary"})
    plans.update_round(c.db, c.world.posting.id, _new_round(c).id, data, actor_id=c.actor)
    return NOBODY


@case("plans.remove_round", "round_removed")
def _remove_round(c):
    plans.remove_round(c.db, c.world.posting.id, _new_round(c).id, actor_id=c.actor)
    return NOBODY


@case("plans.move_round", "round_moved")
def _move_round(c):
    _new_round(c)
    plans.move_round(c.db, c.world.posting.id, _new_round(c, "Wrap-up").id, "up", actor_id=c.actor)
    return NOBODY


@case("plans.publish_plan", "plan_published")
def _publish(c):
    _new_round(c)
    plans.publish_plan(c.db, c.world.posting.id, actor_id=c.actor, note="first")
    return NOBODY


@case("plans.apply_suggestion", "plan_suggested")
def _suggest(c):
    plans.apply_suggestion(c.db, c.world.posting.id, 240, replace=True, actor_id=c.actor)
    return NOBODY


@case("loops.create_loop", "loop_created")
def _create_loop(c):
    return _draft(c).id, None


@case("loops.update_windows", "loop_windows_changed")
def _update_windows(c):
    draft = _draft(c)
    loops.update_windows(c.db, draft.id, _window(), actor_id=c.actor, now=NOW, max_gap_minutes=30)
    return draft.id, None


@case("loops.cancel_loop", "loop_cancelled")
def _cancel_loop(c):
    loops.cancel_loop(c.db, c.loop.id, "candidate withdrew", actor_id=c.actor, now=NOW, settings=SETTINGS)
    return c.loop.id, None


@case("scheduling.confirm", "loop_scheduled")
def _confirm(c):
    draft = c.world.loop("Ada Moss", windows=NEXT_DAY)
    c.db.commit()
    proposal = scheduling.propose(c.db, draft.id, now=NOW)
    scheduling.confirm(c.db, draft.id, proposal.interviews, actor_id=c.actor, now=NOW, settings=SETTINGS)
    return draft.id, None


@case("coverage.require_coverage_or_override", "coverage_override")
def _override(c):
    # The posting gains a must-have no round covers: confirming needs a written reason, audited.
    c.world.posting.competencies.append(PostingCompetency(
        competency_id=c.world.competencies["pre-silicon-feedback"].id, state=SelectionState.ACCEPTED,
        priority=Priority.MUST_HAVE, required_coverage=1))
    draft = c.world.loop("Ada Moss", windows=NEXT_DAY)
    c.db.commit()
    proposal = scheduling.propose(c.db, draft.id, now=NOW)
    scheduling.confirm(c.db, draft.id, proposal.interviews, actor_id=c.actor, now=NOW, settings=SETTINGS,
                       override_reason="pre-silicon is covered at the onsite")
    return draft.id, None


@case("changes.reschedule_interview", "interview_rescheduled")
def _reschedule(c):
    start = changes.reschedule_options(c.db, c.mentor.id, now=NOW)[-1]
    changes.reschedule_interview(c.db, c.mentor.id, start, reason="moved", actor_id=c.actor, now=NOW,
                                 settings=SETTINGS)
    return c.loop.id, None


@case("changes.cancel_interview", "interview_cancelled")
def _cancel_interview(c):
    changes.cancel_interview(c.db, c.mentor.id, "no room", actor_id=c.actor, now=NOW, settings=SETTINGS)
    return c.loop.id, None


@case("changes.update_place", "interview_place_changed")
def _place(c):
    changes.update_place(c.db, c.mentor.id, location="Room 4", video_url=None, actor_id=c.actor, now=NOW,
                         settings=SETTINGS)
    return c.loop.id, None


@case("replacements.replace_interviewer", "interviewer_replaced")
def _replace(c):
    leaving = _interviewer_in(c.mentor)
    joining = c.pool["eve"] if leaving.name != "Eve" else c.pool["cleo"]
    replacements.replace_interviewer(c.db, c.mentor.id, leaving.id, joining_id=joining.id, reason="declined",
                                     actor_id=c.actor, now=NOW, settings=SETTINGS)
    return c.loop.id, leaving.id


@case("scorecards.save_scorecard", "scorecard_submitted")
def _submit(c):
    return scorecard(c, True)


@case("scorecards.save_scorecard (draft)", "scorecard_saved")
def _save_draft(c):
    return scorecard(c, False)


@case("feeds.rotate_feed_token", "feed.rotate")
def _rotate(c):
    feeds.rotate_feed_token(c.db, c.person.id, actor_id=c.actor)
    return None, c.person.id


@case("outbox.resend", "outbox.resend")
def _resend(c):
    message = c.db.scalar(select(OutboxMessage).order_by(OutboxMessage.id).limit(1))
    message.state = OutboxState.FAILED
    c.db.commit()
    outbox.resend(c.db, message.id, actor_id=c.actor, now=NOW)
    return c.loop.id, None


@case("pool.create_interviewer", "interviewer.create")
def _create_person(c):
    person = pool_service.create_interviewer(c.db, _person_input(), actor_id=c.actor)
    return None, person.id


@case("pool.update_interviewer", "interviewer.update")
def _update_person(c):
    data = _person_input(name="Cleo B", email=c.person.email)
    pool_service.update_interviewer(c.db, c.person.id, data, actor_id=c.actor)
    return None, c.person.id


@case("pool.set_active", "interviewer.deactivate")
def _deactivate(c):
    pool_service.set_active(c.db, c.person.id, False, actor_id=c.actor)
    return None, c.person.id


@case("pool.set_qualification", "qualification.add")
def _qualification(c):
    _qualify(c)
    return None, c.person.id


@case("pool.remove_qualification", "qualification.remove")
def _unqualify(c):
    pool_service.remove_qualification(c.db, c.person.id, _qualify(c).competency_id, actor_id=c.actor)
    return None, c.person.id


@case("pool.promote_qualification", "qualification.promote")
def _promote(c):
    pool_service.promote_qualification(c.db, c.person.id, _qualify(c).competency_id, actor_id=c.actor, now=NOW,
                                       reason="ran the course elsewhere")
    return None, c.person.id


@case("pool.add_busy_block", "busy.add")
def _addbusy(c):
    busy(c)
    return None, c.person.id


@case("pool.delete_busy_block", "busy.delete")
def _deletebusy(c):
    pool_service.delete_busy_block(c.db, c.person.id, busy(c).id, actor_id=c.actor)
    return None, c.person.id


@case("pool.import_busy_ics", "busy.import")
def _import(c):
    pool_service.import_busy_ics(c.db, c.person.id, ICS, "Work", now=NOW, actor_id=c.actor)
    return None, c.person.id


@case("pool.remove_import", "busy.remove_import")
def _remove_import(c):
    pool_service.import_busy_ics(c.db, c.person.id, ICS, "Work", now=NOW, actor_id=c.actor)
    pool_service.remove_import(c.db, c.person.id, "import:Work", actor_id=c.actor)
    return None, c.person.id


@case("reminders.queue_reminders", "scorecard_reminder_queued")
def _remind(c):
    first = min(c.rounds.values(), key=lambda interview: interview.end)
    assert all(i.end > first.end for i in c.rounds.values() if i is not first)
    reminders.queue_reminders(c.db, now=first.end + timedelta(hours=24, seconds=1), settings=SETTINGS)
    return None, _interviewer_in(first).id


@case("users.create_user", "user.create")
def _create_user(c):
    users.create_user(c.db, email="new@hire.example", name="New", password="password123", roles=["manager"],
                      actor_id=c.actor)
    return NOBODY


@case("users.update_preferences", "user.update")
def _preferences(c):
    users.update_preferences(c.db, c.actor, name="Casey C", timezone="Europe/Berlin")
    return NOBODY


@case("users.change_password", "user.password")
def _password(c):
    users.change_password(c.db, c.actor, current="password123", new="password456")
    return NOBODY
