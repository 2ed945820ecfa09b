"""The idle-time pass: candidates' days get shorter while every seat keeps its person and day."""

import pytest
from core.scheduling.schedbuild import random_problem

from planner.core.scheduling import load_problem, solution_to_dict, validate
from planner.core.scheduling.availability import build_calendars
from planner.core.scheduling.cpsat import solve_neighbourhood
from planner.core.scheduling.engine import stats_of
from planner.core.scheduling.greedy import greedy_plans
from planner.core.scheduling.ledger import Ledger
from planner.core.scheduling.panels import all_pools
from planner.core.scheduling.problem import Solution
from planner.core.scheduling.result import score


def _seats(plans):
    return sorted(
        (plan.loop_id, i.round_id, person)
        for plan in plans
        for i in plan.interviews
        for person in i.interviewers + i.trainees
    )


@pytest.mark.parametrize("seed", range(16))
def test_re_timing_first_fit_keeps_every_seat_and_never_lengthens_a_day(seed):
    """Random problems (zones, busy time, caps, gap rules, a daylight-saving week on some seeds), solved
    whole from first-fit's plan: when nothing ranks higher, the same people sit and only times move."""
    prob = load_problem(random_problem(seed, people=8, loops=4, dst_week=seed % 2 == 0))
    calendars, pools = build_calendars(prob), all_pools(prob)
    plans = greedy_plans(prob, calendars)
    outcome = solve_neighbourhood(
        prob,
        calendars,
        Ledger(calendars),
        list(prob.loops),
        pools,
        {p.loop_id: p for p in plans},
        seed=seed,
        retime_unchanged=True,
    )
    new = [outcome.plans[loop.id] for loop in prob.loops]
    before, after = score(prob, plans, calendars), score(prob, new, calendars)
    document = solution_to_dict(Solution(tuple(new), stats=stats_of(prob, new, calendars)))
    assert validate(prob, document) == []
    tiers = (after.scheduled, -after.load_sum_squares, after.trainee_seats)
    assert tiers >= (before.scheduled, -before.load_sum_squares, before.trainee_seats)
    if tiers == (before.scheduled, -before.load_sum_squares, before.trainee_seats):
        assert _seats(new) == _seats(plans)
        assert after.idle_minutes <= before.idle_minutes


def _two_loops():
    """Ana (a) and Ben (b) free all Monday; loop L1 has an a-round and a b-round, loop L2 one a-round."""
    from core.scheduling.schedbuild import MONDAY, loop, person, problem, rnd

    window = [(f"{MONDAY}T09:00:00Z", f"{MONDAY}T17:00:00Z")]
    doc = problem(
        [person("ana", {"a": "qualified"}), person("ben", {"b": "qualified"})],
        [loop("L1", [rnd("r1", ["a"]), rnd("r2", ["b"])], window), loop("L2", [rnd("r3", ["a"])], window)],
    )
    prob = load_problem(doc)
    return prob, build_calendars(prob), all_pools(prob)


def _at(prob, hour: int) -> int:
    """Minutes since the epoch of ``hour``:00 UTC on the problem's Monday."""
    return min(w.start for w in prob.loops[0].windows) + (hour - 9) * 60


def _plan(prob, loop_id, *seats):
    from planner.core.scheduling.problem import Interview, LoopPlan

    interviews = tuple(Interview(r, _at(prob, h), _at(prob, h) + 60, (p,), ()) for r, p, h in seats)
    return LoopPlan(loop_id, tuple(sorted(interviews, key=lambda i: i.start)))


def _booked(ledger):
    return {person: sorted(spans) for person, spans in ledger.booked.items() if spans}


def test_a_settled_idle_time_pass_takes_its_times_where_they_still_fit():
    from planner.core.scheduling.ledger import ledger_of
    from planner.core.scheduling.lns_steps import settle_retimed

    prob, calendars, pools = _two_loops()
    current = [_plan(prob, "L1", ("r1", "ana", 9), ("r2", "ben", 12)), _plan(prob, "L2", ("r3", "ana", 14))]
    ledger = ledger_of(calendars, current)
    shorter = {"L1": _plan(prob, "L1", ("r1", "ana", 11), ("r2", "ben", 12))}
    moved, extra = settle_retimed(prob, calendars, ledger, current, pools, (0,), (1,), shorter, 0, None)
    assert moved and extra == 0.0
    assert current[0] == shorter["L1"]
    assert _booked(ledger) == _booked(ledger_of(calendars, current))


