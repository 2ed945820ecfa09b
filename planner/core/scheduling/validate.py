"""An independent checker of results against every hard rule of DESIGN 5.2.

Deliberately written apart from the solver: it reads the result *document*, re-derives times with
``datetime`` and wall-clock arithmetic instead of the solver's minute blocks and ledgers, so a bug in
one is unlikely to be repeated in the other.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from planner.core.prose import plural
from planner.core.scheduling.problem import TRAINEE_LEVELS, Interviewer, Loop, Problem, Round

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def validate(problem: Problem, result: dict[str, Any]) -> list[str]:
    """Every violated hard rule of ``result`` for ``problem``, as sentences; empty when valid."""
    errors: list[str] = []
    people = {p.id: p for p in problem.interviewers}
    loops = {loop.id: loop for loop in problem.loops}
    seats: dict[str, list[tuple[datetime, datetime, str, bool]]] = defaultdict(list)
    entries = result.get("loops")
    if not isinstance(entries, list):
        return ["result has no 'loops' list"]
    seen: set[str] = set()
    for entry in entries:
        loop = loops.get(entry.get("id"))
        if loop is None:
            errors.append(f"result names unknown loop {entry.get('id')!r}")
            continue
        if loop.id in seen:
            errors.append(f"loop {loop.id!r} appears twice in the result")
        seen.add(loop.id)
        if entry.get("status") == "scheduled":
            errors += _check_loop(problem, loop, entry.get("interviews", []), people, seats)
        elif entry.get("status") != "unscheduled":
            errors.append(f"loop {loop.id!r}: status must be 'scheduled' or 'unscheduled'")
        elif entry.get("interviews"):
            errors.append(f"loop {loop.id!r}: unscheduled but lists interviews")
    errors += [f"loop {lid!r} is missing from the result" for lid in loops if lid not in seen]
    for person_id, person_seats in seats.items():
        errors += _check_person(people[person_id], person_seats)
    errors += _check_stats(result, people, seats)
    return errors


def _instant(value: Any) -> datetime | None:
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None
    return moment if moment.tzinfo is not None else None


def _check_loop(problem: Problem, loop: Loop, interviews: list[dict], people, seats) -> list[str]:
    errors: list[str] = []
    where = f"loop {loop.id!r}"
    by_round: dict[str, dict] = {}
    for item in interviews:
        if item.get("round") in by_round:
            errors.append(f"{where}: round {item.get('round')!r} is scheduled twice")
        by_round[item.get("round")] = item
    wanted = {r.id for r in loop.rounds}
    errors += [f"{where}: round {r!r} is not scheduled" for r in sorted(wanted - by_round.keys(), key=str)]
    errors += [f"{where}: unknown round {r!r}" for r in sorted(by_round.keys() - wanted, key=str)]
    times = []
    in_loop: dict[str, str] = {}
    for rnd in loop.rounds:
        item = by_round.get(rnd.id)
        if item is None:
            continue
        start, end = _instant(item.get("start")), _instant(item.get("end"))
        label = f"{where} round {rnd.id!r}"
        if start is None or end is None:
            errors.append(f"{label}: start and end must be date-times with an offset")
            continue
        errors += _check_round_time(problem, loop, rnd, start, end, label)
        times.append((start, end, rnd.id))
        assessors = list(item.get("interviewers", []))
        trainees = list(item.get("trainees", []))
        errors += _check_panel(loop, rnd, assessors, trainees, people, label)
        for person_id in assessors + trainees:
            if person_id not in people:
                continue
            if person_id in in_loop:
                errors.append(
                    f"{where}: {person_id!r} sits twice in the loop (rounds {in_loop[person_id]!r} and {rnd.id!r})"
                )
            in_loop[person_id] = rnd.id
            seats[person_id].append((start, end, label, person_id in assessors))
    if loop.ordered:
        errors += _check_order(loop, times, where)
    times.sort()
    for (_s1, e1, r1), (s2, _e2, r2) in zip(times, times[1:], strict=False):
        if s2 < e1:
            errors.append(f"{where}: rounds {r1!r} and {r2!r} overlap")
        elif loop.max_gap_minutes is not None and s2 - e1 > timedelta(minutes=loop.max_gap_minutes):
            errors.append(
                f"{where}: {int((s2 - e1).total_seconds() // 60)} minutes between rounds {r1!r} and "
                f"{r2!r}, more than max_gap_minutes {loop.max_gap_minutes}"
            )
    return errors


def _check_order(loop: Loop, times: list[tuple], where: str) -> list[str]:
    """An ordered loop's rounds in their listed order: each scheduled round ends before the next one starts."""
    position = {rnd.id: n for n, rnd in enumerate(loop.rounds)}
    listed = sorted(times, key=lambda t: position[t[2]])
    return [f"{where}: round {r2!r} starts before round {r1!r} ends, but the loop keeps the listed order"
            for (_s1, e1, r1), (s2, _e2, r2) in zip(listed, listed[1:], strict=False) if s2 < e1]


