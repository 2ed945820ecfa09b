"""Scheduling use cases: propose a loop's schedule, swap or move within it, confirm it, batch a posting.

A proposal is plain data (DESIGN 5.2 result entries: round key, UTC start/end, ``"p<id>"`` people);
the web layer carries it between requests. Proposing, swapping and moving read only. Confirming
re-checks every rule inside its transaction, after locking the loops and then the interviewers
involved (``SELECT ... FOR UPDATE`` in id order on PostgreSQL; on SQLite the first write takes the
database's single write lock), so two coordinators confirming clashing schedules at once can never
double-book anybody: the second sees the first one's seats and gets a Conflict. The pieces an edit is
made of (a round changed, the entry the validator checks, a substitute's reasons) are in ``proposal_edits``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.core.coverage import uncovered_must_haves
from planner.core.errors import Conflict, ValidationFailed
from planner.core.scheduling import solution_to_dict, solve
from planner.models import Competency, Interview, Loop, LoopStatus, Seat, SeatRole
from planner.services import coverage as coverage_service
from planner.services.audit import record
from planner.services.invites import MailSettings, announce_scheduled, new_interview_uid
from planner.services.proposal_edits import (
    TRAINEE_LEVELS,
    Substitute,
    proposal_entry,
    proposal_round,
    why_it_fits,
    with_round_changed,
    with_round_moved,
)
from planner.services.scheduling_problem import (
    BuiltProblem,
    build_problem,
    get_loops,
    load_near,
    lock_loops_and_people,
    loop_key,
    parse_z,
    person_id,
    qualification_levels,
    round_slugs,
)
from planner.services.transaction import SOMEONE_ELSE, committed_or_conflict

#: Wall-clock cap for one solve from a page (the result is deterministic well before it).
TIME_LIMIT = 20.0


@dataclass
class Proposal:
    """The proposed schedule of one loop, or why there is none."""

    loop_id: int
    status: str
    interviews: list[dict] = field(default_factory=list)
    reason: str = ""
    fixes: list[str] = field(default_factory=list)
    #: Must-have competencies the plan leaves uncovered: confirming needs a written override reason.
    uncovered: list[str] = field(default_factory=list)
    #: Their names, in the same order, for the sentences a coordinator reads.
    uncovered_names: list[str] = field(default_factory=list)

    @property
    def scheduled(self) -> bool:
        return self.status == "scheduled"


def require_draft(loop: Loop) -> None:
    """ValidationFailed unless the loop is still a draft (only drafts are scheduled)."""
    if loop.status != LoopStatus.DRAFT:
        raise ValidationFailed(f"The loop of {loop.candidate.name} is {loop.status.value}; only draft loops "
                               "are scheduled.")


def _uncovered(session: Session, loop: Loop, version_id: int) -> tuple[list[str], list[str]]:
    """Slugs and names of the must-haves the loop's plan version leaves uncovered."""
    coverage = coverage_service.posting_coverage(session, loop.posting_id, version_id=version_id)
    slugs = uncovered_must_haves(coverage)
    return slugs, [coverage.competency(slug).name for slug in slugs]


def _proposals(session: Session, loops: list[Loop], built: BuiltProblem, seed: int) -> list[Proposal]:
    result = solution_to_dict(solve(built.problem, seed=seed, time_limit=TIME_LIMIT))
    by_key = {entry["id"]: entry for entry in result["loops"]}
    proposals = []
    for loop in loops:
        entry = by_key[loop_key(loop.id)]
        uncovered, names = _uncovered(session, loop, built.rounds[loop.id].version.id)
        if entry["status"] == "scheduled":
            proposals.append(Proposal(loop.id, "scheduled", entry["interviews"], uncovered=uncovered,
                                      uncovered_names=names))
            continue
        reason = entry.get("reason") or "no schedule fits the candidate's windows"
        if not built.doc["loops"][loops.index(loop)]["windows"]:
            reason = "all of the candidate's windows are in the past"
        fixes = [built.humanise(f) for f in entry.get("fixes", [])]
        proposals.append(Proposal(loop.id, "unscheduled", reason=built.humanise(reason), fixes=fixes,
                                  uncovered=uncovered, uncovered_names=names))
    return proposals


