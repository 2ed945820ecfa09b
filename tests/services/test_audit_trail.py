"""Every state-changing service writes an audit entry: who (actor), what (action), and the loop/person it concerns.

The table in ``tests/auditcases.py`` (with ``tests/auditcases_calendar.py`` and
``tests/auditcases_sources.py``) drives each service once on a small scheduled world; a completeness check
makes sure every public function of ``planner.services`` that writes, itself or through the functions it
calls, is either in that table or named as not audited, with the reason.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import sys
import textwrap
from zoneinfo import ZoneInfo

import auditcases_calendar  # noqa: F401  (adds the calendar side's cases to CASES)
import auditcases_sources  # noqa: F401  (adds CalDAV, own hours, rebooking and withdrawal cases)
import pytest
from auditcases import CASES, Ctx, busy, make_ctx, scorecard
from loopworld import NOW
from sqlalchemy import select

import planner.services
from planner.core.audit.wording import CANDIDATE, SYSTEM, VIA_CALENDAR
from planner.models import AuditEntry, BusyBlock, Scorecard, User
from planner.queries.audit import rows_for
from planner.services import demo
from planner.services import pool as pool_service


@pytest.fixture
def ctx(db, session_factory) -> Ctx:
    return make_ctx(db, session_factory)


#: Cases no login acts in, and what the audit page's "who" column then says.
NO_LOGIN = {
    "library.seed_library": SYSTEM,
    "reminders.queue_reminders": SYSTEM,
    "replies.process_message": VIA_CALENDAR,
    "replies.process_message (counter)": VIA_CALENDAR,
    "mailbox.poll_once": VIA_CALENDAR,
    "candidate_booking.book": CANDIDATE,
    "candidate_booking.reschedule": CANDIDATE,
    "candidate_booking.cancel": CANDIDATE,
    "candidate_booking.set_timezone": CANDIDATE,
    "candidate_booking.submit_availability": CANDIDATE,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_service_writes_an_entry_naming_actor_loop_and_person(ctx, name):
    """The service's one entry is there, by the acting login (or nobody, said as the page's "who" column
    expects), with the loop and interviewer it concerns."""
    action, run = CASES[name]
    before = ctx.db.scalar(select(AuditEntry.id).order_by(AuditEntry.id.desc()).limit(1)) or 0
    loop_id, interviewer_id, *actor = run(ctx)
    actor_id = actor[0] if actor else None if name in NO_LOGIN else ctx.actor
    entries = ctx.db.scalars(select(AuditEntry).where(AuditEntry.id > before, AuditEntry.action == action)).all()
    assert len(entries) == 1, f"{name} wrote {len(entries)} '{action}' entries"
    entry = entries[0]
    assert entry.actor_id == actor_id
    assert entry.at is not None and entry.entity
    assert (entry.loop_id, entry.interviewer_id) == (loop_id, interviewer_id)
    shown = rows_for(ctx.db, [entry], ZoneInfo("UTC"))[0]
    assert shown.who == (NO_LOGIN[name] if actor_id is None else ctx.db.get(User, actor_id).name)
    assert shown.kind != "other" and not shown.what.lower().startswith(action.replace("_", " ").replace(".", " "))


def test_a_candidates_booking_is_one_entry_by_the_candidate(ctx):
    """Booking through the link writes the candidate's entry only: no second "loop_scheduled" by the system."""
    before = ctx.db.scalar(select(AuditEntry.id).order_by(AuditEntry.id.desc()).limit(1))
    CASES["candidate_booking.book"][1](ctx)
    new = ctx.db.scalars(select(AuditEntry).where(AuditEntry.id > before,
                                                  AuditEntry.action != "candidate_link_created")).all()
    assert [(e.action, e.actor_id, e.details["by"]) for e in new] == [("candidate_booked", None, "candidate")]


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
    "demo_past.load_past_loop": "part of load_demo, audited as 'demo.load'",
    "rebook.rebook_options": "reads the times a cancelled round can be booked again (load_state without its lock)",
    "library.load_library_if_empty": "calls seed_library, audited as 'library.seed'",
    "scheduling.confirm_many": "confirm's body; the override case drives it",
    "invites.announce_scheduled": "queues messages inside the caller's audited change",
    "invites.announce_changed": "queues messages inside the caller's audited change",
    "invites.announce_cancelled": "queues messages inside the caller's audited change",
    "invites.announce_replaced": "queues messages inside the caller's audited change",
    "invites.announce_moved": "queues messages inside the caller's audited change",
    "scheduling.confirm_in_transaction": "confirm without its commit; the candidate's booking drives it "
                                         "('candidate_booked')",
    "loop_state.load_state": "reads a loop; with lock=True it takes row locks for the caller's audited change",
    "changes.reschedule_options": "reads the free starts (load_state without its lock)",
    "replacements.replacement_options": "reads who can step in (load_state without its lock)",
    "postings.store_suggestions": "part of create/update/refresh_suggestions (no commit of its own)",
    "plans.add_round_competency": "part of add_round/update_round (no commit of its own)",
    "transaction.committed_or_conflict": "a context manager for the services' commit",
    "scheduling_problem.build_problem": "reads the scheduling problem (dict.update, no rows change)",
    "scheduling_problem.get_loops": "reads loops, optionally locked FOR UPDATE",
    "scheduling_problem.lock_loops_and_people": "takes row locks for the caller's audited change",
}


