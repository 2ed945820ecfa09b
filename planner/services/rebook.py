"""Booking a cancelled round again: the fix offered when a cancellation leaves a competency short.

:func:`rebook_options` proposes new times for the round of a cancelled interview, each with a panel
(first-fit's least-loaded qualified people free then, a trainee when one is free), nearest to the rest of
the candidate's day first; every option is re-checked with the scheduler's validator against the loop as
it is. The plan's round order is not asked of a round booked again after the others: it comes when it can.

:func:`rebook_round` books one option in one transaction: lock, re-check, a new interview (its own
calendar UID) with its seats, invites to the panel and the candidate, audit, commit once. The cancelled
interview stays as it is, for the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.core.errors import Conflict, ValidationFailed
from planner.core.scheduling.availability import build_calendars
from planner.core.scheduling.ledger import Ledger, ledger_of
from planner.core.scheduling.panels import pick_panel, round_pools
from planner.core.scheduling.repair import plans_from_result
from planner.models import Interview, Interviewer, InterviewStatus, LoopStatus, Seat, SeatRole
from planner.services.audit import record
from planner.services.invites import MailSettings, announce_scheduled, new_interview_uid
from planner.services.loop_state import LoopState, clean_reason, get_interview, grid_starts, load_state, moved
from planner.services.scheduling_problem import iso_z, loop_key, person_id, person_key, qualification_levels
from planner.services.transaction import SOMEONE_ELSE, committed_or_conflict

TRAINEE_LEVELS = ("shadow", "reverse-shadow")
#: How many times are offered (nearest to the candidate's other interviews first).
MAX_OPTIONS = 5
#: Options with the same panel are at least this far apart, so the list offers real choices.
SPREAD = timedelta(hours=1)


@dataclass
class RebookOption:
    """A time and a panel (interviewer ids) for the round, keeping every rule."""

    start: datetime
    end: datetime
    interviewers: list[int]
    trainees: list[int]

    @property
    def value(self) -> str:
        """The option as one form value: ``<start>|<assessor ids>|<trainee ids>``."""
        return f"{iso_z(self.start)}|{','.join(map(str, self.interviewers))}|{','.join(map(str, self.trainees))}"


@dataclass
class RebookProposal:
    """The cancelled interview and the times it could be booked again (empty with a reason when none)."""

    interview: Interview
    options: list[RebookOption]
    why_none: str = ""


def _cancelled_round(session: Session, interview_id: int, now: datetime) -> Interview:
    interview = get_interview(session, interview_id)
    if interview.loop.status != LoopStatus.SCHEDULED:
        raise ValidationFailed(f"The loop is {interview.loop.status.value}; rounds are booked again only in "
                               "scheduled loops.")
    if interview.status != InterviewStatus.CANCELLED:
        raise ValidationFailed(f"The interview '{interview.round_name}' is not cancelled; there is nothing to "
                               "book again.")
    live = session.scalar(select(Interview.id).where(
        Interview.loop_id == interview.loop_id, Interview.round_key == interview.round_key,
        Interview.status != InterviewStatus.CANCELLED))
    if live is not None:
        raise ValidationFailed(f"'{interview.round_name}' is already booked again; see the loop.")
    return interview


def _state(session: Session, interview: Interview, now: datetime, **lock) -> LoopState:
    """The loop as it is, with the plan's order lifted for this loop (see the module docstring)."""
    state = load_state(session, interview.loop_id, now=now, **lock)
    key = loop_key(interview.loop_id)
    problem = state.built.problem
    state.built.problem = replace(problem, loops=tuple(replace(lp, ordered=False) if lp.id == key else lp
                                                       for lp in problem.loops))
    state.baseline = set(state.built.check([state.entry()]))
    return state


def _new_errors(state: LoopState, item: dict) -> list[str]:
    entry = state.entry()
    entry["interviews"].append(item)
    return [e for e in state.built.check([entry]) if e not in state.baseline]


def _item(round_key: str, start: datetime, minutes: int, interviewers: Sequence[str], trainees: Sequence[str]):
    return moved({"round": round_key, "interviewers": sorted(interviewers), "trainees": sorted(trainees)},
                 start, minutes)


