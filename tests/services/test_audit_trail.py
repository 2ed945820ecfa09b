"""Every state-changing service writes an audit entry: who (actor), what (action), and the loop/person it concerns.

One parametrized table drives each service once on a small scheduled world; a completeness check makes sure
every public function of ``planner.services`` is either in that table or named as not changing data.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass
from datetime import time, timedelta

import pytest
from changeutil import scheduled_loop
from loopworld import NOW, SETTINGS, WINDOW, World
from sqlalchemy import select

import planner.services
from planner.core.library import CompetencyDef
from planner.models import (
    AuditEntry,
    BusyBlock,
    OutboxMessage,
    OutboxState,
    PostingCompetency,
    Priority,
    Scorecard,
    SelectionState,
)
from planner.services import (
    changes,
    competencies,
    demo,
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

    @property
    def person(self):
        return self.pool["cleo"]

    @property
    def mentor(self):
        return self.rounds["mentor"]


@pytest.fixture
def ctx(db):
    world = World(db)
    pool = world.basic_pool()
    pool["eve"] = world.person("Eve", "Europe/Berlin", {"mentoring": "qualified"}, team="platform",
                               hours=("09:00", "23:00"), caps=(3, 4))
    loop, rounds = scheduled_loop(db, world)
    actor = users.create_user(db, email="coord@hire.example", name="Casey Coordinator", password="password123",
                              roles=["coordinator"]).id
    return Ctx(db, world, actor, pool, loop, rounds)


def _interviewer_in(interview):
    return next(s.interviewer for s in interview.seats)


def _scorecard(c: Ctx, submit: bool):
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


def _busy(c: Ctx):
    return pool_service.add_busy_block(c.db, c.person.id, NOW + timedelta(days=1), NOW + timedelta(days=1, hours=1),
                                       "Dentist", actor_id=c.actor)


def _qualify(c: Ctx, level="shadow"):
    return pool_service.set_qualification(c.db, c.person.id, c.world.competencies["compiler-design"].id, level,
                                          actor_id=c.actor, now=NOW)


def _person_input(**changes_):
    values = {"name": "Gil Ross", "email": "gil@hire.example", "timezone": "Europe/Paris"} | changes_
    return pool_service.InterviewerInput(**values)


#: "module.function" -> (the action it writes, a run that returns the (loop_id, interviewer_id) expected).
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
    return _scorecard(c, True)


@case("scorecards.save_scorecard (draft)", "scorecard_saved")
def _save_draft(c):
    return _scorecard(c, False)


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
def _add_busy(c):
    _busy(c)
    return None, c.person.id


@case("pool.delete_busy_block", "busy.delete")
def _delete_busy(c):
    pool_service.delete_busy_block(c.db, c.person.id, _busy(c).id, actor_id=c.actor)
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


#: Services whose actor is the system (no login): demo loading and seeding write actor_id None.
SYSTEM = {"library.seed_library", "reminders.queue_reminders"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_service_writes_an_entry_naming_actor_loop_and_person(ctx, name):
    """The service's entry is there, by the acting login, with the loop and interviewer it concerns."""
    action, run = CASES[name]
    before = ctx.db.scalar(select(AuditEntry.id).order_by(AuditEntry.id.desc()).limit(1)) or 0
    loop_id, interviewer_id = run(ctx)
    entries = ctx.db.scalars(select(AuditEntry).where(AuditEntry.id > before, AuditEntry.action == action)).all()
    assert len(entries) == 1, f"{name} wrote {len(entries)} '{action}' entries"
    entry = entries[0]
    assert entry.actor_id == (None if name in SYSTEM else ctx.actor)
    assert entry.at is not None and entry.entity
    assert (entry.loop_id, entry.interviewer_id) == (loop_id, interviewer_id)


def test_demo_loading_is_audited_once(db):
    """Loading the demo writes one 'demo.load' entry (system); loading it again writes none."""
    demo.load_demo(db, now=NOW)
    first = db.scalars(select(AuditEntry).where(AuditEntry.action == "demo.load")).all()
    assert len(first) == 1 and first[0].actor_id is None and first[0].details["interviewers"] >= 12
    count = len(db.scalars(select(AuditEntry.id)).all())
    demo.load_demo(db, now=NOW)
    assert len(db.scalars(select(AuditEntry.id)).all()) == count