#: Source text that writes: the session's own writes, and SQL ``update()``/``delete()``/``insert()`` statements
#: (not ``dict.update(...)``: a dot before the name).
WRITES = re.compile(r"\bsession\.(?:commit|add|add_all|delete|merge|flush)\(|\.commit\(\)"
                    r"|(?<![\w.])(?:update|delete|insert)\(")


def _service_functions() -> dict[tuple[str, str], object]:
    """Every function defined in planner.services, private ones too (the helpers a public one writes through)."""
    found = {}
    for info in pkgutil.walk_packages(planner.services.__path__, "planner.services."):
        module = importlib.import_module(info.name)
        for fname, fn in vars(module).items():
            if inspect.isfunction(fn) and fn.__module__ == info.name:
                found[(info.name, fname)] = inspect.unwrap(fn)
    return found


def _called(fn, functions) -> set[tuple[str, str]]:
    """The service functions ``fn`` names: ``name(...)``, ``module.name(...)``, or a context manager."""
    module = sys.modules[fn.__module__]
    names = set()
    for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(fn)))):
        target = None
        if isinstance(node, ast.Name):
            target = vars(module).get(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = vars(module).get(node.value.id)
            target = getattr(owner, node.attr, None) if inspect.ismodule(owner) else None
        if inspect.isfunction(target):
            target = inspect.unwrap(target)
            key = (target.__module__, target.__name__)
            if key in functions:
                names.add(key)
    return names


def writing_functions() -> set[str]:
    """"module.function" of each public service function that writes, in its own text or through any service
    function it calls (a helper, ``committed_or_conflict``, another use case), however deep.

    Modules of a package (pool.people, pool.busy_time) are named by the package, as they are imported.
    """
    functions = _service_functions()
    calls = {key: _called(fn, functions) for key, fn in functions.items()}
    writes = {key for key, fn in functions.items() if WRITES.search(inspect.getsource(fn))}
    grown = True
    while grown:
        more = {key for key, called in calls.items() if key not in writes and called & writes}
        writes |= more
        grown = bool(more)
    return {f"{module.removeprefix('planner.services.').split('.')[0]}.{fname}" for module, fname in writes
            if not fname.startswith("_")}


def test_every_state_changing_service_is_covered():
    """Each public service function that writes is in the table above or named in NOT_AUDITED with a reason.

    A new service that commits -- itself, through a helper or a context manager -- fails this test until it
    records an entry and gets a row in CASES.
    """
    covered = {name.split(" ")[0] for name in CASES} | set(NOT_AUDITED)
    missing = sorted(writing_functions() - covered)
    assert not missing, f"service functions that change data without an audited test case: {missing}"


def test_the_scan_sees_writes_made_through_helpers():
    """Functions that commit only through a helper or ``committed_or_conflict`` are found, reads are not."""
    writers = writing_functions()
    assert {"candidate_booking.book", "candidate_booking.reschedule", "candidate_booking.cancel", "mailbox.poll_once",
            "answers.move_to_counter", "scheduling.confirm"} <= writers
    assert not {"candidate_offers.get_offers", "candidate_links.live_link", "mailbox.connect"} & writers


def test_every_named_function_exists():
    """No row of CASES or NOT_AUDITED names a function that is gone (a stale row would hide nothing, but lie)."""
    public = {f"{m.removeprefix('planner.services.').split('.')[0]}.{f}" for m, f in _service_functions()
              if not f.startswith("_")}
    stale = sorted({name.split(" ")[0] for name in CASES} | set(NOT_AUDITED))
    assert [name for name in stale if name not in public] == []