def _check_round_time(problem: Problem, loop: Loop, rnd: Round, start: datetime, end: datetime, label: str):
    errors = []
    if end - start != timedelta(minutes=rnd.minutes):
        errors.append(f"{label}: lasts {(end - start)} instead of {rnd.minutes} minutes")
    offset = start - _EPOCH
    if offset % timedelta(minutes=problem.slot_minutes):
        errors.append(f"{label}: start {start.isoformat()} is off the {problem.slot_minutes}-minute grid")
    start_min = offset.total_seconds() / 60
    end_min = (end - _EPOCH).total_seconds() / 60
    if not any(w.start <= start_min and end_min <= w.end for w in loop.windows):
        errors.append(f"{label}: not inside any of the candidate's windows")
    return errors


def _check_panel(loop: Loop, rnd: Round, assessors: list, trainees: list, people, label: str) -> list[str]:
    errors = []
    unknown = [p for p in assessors + trainees if p not in people]
    errors += [f"{label}: unknown interviewer {p!r}" for p in unknown]
    if len(assessors) != rnd.interviewers:
        errors.append(f"{label}: {plural(len(assessors), 'interviewer')} instead of {rnd.interviewers}")
    if len(set(assessors)) != len(assessors):
        errors.append(f"{label}: an interviewer is listed twice")
    known = [people[p] for p in assessors if p in people]
    for person in known:
        if not any(person.skills.get(c) == "qualified" for c in rnd.competencies):
            errors.append(f"{label}: {person.id!r} is not qualified in any of the round's competencies")
    for competency in rnd.competencies:
        if not any(person.skills.get(competency) == "qualified" for person in known):
            errors.append(f"{label}: nobody qualified in {competency!r} assesses it")
    outside = sum(1 for person in known if loop.hiring_team is None or person.team != loop.hiring_team)
    if outside < rnd.outside_hiring_team:
        errors.append(
            f"{label}: {plural(outside, 'interviewer')} from outside the hiring team, "
            f"{rnd.outside_hiring_team} required"
        )
    if trainees and not rnd.trainee:
        errors.append(f"{label}: has a trainee but the round asks for none")
    if len(trainees) > 1:
        errors.append(f"{label}: more than one trainee")
    for person_id in trainees:
        person = people.get(person_id)
        if person is None:
            continue
        if not any(person.skills.get(c) in TRAINEE_LEVELS for c in rnd.competencies):
            errors.append(f"{label}: trainee {person_id!r} is not a shadow or reverse-shadow in the round")
        if person_id in assessors:
            errors.append(f"{label}: {person_id!r} is both assessor and trainee")
    return errors


