"""The idle-time pass: re-time the rounds of a solved neighbourhood, every seat kept, for shorter candidate days.

Idle time is the last objective, so this pass may not change anything ranked above it: every seat keeps
its person and its person's local day (so loads, caps and trainee seats stay), and rounds a repair kept
at their old time stay there. What is left is small: one start per round, allowed where all of its
people are free that day and inside the candidate's windows, the candidate's and each person's rounds
apart, and the gap rule. Built on its own it is usually proven in a few milliseconds; solved as the
neighbourhood model with every seat fixed it needed presolve and stopped at its budget on most steps
(0.07-0.08 s each on the one-week hiring event).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from planner.core.scheduling.cpsat_model import ModelBuilder
from planner.core.scheduling.cpsat_rules import candidate_day
from planner.core.scheduling.cpsat_solver import flat_solver

#: Deterministic seconds for one pass. On the one-week hiring event most passes are proven within 0.013;
#: on the slowest the best days were found by 0.005-0.01 and the rest went on the proof (0.16 det-s).
RETIME_BUDGET = 0.02


@dataclass
class Retimed:
    """Solution values of the neighbourhood model after the pass (the given ones when nothing got shorter),
    whether any start changed, and whether the candidates' days are proven as short as they can be."""

    values: list[int]
    improved: bool
    optimal: bool
    deterministic_time: float


def shorten_days(
    builder: ModelBuilder, values: list[int], seed: int, wall_time: float, budget: float = RETIME_BUDGET
) -> Retimed:
    """``values`` (a solution of the builder's model) re-timed for shorter candidate days."""
    cp = builder.cp
    model = cp.CpModel()
    slot = builder.slot
    current = _total_span(builder, values)
    kept = {
        (loop_id, old.round_id): old.start // slot - builder.origin
        for same_time, loop_id, old in builder.same_times
        if values[same_time.index]
    }
    starts: dict[tuple[str, str], object] = {}
    person_day: dict[tuple[str, int], list] = defaultdict(list)
    spans = []
    always = model.new_constant(1)
    for loop in builder.loops:
        if not values[builder.scheduled[loop.id].index]:
            continue
        rounds = []
        for rnd in loop.rounds:
            rv = builder.rounds[(loop.id, rnd.id)]
            domain = cp.Domain.from_intervals([list(r) for r in rv.ranges])
            seated = [o for o in rv.options if _chosen(o, values)]
            for option in seated:
                domain = domain.intersection_with(cp.Domain.from_intervals([list(r) for r in option.ranges]))
            if (loop.id, rnd.id) in kept or len(loop.rounds) < 2:
                # Kept by a repair, or a one-round loop (no day to shorten): it stays where it is and only
                # takes part as a fixed seat of its people.
                stay = kept.get((loop.id, rnd.id), values[rv.start.index])
                domain = domain.intersection_with(cp.Domain.from_values([stay]))
            start = model.new_int_var_from_domain(domain, "")
            starts[(loop.id, rnd.id)] = start
            rounds.append((rnd.id, start, rnd.minutes, rv.ranges))
            interval = model.new_fixed_size_interval_var(slot * start, rnd.minutes, "")
            for option in seated:
                person_day[(option.person_id, option.day)].append(interval)
        span, _gaps = candidate_day(model, slot, rounds, loop.max_gap_minutes, always, loop.ordered)
        if span is not None:
            spans.append(span[0])
    if not spans:
        return Retimed(values, improved=False, optimal=True, deterministic_time=0.0)
    for intervals in person_day.values():
        if len(intervals) > 1:
            model.add_no_overlap(intervals)
    model.minimize(sum(spans))
    for (loop_id, round_id), start in starts.items():
        model.add_hint(start, values[builder.rounds[(loop_id, round_id)].start.index])
    # The neighbourhoods' settings (no presolve, no probing, fewer cuts): on the 39 passes of three hiring
    # events the same proven days in 0.23 s of CPU instead of 0.54 (a pass is a few milliseconds of search
    # behind a fixed cost of presolve and probing).
    solver = flat_solver(cp, seed, budget, wall_time)
    # Branching on the LP found the best days of the slowest captured pass in 0.005 det-s instead of 0.02+.
    solver.parameters.search_branching = cp.LP_SEARCH
    status = solver.solve(model)
    det = solver.deterministic_time
    optimal = status == cp.OPTIMAL
    if status not in (cp.OPTIMAL, cp.FEASIBLE) or solver.objective_value >= current:
        return Retimed(values, improved=False, optimal=optimal, deterministic_time=det)
    new = list(values)
    for key, start in starts.items():
        new[builder.rounds[key].start.index] = solver.value(start)
    return Retimed(new, improved=True, optimal=optimal, deterministic_time=det)


def _chosen(option, values: list[int]) -> bool:
    return any(var is not None and values[var.index] for var in (option.assessor, option.trainee))


def _total_span(builder: ModelBuilder, values: list[int]) -> int:
    """Σ over scheduled loops of their last end minus first start (the pass's objective) in ``values``."""
    total = 0
    for loop in builder.loops:
        if len(loop.rounds) < 2 or not values[builder.scheduled[loop.id].index]:
            continue
        begins = [values[builder.rounds[(loop.id, r.id)].start.index] * builder.slot for r in loop.rounds]
        ends = [b + r.minutes for b, r in zip(begins, loop.rounds, strict=True)]
        total += max(ends) - min(begins)
    return total
