"""Every state-changing service writes an audit entry: who (actor), what (action), and the loop/person it concerns.

The table in ``tests/auditcases.py`` drives each service once on a small scheduled world; a completeness check
makes sure every public function of ``planner.services`` is either in that table or named as not changing data.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from auditcases import CASES, Ctx, busy, make_ctx, scorecard
from loopworld import NOW
from sqlalchemy import select

import planner.services
from planner.models import AuditEntry, BusyBlock, Scorecard
from planner.services import demo
from planner.services import pool as pool_service


@pytest.fixture
def ctx(db) -> Ctx:
    return make_ctx(db)


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
    scorecard(ctx, False)
    entry = ctx.db.scalar(select(AuditEntry).where(AuditEntry.action == "scorecard_saved"))
    assert entry.details["rated"] == 2 and "ratings" not in entry.details
    assert ctx.db.scalar(select(Scorecard.submitted_at)) is None


def test_busy_block_entry_survives_the_block(ctx):
    """Deleting a busy block leaves both entries, still filterable by the person."""
    block = busy(ctx)
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
