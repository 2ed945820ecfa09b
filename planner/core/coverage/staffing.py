"""Can a round be staffed at all? A panel check over the active pool's qualifications.

The scheduler's hard rule (DESIGN 5.2) is that every competency a round lists must be held at level
"qualified" by at least one of its assessors, every assessor holds at least one of them, a round with
``interviewers: N`` gets exactly N assessors, and ``outside_hiring_team: M`` asks for M of them from
outside the hiring team. Counting qualified people per competency misses rounds whose competencies
nobody holds *together*: a one-interviewer round on Reliability + Security needs one person qualified in
both. This module answers, per round, whether some panel can exist and how many people could sit in one,
ignoring time (calendars, caps and windows are the scheduler's job).

Panels are small, so the check is exact (``planner.core.panels``, shared with the scheduler's reasons).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from planner.core.coverage.report import CRITICAL, Issue
from planner.core.coverage.types import QUALIFIED, RoundPlan
from planner.core.coverage.wording import counted, number_word
from planner.core.panels import Groups, full_mask, panel_exists, skill_groups
from planner.core.prose import and_list


@dataclass(frozen=True)
class PoolMember:
    """An active interviewer as staffing sees them: a key, their team and what they are qualified in."""

    key: str
    team: str
    qualified: frozenset[str]


@dataclass(frozen=True)
class Staffing:
    """Whether a round can be staffed, and how many people could sit in a panel that covers it.

    ``panelists`` counts the people who belong to at least one valid panel; it is 0 exactly when
    ``staffable`` is False. Both are None for a round that lists no competency.
    """

    round_key: str
    required: tuple[str, ...]
    seats: int
    min_outside: int
    staffable: bool | None
    panelists: int | None


def team_slug(team: str | None) -> str:
    """The hiring-team key a posting's team name stands for ("Neuron Compiler" -> "neuron-compiler")."""
    return re.sub(r"[^a-z0-9]+", "-", (team or "").lower()).strip("-")


class PoolMembers(list):
    """The active pool as :func:`build_pool` gives it: a list of members that remembers what it has answered.

    Coverage of every posting checks every round against the same pool. People are counted once by (what
    they hold, team); a round's groups are counted per competency list by (bitmask held, team) from only the
    profiles holding one of them, then folded per hiring team; and the verdict of a (competencies, seats,
    outsiders, hiring team) question is kept, since postings repeat the same rounds. Everything kept
    depends on the pool alone, so the answers are the ones a fresh check gives. Build a new one when the
    pool changes.
    """

    def __init__(self, members: Iterable[PoolMember] = ()) -> None:
        super().__init__(members)
        self._profiles = Counter((member.qualified, member.team) for member in self)
        self._holding: dict[str, list[tuple[frozenset[str], str, int]]] = {}
        for (qualified, team), count in self._profiles.items():
            for slug in qualified:
                self._holding.setdefault(slug, []).append((qualified, team, count))
        self._by_team: dict[tuple[str, ...], Counter[tuple[int, str]]] = {}
        self._groups: dict[tuple[tuple[str, ...], str], Groups] = {}
        self._verdicts: dict[tuple[tuple[str, ...], int, int, str], tuple[bool, int]] = {}

    def groups(self, required: Sequence[str], hiring_team: str | None) -> Groups:
        """People qualified in at least one of ``required``, counted by (bitmask held, outside the team)."""
        key = (tuple(required), hiring_team or "")
        if key not in self._groups:
            groups: Groups = Counter()
            for (mask, team), count in self._team_groups(key[0]).items():
                groups[(mask, not hiring_team or team != hiring_team)] += count
            self._groups[key] = groups
        return self._groups[key]

    def _team_groups(self, required: tuple[str, ...]) -> Counter[tuple[int, str]]:
        """People holding one of ``required``, counted by (bitmask held, team): only their profiles are read."""
        if required not in self._by_team:
            bits = {slug: 1 << index for index, slug in enumerate(required)}
            seen: set[tuple[frozenset[str], str]] = set()
            found: Counter[tuple[int, str]] = Counter()
            for slug in dict.fromkeys(required):
                for qualified, team, count in self._holding.get(slug, ()):
                    if (qualified, team) in seen:
                        continue
                    seen.add((qualified, team))
                    mask = 0
                    for held in qualified:
                        mask |= bits.get(held, 0)
                    found[(mask, team)] += count
            self._by_team[required] = found
        return self._by_team[required]

    def verdict(self, key: tuple[tuple[str, ...], int, int, str], decide: Callable[[], tuple[bool, int]]
                ) -> tuple[bool, int]:
        """The (staffable, panelists) answer for ``key``, decided once per pool."""
        if key not in self._verdicts:
            self._verdicts[key] = decide()
        return self._verdicts[key]


def build_pool(rows: Iterable[tuple[object, str, str, str]]) -> PoolMembers:
    """Pool members from (interviewer id, team, competency slug, level) rows of *active* interviewers.

    Only "qualified" levels make an assessor; people qualified in nothing are left out.
    """
    teams: dict[str, str] = {}
    skills: dict[str, set[str]] = {}
    for key, team, slug, level in rows:
        name = str(key)
        teams[name] = team or ""
        if level == QUALIFIED:
            held = skills.get(name)
            if held is None:
                held = skills[name] = set()
            held.add(slug)
    return PoolMembers(PoolMember(key, teams[key], frozenset(slugs)) for key, slugs in sorted(skills.items()))


def required_slugs(plan: RoundPlan) -> tuple[str, ...]:
    """What a round asks its assessors to hold: its primary competencies, or all when it has none.

    The same rule the scheduling problem is built with (``scheduling_problem.round_slugs``).
    """
    return plan.primary_slugs or tuple(item.slug for item in plan.competencies)


