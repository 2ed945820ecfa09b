"""Trainee seats of a loop's proposal: drop one the coordinator does not want, add one from free trainees.

A trainee seat is optional (DESIGN 5.2: filling it is objective 3, not a hard rule), so the coordinator may
take one out of a round before confirming -- the trainee is away, or the round should have no shadow -- and
may seat another trainee who holds shadow or reverse-shadow in one of the round's competencies and is free.
Like a swap or a move, each edit reads only and returns a new proposal (plain data); confirming re-checks
every rule inside its transaction (:func:`planner.services.scheduling.confirm`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from planner.core.errors import ValidationFailed
from planner.models import Interviewer

# The helpers of the swap and move edits: the same checks, ranking and wording for trainees.
from planner.services.proposal_edits import (
    Substitute,
    proposal_entry,
    proposal_round,
    why_it_fits,
    with_round_changed,
)
from planner.services.scheduling import require_draft
from planner.services.scheduling_problem import (
    build_problem,
    get_loops,
    load_near,
    loop_rounds,
    parse_z,
    person_id,
    person_key,
    round_slugs,
    takes_trainee,
)


@dataclass
class TraineeChange:
    """The proposal after a trainee seat was dropped or filled, and whom and which round it concerns."""

    interviews: list[dict]
    name: str
    round_name: str


def drop_trainee(session: Session, loop_id: int, interviews: Sequence[Mapping], round_key: str,
                 trainee_id: int) -> TraineeChange:
    """The proposal without ``trainee_id``'s trainee seat in a round; assessors and times stay as they are.

    :raise NotFound: when the loop does not exist.
    :raise ValidationFailed: when the loop is not a draft, the round is not in the proposal, or the person
        is not its trainee (an assessor is swapped, not dropped).
    """
    loop = get_loops(session, [loop_id])[0]
    require_draft(loop)
    item = proposal_round(interviews, round_key)
    key = person_key(trainee_id)
    if key not in item.get("trainees", []):
        raise ValidationFailed("That person is not a trainee in this round of the proposal; nothing was "
                               "changed.")
    person = session.get(Interviewer, trainee_id)
    trainees = [t for t in item.get("trainees", []) if t != key]
    return TraineeChange(with_round_changed(interviews, round_key, trainees=trainees),
                         person.name if person else "The trainee", _round_name(session, loop, round_key))


def trainee_options(session: Session, loop_id: int, interviews: Sequence[Mapping], round_key: str, *,
                    now: datetime) -> list[Substitute]:
    """Who can take the empty trainee seat of a round: training in one of its competencies and free.

    Every option is checked with the scheduler's validator (working hours, busy time, caps, nobody twice
    in the loop) and ranked like substitutes: that ISO week's load, then that local day's, then the name.

    :raise ValidationFailed: when the round is not in the proposal, has no trainee seat, or already has
        its trainee.
    """
    return _options(session, loop_id, interviews, round_key, now=now)[0]


def _options(session: Session, loop_id: int, interviews: Sequence[Mapping], round_key: str, *,
             now: datetime) -> tuple[list[Substitute], str]:
    loops = get_loops(session, [loop_id])
    require_draft(loops[0])
    built = build_problem(session, loops, now=now)
    item = proposal_round(interviews, round_key)
    plan_round = built.rounds[loop_id].rounds.get(round_key)
    name = built.names.get(round_key, round_key)
    if plan_round is None:
        raise ValidationFailed("That round is not in the loop's plan; schedule the loop again.")
    if not takes_trainee(plan_round):
        raise ValidationFailed(f"The round '{name}' has no trainee seat in the plan.")
    if item.get("trainees"):
        raise ValidationFailed(f"The round '{name}' already has its trainee; drop or swap them instead.")
    seated = {p for i in interviews for p in [*i.get("interviewers", []), *i.get("trainees", [])]}
    start = parse_z(item["start"])
    # A rule the proposal broke already (someone booked meanwhile: the page says so) hides nobody; an option
    # must add no broken rule. The validator refuses anyone without shadow or reverse-shadow in the round.
    baseline = set(built.check([proposal_entry(loop_id, interviews)]))
    ranked = []
    for person in built.problem.interviewers:
        if person.id in seated:
            continue
        candidate = with_round_changed(interviews, round_key, trainees=[person.id])
        if set(built.check([proposal_entry(loop_id, candidate)])) - baseline:
            continue
        week, day = load_near(person, start)
        ranked.append((week, day, person.name, person, candidate))
    ranked.sort(key=lambda row: row[:3])
    slugs = round_slugs(plan_round)
    options = [Substitute(person_id(person.id), person.name,
                          why_it_fits(person, slugs, "trainees", week, day, start, loops[0].hiring_team, built.names),
                          candidate)
               for week, day, _name, person, candidate in ranked]
    return options, name


def add_trainee(session: Session, loop_id: int, interviews: Sequence[Mapping], round_key: str,
                trainee_id: int, *, now: datetime) -> TraineeChange:
    """The proposal with ``trainee_id`` in the empty trainee seat of a round, when every rule still holds.

    :raise ValidationFailed: as :func:`trainee_options`, or when that person is not one of its options.
    """
    options, round_name = _options(session, loop_id, interviews, round_key, now=now)
    for option in options:
        if option.interviewer_id == trainee_id:
            return TraineeChange(option.interviews, option.name, round_name)
    raise ValidationFailed("That person cannot take the trainee seat: they are not training in the round's "
                           "competencies, not free then, or already in the loop. Pick one of the suggestions.")


def _round_name(session: Session, loop, round_key: str) -> str:
    plan_round = loop_rounds(session, loop).rounds.get(round_key)
    return plan_round["name"] if plan_round else round_key