def _inside_working_hours(person: Interviewer, start: datetime, end: datetime) -> bool:
    """Whether every instant of ``[start, end)`` reads, on the person's wall clock, a time of one working
    day within the working hours (an end at the next local midnight is fine when the hours end at 24:00)."""
    zone = ZoneInfo(person.timezone)
    hours = person.working_hours
    local_start = start.astimezone(zone)
    if local_start.weekday() not in hours.days:
        return False
    last = end - timedelta(microseconds=1)
    moments = [start, last]
    if last > start and local_start.utcoffset() != last.astimezone(zone).utcoffset():
        # The clocks change during the interview, so the wall clock jumps: look at every minute.
        steps = int((last - start) // timedelta(minutes=1))
        moments += [start + timedelta(minutes=n) for n in range(1, steps + 1)]
    for moment in moments:
        local = moment.astimezone(zone)
        clock = local.hour * 60 + local.minute + (local.second + local.microsecond / 1e6) / 60
        if local.date() != local_start.date() or not hours.start <= clock < hours.end:
            return False
    return True


def _check_person(person: Interviewer, person_seats: list) -> list[str]:
    errors = []
    zone = ZoneInfo(person.timezone)
    blocked = [
        (_EPOCH + timedelta(minutes=s.start), _EPOCH + timedelta(minutes=s.end), kind)
        for kind, spans in (("busy", person.busy), ("existing", person.existing))
        for s in spans
    ]
    person_seats = sorted(person_seats, key=lambda seat: (seat[0], seat[1]))
    for start, end, label, _assessor in person_seats:
        if not _inside_working_hours(person, start, end):
            errors.append(f"{label}: outside the working hours of {person.id!r}")
        for lo, hi, kind in blocked:
            if lo < end and start < hi:
                errors.append(f"{label}: {person.id!r} has a {kind} block at that time")
    for (_s1, e1, l1, _), (s2, _e2, l2, _) in zip(person_seats, person_seats[1:], strict=False):
        if s2 < e1:
            errors.append(f"{person.id!r} is double-booked: {l1} and {l2}")
    days: dict = defaultdict(int)
    weeks: dict = defaultdict(int)
    for start, _end, _label, _a in person_seats:
        local = start.astimezone(zone).date()
        days[local] += 1
        weeks[local.isocalendar()[:2]] += 1
    old_days: dict = defaultdict(int)
    old_weeks: dict = defaultdict(int)
    for span in person.existing:
        local = (_EPOCH + timedelta(minutes=span.start)).astimezone(zone).date()
        old_days[local] += 1
        old_weeks[local.isocalendar()[:2]] += 1
    if person.max_per_day is not None:
        for day, count in sorted(days.items()):
            if count + old_days[day] > person.max_per_day:
                errors.append(
                    f"{person.id!r} has {count + old_days[day]} interviews on {day.isoformat()}, "
                    f"over the daily cap {person.max_per_day}"
                )
    if person.max_per_week is not None:
        for week, count in sorted(weeks.items()):
            if count + old_weeks[week] > person.max_per_week:
                errors.append(
                    f"{person.id!r} has {count + old_weeks[week]} interviews in ISO week "
                    f"{week[0]}-W{week[1]:02d}, over the weekly cap {person.max_per_week}"
                )
    return errors


def _check_stats(result: dict, people, seats) -> list[str]:
    stats = result.get("stats")
    if not isinstance(stats, dict):
        return ["result has no 'stats' object"]
    loads: dict = defaultdict(int)
    for person in people.values():
        zone = ZoneInfo(person.timezone)
        for span in person.existing:
            local = (_EPOCH + timedelta(minutes=span.start)).astimezone(zone).date()
            loads[(person.id, local.isocalendar()[:2])] += 1
    trainee_seats = 0
    for person_id, person_seats in seats.items():
        zone = ZoneInfo(people[person_id].timezone)
        for start, _end, _label, assessor in person_seats:
            if assessor:
                loads[(person_id, start.astimezone(zone).date().isocalendar()[:2])] += 1
            else:
                trainee_seats += 1
    entries = result.get("loops", [])
    expected = {
        "scheduled": sum(1 for e in entries if e.get("status") == "scheduled"),
        "unscheduled": sum(1 for e in entries if e.get("status") != "scheduled"),
        "load_sum_squares": sum(v * v for v in loads.values()),
        "max_load": max(loads.values(), default=0),
        "trainee_seats": trainee_seats,
    }
    return [
        f"stats.{key} is {stats.get(key)!r} but the plan gives {value}"
        for key, value in expected.items()
        if stats.get(key) != value
    ]