def propose(session: Session, loop_id: int, *, now: datetime, seed: int = 0) -> Proposal:
    """A full schedule for a draft loop (people and times together), or the reason there is none.

    :raise NotFound: when the loop does not exist.
    :raise ValidationFailed: when the loop is not a draft or its posting has no published plan.
    """
    loops = get_loops(session, [loop_id])
    require_draft(loops[0])
    built = build_problem(session, loops, now=now)
    return _proposals(session, loops, built, seed)[0]


def propose_batch(session: Session, posting_id: int, *, now: datetime, seed: int = 0) -> list[Proposal]:
    """Schedule every draft loop of a posting together (a hiring event): one problem, fairest load.

    :raise NotFound: when the posting does not exist.
    :raise ValidationFailed: when it has no draft loops or no published plan.
    """
    coverage_service.get_posting(session, posting_id)
    # A loop without windows waits for its candidate to pick a time (or for windows).
    ids = list(session.scalars(select(Loop.id).where(Loop.posting_id == posting_id, Loop.windows.any(),
                                                      Loop.status == LoopStatus.DRAFT).order_by(Loop.id)))
    if not ids:
        raise ValidationFailed("The posting has no draft loops with availability windows to schedule; add a "
                               "loop, or windows to a draft.")
    loops = get_loops(session, ids)
    built = build_problem(session, loops, now=now)
    return _proposals(session, loops, built, seed)


def resume(session: Session, loop_id: int, interviews: Sequence[Mapping], *, now: datetime) -> Proposal:
    """A proposal the coordinator is editing, as carried between pages (no solving; see :func:`check`)."""
    loops = get_loops(session, [loop_id])
    require_draft(loops[0])
    built = build_problem(session, loops, now=now)
    uncovered, names = _uncovered(session, loops[0], built.rounds[loop_id].version.id)
    return Proposal(loop_id, "scheduled", [dict(i) for i in interviews], uncovered=uncovered,
                    uncovered_names=names)


def check(session: Session, loop_id: int, interviews: Sequence[Mapping], *, now: datetime) -> list[str]:
    """Every rule the proposal breaks against the database as it is now, in plain words (empty: fits)."""
    built = build_problem(session, get_loops(session, [loop_id]), now=now)
    return built.check([proposal_entry(loop_id, interviews)])


# -- editing a proposal ---------------------------------------------------------------------------


def substitutes(session: Session, loop_id: int, interviews: Sequence[Mapping], round_key: str, leaving: int,
                *, now: datetime) -> list[Substitute]:
    """Who can replace ``leaving`` in a round of the proposal, keeping coverage, caps and seat rules.

    Every suggestion is checked with the scheduler's validator; ranked by that ISO week's load, then
    by that local day's, then by name.

    :raise ValidationFailed: when the round or the person is not in the proposal.
    """
    loops = get_loops(session, [loop_id])
    built = build_problem(session, loops, now=now)
    item = proposal_round(interviews, round_key)
    leaving_key = f"p{leaving}"
    role = "interviewers" if leaving_key in item.get("interviewers", []) else "trainees"
    if leaving_key not in item.get(role, []):
        raise ValidationFailed("That person does not sit in this round; schedule the loop again.")
    assessors = {p for i in interviews for p in i.get("interviewers", [])}
    training = {p: i["round"] for i in interviews for p in i.get("trainees", [])}
    rnd = built.rounds[loop_id].rounds[round_key]
    slugs = round_slugs(rnd)
    start = parse_z(item["start"])
    options = []
    for person in built.problem.interviewers:
        if person.id in assessors or person.id == leaving_key:
            continue
        # A trainee elsewhere in the loop may step up: their optional trainee seat is given up.
        freed = training.get(person.id)
        base = [dict(i, trainees=[t for t in i.get("trainees", []) if t != person.id]) for i in interviews]
        panel = [person.id if p == leaving_key else p for p in proposal_round(base, round_key)[role]]
        candidate = with_round_changed(base, round_key, **{role: panel})
        if built.check([proposal_entry(loop_id, candidate)]):
            continue
        options.append((person, candidate, built.names.get(freed) if freed and freed != round_key else None))
    if not options:
        return []
    ranked = []
    for person, candidate, freed in options:
        week, day = load_near(person, start)
        ranked.append((freed is not None, week, day, person.name, person, candidate, freed))
    ranked.sort(key=lambda row: row[:4])
    result = []
    for _freed, week, day, _name, person, candidate, freed in ranked:
        why = why_it_fits(person, slugs, role, week, day, start, loops[0].hiring_team, built.names)
        if freed:
            why += f"; gives up their trainee seat in '{freed}'"
        result.append(Substitute(person_id(person.id), person.name, why, candidate))
    return result


