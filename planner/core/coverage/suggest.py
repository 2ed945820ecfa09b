"""Suggest a loop plan: rounds that cover every must-have at its required coverage within a time budget.

How a plan is built:

1. Competencies are pooled by category (technical; behavioural; leadership). Each pool gets as few
   rounds as its rules allow: at least as many as its largest required coverage (each required round
   must be a distinct round) and at most three primary competencies per round.
2. Each competency is dealt, as a primary focus, to its ``required`` least-loaded rounds of the pool,
   which keeps rounds within one competency of each other in load.
3. Every round starts at 45 minutes (15 minutes per primary competency at three per round). When the
   separate pools do not fit the budget, behavioural and leadership share rounds, then everything
   does; the first grouping that fits wins.
4. Nice-to-haves join in posting order while they still fit; with a bench given, those nobody is
   qualified to assess are left out because no round could staff them.
5. With the pool's qualifications given, rounds are made staffable where the pool allows: competencies
   are swapped or moved between rounds of a pool until as many rounds as possible have one person
   qualified in all of them together; a round still without one gets the fewest interviewer seats (up to
   three) whose panel holds its competencies together (see :mod:`.staffing`).
6. Left-over budget lengthens the busiest rounds to 60 minutes.
7. Names are short, since they go into calendar invites: up to two competency names ("Incident response
   & reliability", long names shortened), else the kind of round ("Technical deep-dive"), at most
   40 characters.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from planner.core.coverage.risks import MAX_PRIMARY_PER_ROUND
from planner.core.coverage.staffing import PoolMember, check_round
from planner.core.coverage.types import (
    BenchEntry,
    CompetencyReq,
    RoundCompetency,
    RoundPlan,
    SeatRules,
)
from planner.core.coverage.wording import counted, lower_first
from planner.core.errors import ValidationFailed

BASE_MINUTES = 45
LONG_MINUTES = 60
STEP_MINUTES = 15
#: The most interviewer seats a suggested round gets to make its competencies staffable together.
MAX_SEATS = 3
#: Round names go into calendar invites; longer names are shortened or replaced by the kind.
MAX_NAME = 40

#: Groupings tried in order, from most separated to fully shared.
GROUPINGS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("technical",), ("behavioural",), ("leadership",)),
    (("technical",), ("behavioural", "leadership")),
    (("technical", "behavioural", "leadership"),),
)
#: Round kinds a round of each dominant category takes in turn.
KIND_CYCLES = {
    "technical": ("technical", "design"),
    "behavioural": ("behavioural",),
    "leadership": ("hiring-manager", "bar-raiser", "behavioural"),
}
#: Loop order: technical work first, the bar raiser last.
KIND_ORDER = ("screen", "technical", "design", "behavioural", "hiring-manager", "bar-raiser")
#: Ties for a round's dominant category go to the earlier one.
CATEGORY_PRECEDENCE = ("technical", "leadership", "behavioural")


@dataclass(frozen=True)
class _Draft:
    """A round before it has a kind, name and duration: just its primary competencies."""

    members: tuple[CompetencyReq, ...]


def minimum_rounds(competencies: Sequence[CompetencyReq]) -> int:
    """The fewest rounds that can hold every competency at its required coverage.

    Each competency needs ``required`` distinct rounds and a round holds at most three primaries.
    """
    if not competencies:
        return 0
    slots = sum(req.required for req in competencies)
    return max(max(req.required for req in competencies), math.ceil(slots / MAX_PRIMARY_PER_ROUND))


def suggest_plan(
    competencies: Sequence[CompetencyReq],
    budget_minutes: int,
    *,
    bench: Mapping[str, BenchEntry] | None = None,
    pool: Sequence[PoolMember] | None = None,
    hiring_team: str | None = None,
) -> list[RoundPlan]:
    """Propose rounds covering every must-have in ``required`` distinct rounds within the budget.

    :param competencies: the posting's competencies, in posting order.
    :param budget_minutes: the most interview time the whole loop may take.
    :param bench: bench depth per slug; when given, nice-to-haves with nobody qualified are skipped.
    :param pool: the active interviewers' qualifications; when given, competencies are grouped so that
        someone holds each round's competencies together where the pool allows, and a round nobody holds
        alone gets the fewest seats (up to three) whose panel does.
    :param hiring_team: the team key used for the bar raiser's outside-the-team seat.
    :return: rounds in loop order, each 45 or 60 minutes, at most three primary competencies each.
    :raise ValidationFailed: when there is nothing to plan, or the budget cannot hold the must-haves.
    """
    if not competencies:
        raise ValidationFailed("The posting has no competencies to plan rounds for.")
    if not isinstance(budget_minutes, int) or budget_minutes <= 0:
        raise ValidationFailed("The time budget must be a positive number of minutes.")
    slugs = [req.slug for req in competencies]
    if len(set(slugs)) != len(slugs):
        raise ValidationFailed("Each competency may appear only once in a plan suggestion.")

    must_haves = [req for req in competencies if req.is_must_have]
    chosen = list(must_haves)
    if _fit(chosen, budget_minutes) is None:
        raise ValidationFailed(_budget_sentence(must_haves, budget_minutes))
    for req in competencies:
        if req.is_must_have or not _staffable(req, bench):
            continue
        if _fit([*chosen, req], budget_minutes) is not None:
            chosen.append(req)
    # Keep posting order so names and round contents read in the order the posting lists them.
    chosen.sort(key=competencies.index)
    drafts = _fit(chosen, budget_minutes)
    if drafts and pool is not None:
        drafts = _regroup(drafts, pool, chosen)
    if not drafts:
        # Only nice-to-haves, none of which fits (or is staffable): an empty plan would look like success.
        raise ValidationFailed(
            f"A budget of {budget_minutes} minutes cannot fit any competency at its required coverage.")
    rounds = _finish(drafts, budget_minutes)
    return [_staffed(plan, pool, hiring_team) for plan in rounds] if pool is not None else rounds


def _staffable(req: CompetencyReq, bench: Mapping[str, BenchEntry] | None) -> bool:
    if bench is None:
        return True
    entry = bench.get(req.slug)
    return entry is not None and entry.qualified > 0


def _budget_sentence(must_haves: list[CompetencyReq], budget: int) -> str:
    rounds = minimum_rounds(must_haves)
    slots = sum(req.required for req in must_haves)
    return (
        f"A budget of {budget} minutes cannot cover every must-have at its required coverage: "
        f"{counted(len(must_haves), 'must-have')} need {counted(slots, 'round slot')}, which takes at least "
        f"{counted(rounds, 'round')} of {BASE_MINUTES} minutes ({rounds * BASE_MINUTES} minutes)."
    )


def _fit(competencies: list[CompetencyReq], budget: int) -> list[_Draft] | None:
    """The most separated grouping whose rounds, at 45 minutes each, fit the budget; None if none does."""
    for grouping in GROUPINGS:
        drafts: list[_Draft] = []
        for categories in grouping:
            drafts.extend(_deal([req for req in competencies if req.category in categories]))
        if len(drafts) * BASE_MINUTES <= budget:
            return drafts
    return None


def _deal(pool: list[CompetencyReq]) -> list[_Draft]:
    """Deal each competency to its ``required`` least-loaded rounds (distinct rounds by construction)."""
    count = minimum_rounds(pool)
    bins: list[list[CompetencyReq]] = [[] for _ in range(count)]
    # Largest requirement first: dealing into least-loaded bins then keeps loads within one of each
    # other, so no round exceeds ceil(slots / rounds) <= three primaries.
    for req in sorted(pool, key=lambda item: (-item.required, not item.is_must_have, pool.index(item))):
        targets = sorted(range(count), key=lambda index: (len(bins[index]), index))[: req.required]
        for index in targets:
            bins[index].append(req)
    return [_Draft(tuple(sorted(members, key=pool.index))) for members in bins]


def _held_alone(members: Sequence[CompetencyReq], pool: Sequence[PoolMember]) -> bool:
    """Whether one person of the pool is qualified in every one of ``members``."""
    wanted = {req.slug for req in members}
    return any(wanted <= person.qualified for person in pool)


def _regroup(drafts: list[_Draft], pool: Sequence[PoolMember], chosen: list[CompetencyReq]) -> list[_Draft]:
    """Swap or move competencies between rounds of one category pool until no change adds a round that
    one person can hold alone; each step strictly lowers the number of rounds nobody holds alone.

    Swaps keep every round's load; a move only goes to a round below three primaries and never empties
    a round. Each competency stays in distinct rounds, so coverage is unchanged. ``chosen``: the plan's
    competencies in posting order.
    """
    bins = [list(draft.members) for draft in drafts]
    # A competency only moves between rounds dealt from the same category pool, so kinds stay right.
    categories = [{req.category for req in members} for members in bins]

    def unheld(groups: list[list[CompetencyReq]]) -> int:
        return sum(1 for members in groups if not _held_alone(members, pool))

    def candidates(a: int):
        for b in range(len(bins)):
            if b == a:
                continue
            for x in bins[a]:
                if x in bins[b] or x.category not in categories[b]:
                    continue
                if len(bins[b]) < MAX_PRIMARY_PER_ROUND and len(bins[a]) > 1:
                    yield b, x, None
                for y in bins[b]:
                    if y not in bins[a] and y.category in categories[a]:
                        yield b, x, y

    score = unheld(bins)
    improved = True
    while improved and score:
        improved = False
        for a in range(len(bins)):
            if _held_alone(bins[a], pool):
                continue
            for b, x, y in candidates(a):
                trial = [list(members) for members in bins]
                trial[a].remove(x)
                trial[b].append(x)
                if y is not None:
                    trial[b].remove(y)
                    trial[a].append(y)
                trial_score = unheld(trial)
                if trial_score < score:
                    bins, score, improved = trial, trial_score, True
                    break
            if improved:
                break
    # Each round's competencies in posting order (``chosen`` is), as dealing left them.
    return [_Draft(tuple(sorted(members, key=chosen.index))) for members in bins]


def _staffed(plan: RoundPlan, pool: Sequence[PoolMember], hiring_team: str | None) -> RoundPlan:
    """The round with the fewest seats (up to three) whose panel holds its competencies together.

    A round no panel of three can staff keeps its seats; the coverage check then says why.
    """
    first = max(plan.interviewers, plan.seat_rules.min_outside_team)
    for seats in range(first, MAX_SEATS + 1):
        trial = replace(plan, interviewers=seats)
        if check_round(trial, pool, hiring_team).staffable:
            return trial
    return plan


def _finish(drafts: list[_Draft], budget: int) -> list[RoundPlan]:
    """Give drafts kinds, names, keys and durations, in loop order."""
    turns: dict[str, int] = {}
    kinded: list[tuple[str, _Draft]] = []
    for draft in drafts:
        category = _dominant_category(draft)
        cycle = KIND_CYCLES[category]
        kinded.append((cycle[turns.get(category, 0) % len(cycle)], draft))
        turns[category] = turns.get(category, 0) + 1
    kinded.sort(key=lambda pair: KIND_ORDER.index(pair[0]))  # stable: dealing order within a kind

    minutes = [BASE_MINUTES] * len(kinded)
    spare = budget - BASE_MINUTES * len(kinded)
    # The busiest rounds gain time first: 20 minutes per primary beats 15 where evidence is thin.
    for index in sorted(range(len(kinded)), key=lambda i: -len(kinded[i][1].members)):
        if spare < LONG_MINUTES - BASE_MINUTES:
            break
        minutes[index] = LONG_MINUTES
        spare -= LONG_MINUTES - BASE_MINUTES

    rounds: list[RoundPlan] = []
    used_names: set[str] = set()
    kind_counts: dict[str, int] = {}
    for (kind, draft), length in zip(kinded, minutes, strict=True):
        kind_counts[kind] = kind_counts.get(kind, 0) + 1
        name = _unique(_round_name(kind, draft, kind_counts[kind] - 1, used_names), used_names)
        rounds.append(RoundPlan(
            key=f"{kind}-{kind_counts[kind]}",
            name=name,
            kind=kind,
            minutes=length,
            interviewers=1,
            competencies=tuple(RoundCompetency(req.slug, "primary") for req in draft.members),
            # A bar raiser is there to hold the bar from outside the hiring team.
            seat_rules=SeatRules(min_outside_team=1) if kind == "bar-raiser" else SeatRules(),
        ))
    return rounds


def _dominant_category(draft: _Draft) -> str:
    categories = [req.category for req in draft.members]
    return max(CATEGORY_PRECEDENCE, key=lambda c: (categories.count(c), -CATEGORY_PRECEDENCE.index(c)))


KIND_LABELS = {"technical": "Technical deep-dive", "design": "Design problem-solving",
               "behavioural": "Behavioural interview", "hiring-manager": "Hiring manager", "bar-raiser": "Bar raiser"}
#: What tells a second round on the same competencies apart ("Customer ownership (situational)").
NAME_TAGS = {"technical": "deep-dive", "design": "design problem", "behavioural": "situational"}
#: Kinds whose label leads the name ("Bar raiser: Mentoring"): candidates and panels expect to see it.
LABELLED_KINDS = ("hiring-manager", "bar-raiser")
#: Trailing words dropped when two names are too long together ("Reliability engineering" -> "Reliability").
GENERIC_TAILS = (" engineering", " fundamentals")


def short_names(name: str) -> list[str]:
    """A competency's name from longest to shortest form, for round names.

    "Pre-silicon feedback (hardware/software co-design)" -> ["Pre-silicon feedback (...)", "Pre-silicon feedback"];
    "Incident response and on-call" -> [..., "Incident response"]; "Reliability engineering" -> [..., "Reliability"].
    """
    forms = [name]
    shorter = name.split(" (")[0].split(", ")[0].split(" and ")[0].strip() or name
    forms.append(shorter)
    for tail in GENERIC_TAILS:
        # "Data engineering" keeps its tail: "Data" alone says too little.
        if shorter.endswith(tail) and len(shorter) - len(tail) >= 6:
            forms.append(shorter[: -len(tail)])
            break
    return list(dict.fromkeys(forms))


def _named_pairs(names: list[str]) -> list[str]:
    """One or two competency names as a short title, longest readable form first, within the limit."""
    options = [short_names(name) for name in names]
    titles = []
    for level in range(max(len(forms) for forms in options)):
        parts = [forms[min(level, len(forms) - 1)] for forms in options]
        titles.append(" & ".join([parts[0], *(lower_first(part) for part in parts[1:])]))
    return [title for title in dict.fromkeys(titles) if len(title) <= MAX_NAME]


def _round_name(kind: str, draft: _Draft, turn: int, used: set[str]) -> str:
    """A short round name for calendar invites: up to two competency names, else the kind of round.

    ``turn`` counts earlier rounds of the same kind; a second behavioural round on the same ground asks
    about hypotheticals, so it is named situational when it needs a different name.
    """
    label = KIND_LABELS[kind]
    if kind == "behavioural" and turn % 2:
        label = "Situational interview"
    titles = _named_pairs([req.name for req in draft.members]) if len(draft.members) <= 2 else []
    if kind in LABELLED_KINDS:
        options = [f"{label}: {title}" for title in titles] + [label]
    else:
        # A second round on the same competencies says how it differs before falling back to the kind.
        tag = NAME_TAGS[kind] if kind != "behavioural" or turn % 2 else "behavioural"
        options = [*titles, *(f"{title} ({tag})" for title in titles), label]
    options = [option for option in options if len(option) <= MAX_NAME] or [label]
    for option in options:
        if option not in used:
            return option
    return options[0]


def _unique(name: str, used: set[str]) -> str:
    candidate, number = name, 2
    while candidate in used:
        candidate, number = f"{name} ({number})", number + 1
    used.add(candidate)
    return candidate
