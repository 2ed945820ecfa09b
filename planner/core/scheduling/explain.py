"""Plain-words reasons for unscheduled loops, and the nearest fixes a coordinator could make.

Each round is examined on its own against the final plan, relaxing one rule at a time: first who is
qualified at all, then who has working time inside the windows, then caps, then the seat rule, then
bookings by other loops. The first rule that blocks a round is the reason; relaxing it gives the fix.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from dataclasses import replace
from itertools import combinations

from planner.core.panels import fewest_covering, full_mask, skill_groups
from planner.core.prose import DATE_FORMAT, and_list, plural
from planner.core.scheduling.availability import Calendar, FreeBlock, build_calendar, grid_starts, minute_to_local
from planner.core.scheduling.greedy import place_loop
from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.panels import RoundPools, pick_panel
from planner.core.scheduling.problem import Interviewer, Loop, LoopPlan, Problem, Round, Span, is_outside

#: How many days around the windows to look for a day on which the round could happen.
SEARCH_DAYS = 7


def explain_unscheduled(
    problem: Problem,
    calendars: dict[str, Calendar],
    ledger: Ledger,
    pools: dict[str, dict[str, RoundPools]],
    loop_id: str,
) -> LoopPlan:
    """An unscheduled plan for ``loop_id`` whose reason names the blocked round and the blocking rule."""
    loop = problem.loop(loop_id)
    for rnd in loop.rounds:
        found = _round_blocker(problem, loop, rnd, calendars, ledger, pools[loop.id][rnd.id])
        if found is not None:
            reason, fixes = found
            return LoopPlan(loop_id, reason=f"round '{rnd.id}': {reason}", fixes=tuple(fixes))
    gap = "" if loop.max_gap_minutes is None else f" with at most {loop.max_gap_minutes} minutes between rounds"
    total, room = loop.minutes, loop.room_minutes()
    if total > room:
        longest = max(w.minutes for w in loop.windows)
        held = (
            f"the longest candidate window is {longest} minutes"
            if room == longest
            else f"the candidate's windows hold at most {room} minutes of rounds{gap}"
        )
        return LoopPlan(
            loop_id, reason=f"the rounds need {total} minutes but {held}", fixes=tuple(_room_fixes(loop, room))
        )
    short = _short_of_people(loop, pools[loop.id])
    if short is not None:
        return LoopPlan(loop_id, reason=short[0], fixes=tuple(short[1]))
    fixes = _widen_fixes(problem, loop, loop.rounds[0], pools[loop.id][loop.rounds[0].id].assessors)
    order = ""
    if loop.ordered:
        order = " in the plan's order"
        # First-fit only reads the ledger, so asking it about the same loop in any order changes nothing.
        if place_loop(problem, replace(loop, ordered=False), ledger, pools[loop.id]) is not None:
            fixes = ["let the rounds take place in any order: they fit in another order", *fixes]
    return LoopPlan(
        loop_id,
        reason="each round can be staffed on its own, but the free times of the "
        f"interviewers do not line up into one sequence of rounds{order} inside the candidate's windows{gap}",
        fixes=tuple(fixes or ["widen the candidate's windows"]),
    )


#: Loops with more rounds than this only get the whole loop checked for enough different people.
_SUBSET_ROUNDS = 10


def _short_of_people(loop: Loop, pools: dict[str, RoundPools]):
    """Reason and fixes when some rounds together need more different assessors than are qualified for them.

    Nobody sits twice in one loop, so rounds whose seats outnumber the people qualified for any of them can
    never all be staffed, however free those people are.
    """
    rounds = list(loop.rounds)
    # The fewest rounds first: the reason then names just the rounds that compete for the same people.
    sizes = range(2, len(rounds) + 1) if len(rounds) <= _SUBSET_ROUNDS else (len(rounds),)
    for size in sizes:
        for group in combinations(rounds, size):
            people = {p.id for rnd in group for p in pools[rnd.id].assessors}
            seats = sum(rnd.interviewers for rnd in group)
            scarce = _scarce_competency(group, pools)
            if scarce is not None:
                return scarce
            if seats > len(people):
                names = ", ".join(f"'{rnd.id}'" for rnd in group)
                which = "the rounds" if size == len(rounds) else f"rounds {names}"
                verb = "is" if len(people) == 1 else "are"
                return (
                    f"{which} need {seats} different interviewers (nobody sits twice in a loop) but only "
                    f"{len(people)} {verb} qualified for them",
                    [f"qualify {plural(seats - len(people), 'more interviewer')} for {names}", "split the loop in two"],
                )
    return None


def _scarce_competency(group: tuple[Round, ...], pools: dict[str, RoundPools]):
    """Reason and fixes when ``group``'s rounds all ask for one competency and fewer people hold it than there
    are rounds: each round needs its own holder, since nobody sits twice in a loop."""
    every = set.intersection(*(set(rnd.competencies) for rnd in group))
    for competency in sorted(every):
        holders = sorted({p.id for rnd in group for p in pools[rnd.id].assessors if p.is_qualified(competency)})
        if len(holders) < len(group):
            names = ", ".join(f"'{rnd.id}'" for rnd in group)
            who = ", ".join(_quoted_each(holders)) if holders else "nobody"
            verb = "is" if len(holders) == 1 else "are"
            return (
                f"rounds {names} each need someone qualified in '{competency}' (nobody sits twice in a loop) but "
                f"only {len(holders)} {verb}: {who}",
                [
                    f"qualify {plural(len(group) - len(holders), 'more interviewer')} in '{competency}'",
                    f"take '{competency}' out of one of rounds {names}",
                ],
            )
    return None


def _quoted_each(items) -> list[str]:
    """Ids in quotes, as the shell turns quoted ids into names."""
    return [f"'{item}'" for item in items]


def _quoted(items) -> str:
    """'a', 'b' and 'c'."""
    return and_list(_quoted_each(items))


def _panel_blocker(rnd: Round, assessors):
    """Reason and fixes when no panel of the round's size can be qualified in all its competencies together
    (each is held by someone, but not by few enough people at once), whatever the calendars say."""
    if len(rnd.competencies) < 2:
        return None
    held = (([c for c in rnd.competencies if p.is_qualified(c)], False) for p in assessors)
    need = fewest_covering(skill_groups(rnd.competencies, held), full_mask(rnd.competencies))
    if need is None or need <= rnd.interviewers:
        return None
    names = _quoted(rnd.competencies)
    # Who is closest to covering the round alone: the one qualified in the most of its competencies.
    nearest = max(assessors, key=lambda p: sum(p.is_qualified(c) for c in rnd.competencies))
    missing = [c for c in rnd.competencies if not nearest.is_qualified(c)]
    seats = "one interviewer" if rnd.interviewers == 1 else f"{rnd.interviewers} interviewers"
    return (
        f"it has {seats} but no {'one' if rnd.interviewers == 1 else 'panel of that size'} is qualified in "
        f"{names} together (at least {need} people are needed)",
        [
            f"raise interviewers of round '{rnd.id}' to {need}",
            f"qualify '{nearest.id}' in {_quoted(missing)}",
            f"split round '{rnd.id}' so that each part asks for competencies one interviewer holds",
        ],
    )


def _room_fixes(loop: Loop, room: int) -> list[str]:
    """What would let ``loop``'s rounds fit its windows: a window longer by the shortfall, then (with a gap
    limit) longer breaks between rounds when all the windows together would hold them, else one more window."""
    zone = loop.candidate.get("timezone", "UTC")
    short = loop.minutes - room
    # The window to lengthen: the longest (the one the room was measured on when windows do not join).
    window = max(loop.windows, key=lambda w: (w.minutes, -w.start))
    day = minute_to_local(window.start, zone).strftime(DATE_FORMAT)
    fixes = [f"lengthen the window of {day} by at least {short} minutes (candidate's time)"]
    if loop.max_gap_minutes is not None and replace(loop, max_gap_minutes=None).room_minutes() >= loop.minutes:
        fixes.append(
            f"allow more than {loop.max_gap_minutes} minutes between rounds, so that the loop can spread "
            "over its windows"
        )
    else:
        fixes.append(f"add a window of at least {short} minutes")
    return fixes


def _round_blocker(problem, loop: Loop, rnd: Round, calendars, ledger: Ledger, pools: RoundPools):
    slot = problem.slot_minutes
    if rnd.outside_hiring_team > rnd.interviewers:
        return (
            f"it asks for {plural(rnd.outside_hiring_team, 'interviewer')} from outside the hiring team but has only "
            f"{plural(rnd.interviewers, 'seat')}",
            [
                f"lower outside_hiring_team of round '{rnd.id}' to {rnd.interviewers}",
                f"raise interviewers of round '{rnd.id}' to {rnd.outside_hiring_team}",
            ],
        )
    for competency in rnd.competencies:
        if not any(p.is_qualified(competency) for p in problem.interviewers):
            trainees = [p.id for p in problem.interviewers if p.is_trainee_in(competency)]
            fix = (
                f"qualify one of the trainees in '{competency}' ({', '.join(_quoted_each(trainees[:3]))})"
                if trainees
                else f"add an interviewer qualified in '{competency}'"
            )
            return f"no one is qualified in '{competency}'", [fix]
    panel = _panel_blocker(rnd, pools.assessors)
    if panel is not None:
        return panel
    starts = [g * slot for w in loop.windows for g in grid_starts(w.start, w.end, rnd.minutes, slot)]
    if not starts:
        return (
            f"it lasts {rnd.minutes} minutes but no candidate window holds that on the {slot}-minute grid",
            ["lengthen a candidate window"],
        )
    fitting = {p.id: _fitting_blocks(calendars[p.id], loop.windows, rnd.minutes, slot) for p in pools.assessors}
    with_time = [p for p in pools.assessors if fitting[p.id]]
    for competency in rnd.competencies:
        if not any(p.is_qualified(competency) for p in with_time):
            holders = [p for p in pools.assessors if p.is_qualified(competency)]
            return (
                f"no interviewer qualified in '{competency}' is free inside the candidate's windows",
                _widen_fixes(problem, loop, rnd, holders),
            )
    room = [p for p in with_time if _has_room(calendars[p.id], ledger, p.id, fitting[p.id])]
    for competency in rnd.competencies:
        if not any(p.is_qualified(competency) for p in room):
            capped = [p for p in with_time if p.is_qualified(competency)]
            kind = _cap_kind(capped, calendars, ledger, fitting)
            return (
                f"the people qualified in '{competency}' who are free then are all at their {kind} cap",
                [f"relax the {kind} cap of '{p.id}'" for p in capped[:3]],
            )
    if sum(is_outside(p, loop) for p in room) < rnd.outside_hiring_team:
        team = loop.hiring_team or "the hiring team"
        return (
            f"the seat rule for outside-team interviewers cannot be met: it needs {rnd.outside_hiring_team} "
            f"from outside {team} and only {sum(is_outside(p, loop) for p in room)} are free",
            [f"lower outside_hiring_team of round '{rnd.id}'", "widen the candidate's windows"],
        )
    if len(room) < rnd.interviewers:
        return (
            f"it needs {rnd.interviewers} qualified interviewers but only {len(room)} are free inside the "
            "candidate's windows",
            _widen_fixes(problem, loop, rnd, list(pools.assessors)),
        )
    if not any(pick_panel(rnd, loop, start, ledger, pools, set()) for start in starts):
        empty = Ledger(calendars)
        if any(pick_panel(rnd, loop, start, empty, pools, set()) for start in starts):
            return (
                "the qualified interviewers free inside the candidate's windows are already booked by other "
                "loops at those times",
                _widen_fixes(problem, loop, rnd, list(pools.assessors)),
            )
        return (
            "no common free time inside the candidate's windows for a panel that covers "
            f"{', '.join(repr(c) for c in rnd.competencies)}",
            _widen_fixes(problem, loop, rnd, list(pools.assessors)),
        )
    return None


def _fitting_blocks(calendar: Calendar, windows, minutes: int, slot: int) -> list[FreeBlock]:
    """The person's free blocks that hold a grid start of a ``minutes`` round inside one of ``windows``.

    Found from the windows' own blocks (bisect), not by asking every grid start of every window: for a
    200-loop problem with 42 loops unscheduled that was most of the time spent explaining them.
    """
    blocks, starts = calendar.blocks, calendar.block_starts
    found = []
    for window in windows:
        index = max(0, bisect_right(starts, window.start) - 1)
        while index < len(blocks) and blocks[index].start < window.end:
            block = blocks[index]
            if grid_starts(max(block.start, window.start), min(block.end, window.end), minutes, slot):
                found.append(block)
            index += 1
    return found


def _has_room(calendar: Calendar, ledger: Ledger, person_id: str, blocks: list[FreeBlock]) -> bool:
    """Whether the day and week of one of ``blocks`` still have room for a seat."""
    for block in blocks:
        day_room, week_room = calendar.day_room(block.day), calendar.week_room(block.week)
        if (day_room is None or ledger.day_seats[(person_id, block.day)] < day_room) and (
            week_room is None or ledger.week_seats[(person_id, block.week)] < week_room
        ):
            return True
    return False


def _cap_kind(people: list[Interviewer], calendars, ledger: Ledger, fitting: dict[str, list[FreeBlock]]) -> str:
    for person in people:
        calendar = calendars[person.id]
        for block in fitting[person.id]:
            week_room = calendar.week_room(block.week)
            if week_room is not None and ledger.week_seats[(person.id, block.week)] >= week_room:
                return "weekly"
    return "daily"


def _widen_fixes(problem: Problem, loop: Loop, rnd: Round, people: list[Interviewer]) -> list[str]:
    """'widen the window to include <time>' (or 'add a window on <day>') for the nearest days on which the round
    could be staffed."""
    zone = loop.candidate.get("timezone", "UTC")
    first = min(w.start for w in loop.windows)
    last = max(w.end for w in loop.windows)
    around = Span(first - SEARCH_DAYS * 1440, last + SEARCH_DAYS * 1440)
    outside_windows: dict[int, set[int]] = defaultdict(set)  # distance -> block starts
    for person in people[:50]:
        calendar = build_calendar(person, around)
        for block in calendar.blocks:
            if block.end - block.start < rnd.minutes:
                continue
            if any(w.start <= block.start and block.end <= w.end for w in loop.windows):
                continue
            distance = min(abs(block.start - first), abs(block.start - last))
            outside_windows[distance].add(max(block.start, first - SEARCH_DAYS * 1440))
    days: list = []  # local datetimes, at most one per local day
    # Nearest first; only the nearest blocks are put into words (most never are).
    for distance in sorted(outside_windows):
        for moment in sorted(minute_to_local(start, zone) for start in outside_windows[distance]):
            if moment.date() not in {d.date() for d in days}:
                days.append(moment)
            if len(days) == 2:
                break
        if len(days) == 2:
            break
    # Said as the coordinator would act: a time on a day that has a window widens it; any other day needs a
    # window of its own.
    window_days = {minute_to_local(minute, zone).date() for w in loop.windows for minute in (w.start, w.end - 1)}
    return [
        f"widen the window to include {day:{DATE_FORMAT}}, {day:%H:%M} (candidate's time)"
        if day.date() in window_days
        else f"add a window on {day:{DATE_FORMAT}} from {day:%H:%M} (candidate's time)"
        for day in days
    ] or [f"no qualified interviewer is free within {SEARCH_DAYS} days of the windows: add or qualify one"]