def rebook_options(session: Session, interview_id: int, *, now: datetime) -> RebookProposal:
    """Up to :data:`MAX_OPTIONS` times (with a panel) at which the cancelled round can be booked again.

    :raise NotFound: no such interview.
    :raise ValidationFailed: the interview is not cancelled, its round is booked again already, or the
        loop is not scheduled.
    """
    interview = _cancelled_round(session, interview_id, now)
    state = _state(session, interview, now)
    problem = state.built.problem
    loop = problem.loop(loop_key(interview.loop_id))
    rnd = loop.round(interview.round_key)
    minutes = state.round(interview)["minutes"]
    calendars = build_calendars(problem)
    try:
        ledger = ledger_of(calendars, plans_from_result(problem, {"loops": [state.entry()]}))
    except ValueError:  # the loop as it stands is not one the ledger accepts (a rule broken on purpose)
        ledger = Ledger(calendars)
    pools = round_pools(problem, loop, rnd)
    exclude = {p for i in state.interviews.values() for p in [*state.item(i)["interviewers"],
                                                                *state.item(i)["trainees"]]} | state.taken_off
    live = sorted(i.start for i in state.interviews.values())

    def distance(start: datetime) -> float:
        return min((abs((start - other).total_seconds()) for other in live), default=0.0)

    options: list[RebookOption] = []
    for start in sorted(grid_starts(state, interview, now), key=lambda s: (distance(s), s)):
        panel = pick_panel(rnd, loop, int(start.timestamp()) // 60, ledger, pools, set(exclude))
        if panel is None:
            continue
        assessors, trainees = panel
        if any(o.interviewers == [person_id(p) for p in assessors] and abs(o.start - start) < SPREAD
               for o in options):
            continue  # the same panel a few minutes away is not another choice
        item = _item(interview.round_key, start, minutes, assessors, trainees)
        if _new_errors(state, item):
            continue
        options.append(RebookOption(start, datetime.fromisoformat(item["end"].replace("Z", "+00:00")),
                                    [person_id(p) for p in assessors], [person_id(p) for p in trainees]))
        if len(options) == MAX_OPTIONS:
            break
    options.sort(key=lambda o: o.start)
    why = "" if options else ("nobody qualified is free for it inside the candidate's windows without breaking a "
                              "rule; add a window for the candidate, then book it again")
    return RebookProposal(interview, options, why)


def people_of(session: Session, proposal: RebookProposal) -> dict[int, Interviewer]:
    """The interviewers the options name, by id (one query)."""
    ids = {p for option in proposal.options for p in [*option.interviewers, *option.trainees]}
    return {p.id: p for p in session.scalars(select(Interviewer).where(Interviewer.id.in_(ids)))} if ids else {}


def parse_option(value: str) -> tuple[datetime, list[int], list[int]]:
    """An option's form value back to (start, assessor ids, trainee ids); ValidationFailed when malformed."""
    try:
        start_text, assessors, trainees = (value or "").split("|")
        start = datetime.fromisoformat(start_text.replace("Z", "+00:00")).astimezone(UTC)
        ids = [[int(p) for p in part.split(",") if p] for part in (assessors, trainees)]
    except ValueError:
        raise ValidationFailed("Pick one of the times offered.") from None
    if not ids[0]:
        raise ValidationFailed("Pick one of the times offered.")
    return start, ids[0], ids[1]


def rebook_round(session: Session, interview_id: int, *, start: datetime, interviewers: Sequence[int],
                 trainees: Sequence[int] = (), reason: str, actor_id: int | None, now: datetime,
                 settings: MailSettings) -> Interview:
    """Book the cancelled interview's round again at ``start`` with that panel, after re-checking every rule
    under lock; invites queued, audited, committed once. Returns the new interview.

    :raise ValidationFailed: no reason, the round cannot be booked again, or the time breaks a rule.
    :raise Conflict: someone booked these people meanwhile; nothing is written.
    """
    text = clean_reason(reason, "round is booked again")
    cancelled = _cancelled_round(session, interview_id, now)
    if start <= now:
        raise ValidationFailed("That time is in the past; pick one from the list.")
    people = [*interviewers, *trainees]
    with committed_or_conflict(session, SOMEONE_ELSE + "pick again from the fresh list."):
        state = _state(session, cancelled, now, lock=True, people=people)
        minutes = state.round(cancelled)["minutes"]
        item = _item(cancelled.round_key, start, minutes, [person_key(p) for p in interviewers],
                     [person_key(p) for p in trainees])
        errors = _new_errors(state, item)
        if errors:
            raise Conflict(f"That time no longer fits: {errors[0]}. Pick again from the fresh list.")
        levels = qualification_levels(session, list(trainees))
        slugs = [c.get("slug") for c in (cancelled.round_detail or {}).get("competencies", []) if isinstance(c, dict)]
        interview = Interview(loop_id=cancelled.loop_id, round_key=cancelled.round_key,
                              round_name=cancelled.round_name, round_detail=dict(cancelled.round_detail or {}),
                              start=start, end=datetime.fromisoformat(item["end"].replace("Z", "+00:00")),
                              location=cancelled.location, video_url=cancelled.video_url,
                              uid=new_interview_uid(settings), sequence=0)
        interview.seats = [Seat(interviewer_id=p, role=SeatRole.ASSESSOR) for p in interviewers] + [
            Seat(interviewer_id=p, role=SeatRole.TRAINEE,
                 training_level=next((levels[(p, s)] for s in slugs if levels.get((p, s)) in TRAINEE_LEVELS), None))
            for p in trainees]
        session.add(interview)
        session.flush()
        announce_scheduled(session, [interview.id], settings=settings, now=now)
        record(session, actor_id=actor_id, action="interview_rebooked", entity="interview", entity_id=interview.id,
               reason=text, details={"loop_id": cancelled.loop_id, "cancelled": cancelled.id,
                                     "round": cancelled.round_key, "start": item["start"],
                                     "interviewers": list(interviewers), "trainees": list(trainees)})
    return interview


__all__ = ["RebookOption", "RebookProposal", "parse_option", "people_of", "rebook_options", "rebook_round"]