def swap(session: Session, loop_id: int, interviews: Sequence[Mapping], round_key: str, leaving: int,
         joining: int, *, now: datetime) -> list[dict]:
    """The proposal with ``joining`` in ``leaving``'s seat of a round, when every rule still holds.

    :raise ValidationFailed: when the swap would break a rule (the sentence says which).
    """
    for option in substitutes(session, loop_id, interviews, round_key, leaving, now=now):
        if option.interviewer_id == joining:
            return option.interviews
    raise ValidationFailed("That person cannot take the seat: they would break a rule (time, caps, skills or "
                           "seat rules). Pick one of the suggestions.")


def move_options(session: Session, loop_id: int, interviews: Sequence[Mapping], round_key: str, *,
                 now: datetime) -> list[datetime]:
    """Every start (UTC) the round can move to with the same panel while every rule holds."""
    loops = get_loops(session, [loop_id])
    built = build_problem(session, loops, now=now)
    item = proposal_round(interviews, round_key)
    minutes = built.rounds[loop_id].rounds[round_key]["minutes"]
    starts = []
    step = built.problem.slot_minutes
    for window in built.problem.loop(loop_key(loop_id)).windows:
        first = -(-window.start // step) * step
        for minute in range(first, window.end - minutes + 1, step):
            start = datetime.fromtimestamp(minute * 60, UTC)
            moved = with_round_moved(interviews, round_key, start, minutes)
            if start != parse_z(item["start"]) and not built.check([proposal_entry(loop_id, moved)]):
                starts.append(start)
    return starts


def move(session: Session, loop_id: int, interviews: Sequence[Mapping], round_key: str, start: datetime, *,
         now: datetime) -> list[dict]:
    """The proposal with a round moved to ``start`` (same panel).

    :raise ValidationFailed: naming the first rule the move breaks.
    """
    loops = get_loops(session, [loop_id])
    built = build_problem(session, loops, now=now)
    proposal_round(interviews, round_key)
    minutes = built.rounds[loop_id].rounds[round_key]["minutes"]
    moved = with_round_moved(interviews, round_key, parse_z(start.isoformat()), minutes)
    errors = built.check([proposal_entry(loop_id, moved)])
    if errors:
        raise ValidationFailed(f"The round cannot move there: {errors[0]}.")
    return moved


# -- confirming ----------------------------------------------------------------------------------


def confirm(session: Session, loop_id: int, interviews: Sequence[Mapping], *, actor_id: int | None,
            now: datetime, settings: MailSettings, override_reason: str | None = None) -> list[Interview]:
    """Create the loop's interviews, seats and invites from a proposal, after re-checking every rule; commit.

    :raise UncoveredMustHave: when the plan leaves a must-have uncovered and no reason is written.
    :raise Conflict: when the proposal no longer fits (someone else booked a person meanwhile, the loop
        was scheduled, windows changed): nothing is written, propose again.
    """
    return confirm_many(session, {loop_id: interviews}, actor_id=actor_id, now=now, settings=settings,
                        override_reason=override_reason)[loop_id]


def confirm_in_transaction(session: Session, proposals: Mapping[int, Sequence[Mapping]], *,
                           actor_id: int | None, now: datetime, settings: MailSettings,
                           override_reason: str | None = None, audited: bool = True) -> dict[int, list[Interview]]:
    """What :func:`confirm_many` does -- lock, re-check, write, announce, audit -- without committing, for a
    use case that writes more in the same transaction (a candidate booking through their link).

    :param audited: False when the caller writes its own entry for the scheduling (a candidate's booking
        is one ``candidate_booked`` entry, not a second ``loop_scheduled`` one by nobody).
    :raise: as :func:`confirm`.
    """
    return _confirm(session, proposals, actor_id, now, settings, override_reason, audited=audited)


def confirm_many(session: Session, proposals: Mapping[int, Sequence[Mapping]], *, actor_id: int | None,
                 now: datetime, settings: MailSettings, override_reason: str | None = None,
                 ) -> dict[int, list[Interview]]:
    """Confirm several loops' proposals in one transaction (the batch page); all or nothing.

    :raise: as :func:`confirm`.
    """
    if not proposals:
        raise ValidationFailed("There is nothing to confirm: no loop has a proposed schedule.")
    with committed_or_conflict(session, SOMEONE_ELSE + "here is a fresh proposal."):
        created = _confirm(session, proposals, actor_id, now, settings, override_reason)
    return created


def _confirm(session, proposals, actor_id, now, settings, override_reason, *,
             audited: bool = True) -> dict[int, list[Interview]]:
    people = sorted({person_id(p) for items in proposals.values() for i in items
                     for p in [*i.get("interviewers", []), *i.get("trainees", [])]})
    loops = lock_loops_and_people(session, sorted(proposals), people, now)
    for loop in loops:
        if loop.status != LoopStatus.DRAFT:
            raise Conflict(f"The loop of {loop.candidate.name} was {loop.status.value} meanwhile; "
                           "reload it to see its interviews.")
    built = build_problem(session, loops, now=now)
    for loop in loops:
        coverage_service.require_coverage_or_override(
            session, loop, reason=override_reason, actor_id=actor_id,
            plan_version_id=built.rounds[loop.id].version.id)
    errors = built.check([proposal_entry(loop_id, items) for loop_id, items in proposals.items()])
    if errors:
        raise Conflict(f"This schedule no longer fits: {errors[0]}. Here is a fresh proposal.")
    levels = qualification_levels(session, people)
    names = dict(session.execute(select(Competency.slug, Competency.name)).all())
    created: dict[int, list[Interview]] = {}
    for loop in loops:
        plan = built.rounds[loop.id]
        loop.plan_version_id = plan.version.id
        loop.status = LoopStatus.SCHEDULED
        created[loop.id] = [_interview(loop, plan.rounds[item["round"]], item, levels, names, settings)
                            for item in proposals[loop.id]]
        session.add_all(created[loop.id])
    session.flush()
    ids = [i.id for items in created.values() for i in items]
    announce_scheduled(session, ids, settings=settings, now=now)
    for loop in loops if audited else ():
        record(session, actor_id=actor_id, action="loop_scheduled", entity="loop", entity_id=loop.id,
               details={"interviews": [i.id for i in created[loop.id]],
                        "plan_version_id": loop.plan_version_id}, loop_id=loop.id)
    return created


def _interview(loop: Loop, rnd: dict, item: Mapping, levels, names, settings: MailSettings) -> Interview:
    detail = {"kind": rnd["kind"], "minutes": rnd["minutes"],
              "competencies": [{"slug": c["slug"], "name": names.get(c["slug"], c["slug"]),
                                "focus": c["focus"]} for c in rnd["competencies"]],
              "focus_questions": list(rnd.get("focus_questions", []))}
    interview = Interview(loop_id=loop.id, round_key=rnd["key"], round_name=rnd["name"], round_detail=detail,
                          start=parse_z(item["start"]), end=parse_z(item["end"]), location=loop.location,
                          video_url=loop.video_url, uid=new_interview_uid(settings), sequence=0)
    for key in item.get("interviewers", []):
        interview.seats.append(Seat(interviewer_id=person_id(key), role=SeatRole.ASSESSOR))
    slugs = round_slugs(rnd)
    for key in item.get("trainees", []):
        pid = person_id(key)
        level = next((levels[(pid, s)] for s in slugs if levels.get((pid, s)) in TRAINEE_LEVELS), None)
        interview.seats.append(Seat(interviewer_id=pid, role=SeatRole.TRAINEE, training_level=level))
    return interview


def problem_for(session: Session, loop_ids: Sequence[int], *, now: datetime) -> dict:
    """The DESIGN 5.2 problem document for the given loops (what the scheduler sees; for tests and export)."""
    return build_problem(session, get_loops(session, loop_ids), now=now).doc