def test_a_settled_pass_whose_place_was_taken_gets_a_pass_of_its_own():
    """The pass moved L1's a-round to 11:00, but a later step put L2 on Ana at 11:00 meanwhile: L1 keeps its
    people and is re-timed around the plan as it is now, so its day still loses the two-hour wait."""
    from planner.core.scheduling.ledger import ledger_of
    from planner.core.scheduling.lns_steps import settle_retimed
    from planner.core.scheduling.result import idle_minutes

    prob, calendars, pools = _two_loops()
    current = [_plan(prob, "L1", ("r1", "ana", 9), ("r2", "ben", 12)), _plan(prob, "L2", ("r3", "ana", 11))]
    ledger = ledger_of(calendars, current)
    shorter = {"L1": _plan(prob, "L1", ("r1", "ana", 11), ("r2", "ben", 12))}
    moved, _extra = settle_retimed(prob, calendars, ledger, current, pools, (0,), (1,), shorter, 0, None)
    assert moved
    assert idle_minutes(current[0].interviews) == 0
    assert _seats(current) == _seats([_plan(prob, "L1", ("r1", "ana", 9), ("r2", "ben", 12)), current[1]])
    assert _booked(ledger) == _booked(ledger_of(calendars, current))
    document = solution_to_dict(Solution(tuple(current), stats=stats_of(prob, current, calendars)))
    assert validate(prob, document) == []


def test_a_loop_re_planned_since_its_pass_is_left_to_its_new_plan():
    from planner.core.scheduling.ledger import ledger_of
    from planner.core.scheduling.lns_steps import settle_retimed

    prob, calendars, pools = _two_loops()
    current = [_plan(prob, "L1", ("r1", "ana", 9), ("r2", "ben", 12)), _plan(prob, "L2", ("r3", "ana", 14))]
    ledger = ledger_of(calendars, current)
    shorter = {"L1": _plan(prob, "L1", ("r1", "ana", 11), ("r2", "ben", 12))}
    assert settle_retimed(prob, calendars, ledger, current, pools, (0,), (0, 1), shorter, 0, None) == (False, 0.0)
    assert current[0] == _plan(prob, "L1", ("r1", "ana", 9), ("r2", "ben", 12))


@pytest.mark.parametrize("seed", range(8))
def test_retime_plans_keeps_every_seat_and_never_lengthens_a_day(seed):
    """First-fit's plans of random problems re-timed alone (half of these seeds have a day to shorten)."""
    from planner.core.scheduling.cpsat import retime_plans

    prob = load_problem(random_problem(100 + seed, people=12, loops=4, dst_week=seed % 2 == 1))
    calendars, pools = build_calendars(prob), all_pools(prob)
    plans = greedy_plans(prob, calendars)
    shorter, _det = retime_plans(
        prob, calendars, Ledger(calendars), list(prob.loops), pools, {p.loop_id: p for p in plans}
    )
    new = plans if shorter is None else [shorter[loop.id] for loop in prob.loops]
    assert _seats(new) == _seats(plans)
    assert score(prob, new, calendars).idle_minutes <= score(prob, plans, calendars).idle_minutes
    if shorter is not None:
        assert score(prob, new, calendars).idle_minutes < score(prob, plans, calendars).idle_minutes
    document = solution_to_dict(Solution(tuple(new), stats=stats_of(prob, new, calendars)))
    assert validate(prob, document) == []


def test_an_idle_free_day_is_found_and_proven_at_once():
    """Six loops of five rounds, each round with its own person free all day, planned with half-hour waits
    between rounds: the pass closes every wait and proves it on a tiny budget. The candidate's day is at least
    as long as its rounds; told so, the LP bound meets the first idle-free answer (without it this budget
    found no shorter day at all)."""
    from core.scheduling.schedbuild import MONDAY, loop, person, problem, rnd

    from planner.core.scheduling.cpsat import _extract, _hint_values, _values_of
    from planner.core.scheduling.cpsat_model import ModelBuilder
    from planner.core.scheduling.problem import Interview, LoopPlan
    from planner.core.scheduling.result import idle_minutes
    from planner.core.scheduling.retime import shorten_days

    comps = ["a", "b", "c", "d", "e"]
    people = [person(f"{c}{k}", {c: "qualified"}) for c in comps for k in range(6)]
    window = [(f"{MONDAY}T09:00:00Z", f"{MONDAY}T17:00:00Z")]
    rounds = [rnd(f"r{c}", [c], minutes=45 if c in "ab" else 60) for c in comps]
    prob = load_problem(
        problem(people, [loop(f"L{k}", rounds, window, max_gap_minutes=90) for k in range(6)])
    )
    calendars, pools = build_calendars(prob), all_pools(prob)
    plans = {}
    for k, each in enumerate(prob.loops):
        begin, interviews = each.windows[0].start + 15 * k, []
        for person_id, r in zip(comps, each.rounds, strict=True):
            interviews.append(Interview(r.id, begin, begin + r.minutes, (f"{person_id}{k}",), ()))
            begin += r.minutes + 30
        plans[each.id] = LoopPlan(each.id, tuple(interviews))
    builder = ModelBuilder(prob, calendars, Ledger(calendars), list(prob.loops), pools, frozenset())
    for each in prob.loops:
        builder.build_loop(each)
    values = _values_of(builder.model, _hint_values(builder, plans, []))
    shorter = shorten_days(builder, values, seed=0, wall_time=30, budget=0.002)
    assert shorter.improved and shorter.optimal
    new = _extract(builder, shorter.values)
    assert sum(idle_minutes(plan.interviews) for plan in new.values()) == 0
    assert _seats(new.values()) == _seats(plans.values())
