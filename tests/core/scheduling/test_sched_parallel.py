"""Independent parts of a problem (no shared person-week) are improved apart, on threads, and merge exactly."""

import json
from pathlib import Path

import pytest

from planner.core.scheduling import lns, load_problem, solution_to_dict, solve, validate
from planner.core.scheduling.availability import build_calendars
from planner.core.scheduling.panels import all_pools

FIXTURE = Path(__file__).resolve().parents[3] / "benchmarks" / "fixtures" / "s-easy-s1.json"


def _problem():
    if not FIXTURE.exists():  # pragma: no cover - the benchmark fixtures ship with the repository
        pytest.skip("benchmark fixture missing")
    return load_problem(json.loads(FIXTURE.read_text()))


def _reachable_weeks(problem, calendars, pools, loop):
    people = {p.id for rp in pools[loop.id].values() for p in (*rp.assessors, *rp.trainees)}
    return {
        (person_id, block.week)
        for person_id in people
        for block in calendars[person_id].blocks
        for window in loop.windows
        if block.start < window.end and window.start < block.end
    }


def test_components_share_no_person_week():
    """The benchmark week spans two ISO weeks: its loops split into parts that never compete for a person-week."""
    problem = _problem()
    calendars, pools = build_calendars(problem), all_pools(problem)
    parts = lns.independent_components(problem, calendars, pools)
    assert sorted(n for part in parts for n in part) == list(range(len(problem.loops)))
    assert len(parts) == 2
    keys = [
        set().union(*(_reachable_weeks(problem, calendars, pools, problem.loops[n]) for n in part)) for part in parts
    ]
    assert not keys[0] & keys[1]


def test_parallel_parts_give_the_sequential_plan(monkeypatch):
    """Running the parts on two threads or one after the other gives the identical, valid plan."""
    problem = _problem()
    parallel = solution_to_dict(solve(problem, seed=1))
    monkeypatch.setattr(lns, "PARALLEL_PARTS", 1)
    sequential = solution_to_dict(solve(problem, seed=1))
    for result in (parallel, sequential):
        del result["stats"]["seconds"]
    assert parallel == sequential
    assert validate(problem, parallel) == []


def test_solving_ahead_on_an_idle_core_changes_nothing(monkeypatch):
    """A step solved ahead on the idle core is used only when it is exactly what the next step would give."""
    problem = _problem()
    calendars, pools = build_calendars(problem), all_pools(problem)
    # Small neighbourhoods, so each part takes several steps per pass and steps can be solved ahead.
    monkeypatch.setattr(lns, "MONOLITHIC_LOOPS", 2)
    monkeypatch.setattr(lns, "NEIGHBOURHOOD_LOOPS", 2)
    from planner.core.scheduling.greedy import greedy_plans

    # Count the answers solved ahead that were used, so this test cannot pass without exercising them.
    used = []
    original = lns._Ahead.result

    def counted(self):
        used.append(self)
        return original(self)

    monkeypatch.setattr(lns._Ahead, "result", counted)
    plans = greedy_plans(problem, calendars)
    for part in lns.independent_components(problem, calendars, pools):
        ahead = lns._improve_part(problem, calendars, plans, pools, part, 1, 2.0, None, None, lns._Cores(2))
        alone = lns._improve_part(problem, calendars, plans, pools, part, 1, 2.0, None, None, lns._Cores(1))
        assert ahead.plans == alone.plans
        assert (ahead.steps, ahead.deterministic_time, ahead.proven_optimal) == (
            alone.steps,
            alone.deterministic_time,
            alone.proven_optimal,
        )
    assert used, "no step was solved ahead: the scenario no longer exercises it"


def test_first_pass_takes_neighbourhoods_with_an_unscheduled_loop_first():
    """Groups holding an unscheduled loop move to the front; the others keep their time order."""
    from planner.core.scheduling.neighbourhoods import unscheduled_first
    from planner.core.scheduling.problem import Interview, LoopPlan

    done = LoopPlan("x", (Interview("r", 0, 60, ("a",), ()),))
    plans = [done, done, LoopPlan("late"), done, done, LoopPlan("later"), done]
    groups = [[0, 1], [3, 4], [2], [6], [5]]
    assert unscheduled_first(groups, plans) == [[2], [5], [0, 1], [3, 4], [6]]


def test_idle_time_passes_run_beside_the_next_step_and_are_settled(monkeypatch):
    """Improved steps hand their idle-time pass to a thread; the plans it settles are valid, the same on
    every run, and the candidates' days of the settled loops are no longer than before the pass."""
    problem = _problem()
    monkeypatch.setattr(lns, "MONOLITHIC_LOOPS", 2)
    monkeypatch.setattr(lns, "NEIGHBOURHOOD_LOOPS", 3)
    settled = []
    original = lns.settle_retimed

    def counted(problem, calendars, ledger, current, pools, group, taken, shorter, seed, deadline):
        before = {n: current[n] for n in group}
        outcome = original(problem, calendars, ledger, current, pools, group, taken, shorter, seed, deadline)
        settled.extend((before[n], current[n]) for n in group if current[n] != before[n])
        return outcome

    monkeypatch.setattr(lns, "settle_retimed", counted)
    first = solution_to_dict(solve(problem, seed=2))
    assert settled, "no idle-time pass moved a loop: the scenario no longer exercises them"
    from planner.core.scheduling.result import idle_minutes

    for old, new in settled:
        assert idle_minutes(new.interviews) <= idle_minutes(old.interviews)
    second = solution_to_dict(solve(problem, seed=2))
    for result in (first, second):
        del result["stats"]["seconds"]
    assert first == second
    assert validate(problem, first) == []


def test_loops_still_unplaced_are_re_planned_with_a_wider_circle(monkeypatch):
    """With two-loop neighbourhoods the tight fixture keeps a loop unplaced; the loops-only step over the
    loops in its way places it, and the plan stays valid. Without that step the same search stops at 9."""
    path = FIXTURE.with_name("s-tight-s1.json")
    problem = load_problem(json.loads(path.read_text()))
    monkeypatch.setattr(lns, "MONOLITHIC_LOOPS", 2)
    monkeypatch.setattr(lns, "NEIGHBOURHOOD_LOOPS", 2)
    monkeypatch.setattr(lns, "ESCALATED_LOOPS", 10)
    widened = solve(problem, seed=0)
    assert widened.stats["scheduled"] == 10
    assert validate(problem, solution_to_dict(widened)) == []
    monkeypatch.setattr(lns, "ESCALATED_STEPS", 0)
    assert solve(problem, seed=0).stats["scheduled"] == 9