def test_draft_scorecard_entry_does_not_reveal_the_ratings(ctx):
    """A draft is private: its entry says how many ratings were saved, not which."""
    _scorecard(ctx, False)
    entry = ctx.db.scalar(select(AuditEntry).where(AuditEntry.action == "scorecard_saved"))
    assert entry.details["rated"] == 2 and "ratings" not in entry.details
    assert ctx.db.scalar(select(Scorecard.submitted_at)) is None


def test_busy_block_entry_survives_the_block(ctx):
    """Deleting a busy block leaves both entries, still filterable by the person."""
    block = _busy(ctx)
    pool_service.delete_busy_block(ctx.db, ctx.person.id, block.id, actor_id=ctx.actor)
    assert ctx.db.get(BusyBlock, block.id) is None
    rows = ctx.db.scalars(select(AuditEntry.action).where(AuditEntry.interviewer_id == ctx.person.id)
                          .order_by(AuditEntry.id)).all()
    assert rows == ["busy.add", "busy.delete"]


#: Public service functions that change nothing (reads, builders, helpers that do not commit), or whose
#: changes are recorded elsewhere: each with the reason.
NOT_AUDITED = {
    "audit.record": "writes the entries themselves",
    "outbox.claim": "delivery bookkeeping of the worker; state and attempts show on the outbox page",
    "outbox.deliver": "delivery bookkeeping of the worker; state and attempts show on the outbox page",
    "outbox.run_once": "claim + deliver",
    "outbox.render_email": "builds an email",
    "outbox.eml_bytes": "builds an email",
    "invite_export.export_loop": "writes files, not the database",
    "demo.load_demo": "audited as 'demo.load' (test_demo_loading_is_audited_once)",
    "library.load_library_if_empty": "calls seed_library, audited as 'library.seed'",
    "scheduling.confirm_many": "confirm's body; the override case drives it",
    "invites.announce_scheduled": "queues messages inside the caller's audited change",
    "invites.announce_changed": "queues messages inside the caller's audited change",
    "invites.announce_cancelled": "queues messages inside the caller's audited change",
    "invites.announce_replaced": "queues messages inside the caller's audited change",
    "postings.store_suggestions": "part of create/update/refresh_suggestions (no commit of its own)",
    "plans.add_round_competency": "part of add_round/update_round (no commit of its own)",
    "transaction.committed_or_conflict": "a context manager for the services' commit",
    "scheduling_problem.build_problem": "reads the scheduling problem (dict.update, no rows change)",
    "scheduling_problem.get_loops": "reads loops, optionally locked FOR UPDATE",
    "scheduling_problem.lock_loops_and_people": "takes row locks for the caller's audited change",
}


def _public_functions():
    for info in pkgutil.walk_packages(planner.services.__path__, "planner.services."):
        module = importlib.import_module(info.name)
        # Modules of a package (pool.people, pool.busy_time) are named by the package, as they are imported.
        short = info.name.removeprefix("planner.services.").split(".")[0]
        for fname, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ == info.name and not fname.startswith("_"):
                yield short, fname, fn


def _changes_data(fn) -> bool:
    """A function is taken to change data when its source commits or deletes/adds rows, or it is a known writer."""
    source = inspect.getsource(fn)
    return any(word in source for word in ("session.commit()", "session.add(", "session.delete(", "delete(",
                                           "update("))


def test_every_state_changing_service_is_covered():
    """Each public service function that writes is in the table above or named in NOT_AUDITED with a reason.

    A new service that commits fails this test until it records an entry and gets a row in CASES.
    """
    covered = {name.split(" ")[0] for name in CASES} | set(NOT_AUDITED)
    missing = sorted(f"{module}.{fname}" for module, fname, fn in _public_functions()
                     if _changes_data(fn) and f"{module}.{fname}" not in covered)
    assert not missing, f"service functions that change data without an audited test case: {missing}"
