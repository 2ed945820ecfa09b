"""Model pieces every CP-SAT model of the scheduler shares: the candidate's day, caps and the fairness cost.

``candidate_day`` states one loop's rules for the candidate (no overlap, gaps, order, the day's span);
``add_caps`` bounds new seats per person and local day / ISO week by what the ledger leaves; and
``fairness_units`` encodes Σ load² so that the LP relaxation is exact.
"""

from __future__ import annotations

from planner.core.scheduling.availability import Calendar
from planner.core.scheduling.ledger import Ledger


def candidate_day(model, slot: int, rounds: list[tuple], gap: int | None, present, ordered: bool = False) -> tuple:
    """The candidate's rules for one loop: rounds never overlap, at most ``gap`` minutes between rounds, and
    with ``ordered`` each round starts after the one listed before it ends.

    ``rounds`` are (round id, start grid variable, minutes, allowed grid ranges), in the loop's order; every
    rule holds when ``present`` is true. Returns ``(span, first, last, upper bound)`` (the candidate's day, whose length
    is the idle-time objective) and ``(is-first booleans by round, follows booleans by (round, before))``
    for the gap rule, each None when the loop has one round or no gap rule.
    """
    if len(rounds) < 2:
        return None, None
    intervals = [
        model.new_optional_fixed_size_interval_var(slot * start, minutes, present, "")
        for _r, start, minutes, _g in rounds
    ]
    model.add_no_overlap(intervals)
    if ordered:
        for (_r, start, minutes, _g), (_n, after, _m, _h) in zip(rounds, rounds[1:], strict=False):
            model.add(slot * after >= slot * start + minutes).only_enforce_if(present)
            if gap is not None:  # implied by the general gap rule below; said directly, it propagates at once
                model.add(slot * after - slot * start - minutes <= gap).only_enforce_if(present)
    lo = min(slot * ranges[0][0] for _r, _s, _m, ranges in rounds)
    hi = max(slot * ranges[-1][1] + minutes for _r, _s, minutes, ranges in rounds)
    first = model.new_int_var(lo, hi, "")
    last = model.new_int_var(lo, hi, "")
    span = model.new_int_var(0, hi - lo, "")
    model.add(span == last - first)
    # Rounds never overlap, so the day is at least as long as its rounds: implied, but it gives the LP the
    # bound that makes an idle-free day provably optimal at once (without it the idle-time pass spent most of
    # its budget raising a bound far below the rounds' own length).
    model.add(span >= sum(minutes for _r, _s, minutes, _g in rounds)).only_enforce_if(present)
    for _r, start, minutes, _g in rounds:
        model.add(first <= slot * start).only_enforce_if(present)
        model.add(last >= slot * start + minutes).only_enforce_if(present)
    if gap is None:
        return (span, first, last, hi - lo), None
    firsts = {}
    follows = {}
    for round_id, start, _m, _g in rounds:
        is_first = model.new_bool_var("")
        firsts[round_id] = is_first
        preds = []
        for other_id, other_start, other_minutes, _o in rounds:
            if other_id == round_id:
                continue
            after = model.new_bool_var("")
            gap_expr = slot * start - slot * other_start - other_minutes
            model.add(gap_expr >= 0).only_enforce_if(after)
            model.add(gap_expr <= gap).only_enforce_if(after)
            preds.append(after)
            follows[(round_id, other_id)] = after
        model.add(is_first + sum(preds) >= present)
    model.add(sum(firsts.values()) == present)
    return (span, first, last, hi - lo), (firsts, follows)


def add_caps(model, calendars: dict[str, Calendar], ledger: Ledger, per_day: dict, per_week: dict) -> dict:
    """Daily and weekly caps on new seats (``per_day`` / ``per_week``: key -> seat variables), less what the
    ledger already holds. Returns the room left per (person, ISO week) that has a weekly cap."""
    for (person_id, day), seats in per_day.items():
        room = calendars[person_id].day_room(day)
        if room is not None:
            room -= ledger.day_seats[(person_id, day)]
            if len(seats) > room:
                model.add(sum(seats) <= room)
    week_rooms = {}
    for (person_id, week), seats in per_week.items():
        room = calendars[person_id].week_room(week)
        if room is not None:
            room -= ledger.week_seats[(person_id, week)]
            week_rooms[(person_id, week)] = room
            if len(seats) > room:
                model.add(sum(seats) <= room)
    return week_rooms


def fairness_units(model, ledger: Ledger, assessor_week: dict, week_rooms: dict) -> tuple[list, dict]:
    """Σ load² as a convex unary encoding (exact in the LP relaxation).

    ``assessor_week``: (person, ISO week) -> [(loop key, assessor variable)]. Per key, booleans u1 >= u2 >= ...
    count the new assessor seats; the k-th costs (base+k)^2 - (base+k-1)^2 over the ``base`` seats the
    person already has that week. Returns the (cost, unit) terms and the units per key.
    """
    terms = []
    units_by_key = {}
    for key, seats in sorted(assessor_week.items()):
        person_id, week = key
        base = ledger.assessor_load(person_id, week)
        most = len({loop for loop, _ in seats})
        room = week_rooms.get(key)
        if room is not None:
            most = min(most, room)
        units = [model.new_bool_var("") for _ in range(most)]
        model.add(sum(v for _, v in seats) == sum(units))
        for higher, lower in zip(units[1:], units, strict=False):
            model.add_implication(higher, lower)
        terms += [(2 * (base + k) - 1, unit) for k, unit in enumerate(units, start=1)]
        units_by_key[key] = units
    return terms, units_by_key