def _is_outside(member: PoolMember, hiring_team: str | None) -> bool:
    # A plan without a hiring team has no "inside": everybody counts as outside (as in the scheduler).
    return not hiring_team or member.team != hiring_team


def _groups(required: Sequence[str], pool: Sequence[PoolMember], hiring_team: str | None) -> Groups:
    """People qualified in at least one required competency, counted by (bitmask held, outside)."""
    if isinstance(pool, PoolMembers):
        return Counter(pool.groups(required, hiring_team))
    return skill_groups(required, ((member.qualified, _is_outside(member, hiring_team)) for member in pool))


def check_round(plan: RoundPlan, pool: Sequence[PoolMember], hiring_team: str | None = None) -> Staffing:
    """Can some panel of ``plan.interviewers`` qualified people hold every competency of the round?

    :param pool: the active interviewers (see :func:`build_pool`).
    :param hiring_team: the team key whose members do not count as "outside"; None or "" means
        everybody is outside, as in the scheduler.
    """
    required = required_slugs(plan)
    seats, outside = plan.interviewers, plan.seat_rules.min_outside_team
    if not required:
        # An empty round is not judged here: the round warnings already say it assesses nothing.
        return Staffing(plan.key, required, seats, outside, staffable=None, panelists=None)
    if outside > seats:
        # A seat rule no panel can meet; the round warnings say so in their own words.
        return Staffing(plan.key, required, seats, outside, staffable=False, panelists=0)
    if isinstance(pool, PoolMembers):
        staffable, panelists = pool.verdict((required, seats, outside, hiring_team or ""),
                                            lambda: _panelists(required, seats, outside, pool, hiring_team))
    else:
        staffable, panelists = _panelists(required, seats, outside, pool, hiring_team)
    return Staffing(plan.key, required, seats, outside, staffable=staffable, panelists=panelists)


def _panelists(required: tuple[str, ...], seats: int, outside: int, pool: Sequence[PoolMember],
               hiring_team: str | None) -> tuple[bool, int]:
    """Whether some panel can staff the round, and how many people belong to at least one such panel."""
    full = full_mask(required)
    groups = _groups(required, pool, hiring_team)
    panelists = 0
    for (mask, is_out), count in groups.items():
        # Could one person of this group sit in a valid panel? Seat them, then fill the rest.
        rest = Counter(groups)
        rest[(mask, is_out)] -= 1
        if panel_exists(rest, full, seats, outside, (mask, 1, min(outside, int(is_out)))):
            panelists += count
    return panelists > 0, panelists


def staffing_issue(plan: RoundPlan, staffing: Staffing, pool: Sequence[PoolMember],
                   names: Mapping[str, str], hiring_team: str | None = None) -> Issue | None:
    """The plain sentence for a round nobody can staff; None when it can be staffed (or is empty).

    :param names: competency names by slug, in posting order (a slug stands in for a name it lacks).
    """
    if staffing.staffable is not False or not staffing.required or staffing.min_outside > staffing.seats:
        return None
    label = f"Nobody can staff '{plan.name}'"
    # Competencies in posting order (names' order), so the sentence reads like the posting.
    order = {slug: index for index, slug in enumerate(names)}
    required = sorted(staffing.required, key=lambda slug: order.get(slug, len(order)))
    named = [names.get(slug, slug) for slug in required]
    held = {slug for member in pool for slug in member.qualified}
    nobody = [names.get(slug, slug) for slug in required if slug not in held]
    if nobody:
        message = (f"{label}: no one is qualified in {and_list(nobody)}. "
                   f"Qualify someone in {'it' if len(nobody) == 1 else 'them'}, or assess "
                   f"{'it' if len(nobody) == 1 else 'them'} in another round.")
        return Issue(CRITICAL, "unstaffable-round", message, round_key=plan.key)
    seats = staffing.seats
    groups = _groups(required, pool, hiring_team)
    people = sum(groups.values())
    full = full_mask(required)
    all_of = "both" if len(required) == 2 else f"all {number_word(len(required))}"
    if people < seats:
        message = (f"{label}: it has {counted(seats, 'interviewer seat')} but only "
                   f"{counted(people, 'person is', 'people are')} qualified in any of "
                   f"{and_list(named)}. Remove a seat or qualify more people.")
    elif not panel_exists(groups, full, seats, 0):
        if seats == 1:
            message = (f"{label}: no one is qualified in {and_list(named)} together, and it has one "
                       f"interviewer. Split the round, add an interviewer seat, or qualify someone in "
                       f"{all_of}.")
        else:
            message = (f"{label}: no {number_word(seats)} people together are qualified in "
                       f"{and_list(named)}, and it has {counted(seats, 'interviewer')}. Split the round, "
                       f"add an interviewer seat, or qualify more people in these competencies.")
    elif seats == 1:
        message = (f"{label}: its one interviewer must come from outside the hiring team, and no one "
                   f"outside it is qualified in {and_list(named)}{' together' if len(named) > 1 else ''}. "
                   f"Qualify someone outside the hiring team, or drop the outside-team rule.")
    else:
        message = (f"{label}: it needs {counted(staffing.min_outside, 'interviewer')} from outside the hiring "
                   f"team, and no panel of {number_word(seats)} with "
                   f"{'that one' if staffing.min_outside == 1 else 'those'} is qualified in "
                   f"{and_list(named)} together. Qualify someone outside the hiring team, add a seat, "
                   f"or ask for fewer from outside.")
    return Issue(CRITICAL, "unstaffable-round", message, round_key=plan.key)
