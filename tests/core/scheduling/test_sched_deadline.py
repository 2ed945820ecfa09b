"""Time limits: a solve's wall-clock cap is read after its model is built, and steps stop being started
when building one at this machine's pace would run past the deadline."""

from time import perf_counter

from core.scheduling.schedbuild import random_problem

from planner.core.scheduling import load_problem
from planner.core.scheduling.cpsat_solver import seconds_left
from planner.core.scheduling.lns_steps import BUILD_SECONDS_PER_ROUND
from planner.core.scheduling.lns_steps import time_for as _time_for


def test_without_a_deadline_the_cap_is_the_given_wall_time():
    assert seconds_left(30.0, None) == 30.0


def test_a_deadline_sooner_than_the_wall_time_caps_the_solve():
    left = seconds_left(30.0, perf_counter() + 5.0)
    assert 4.0 < left <= 5.0


def test_a_deadline_already_passed_leaves_the_solver_a_token_moment():
    assert seconds_left(30.0, perf_counter() - 1.0) == 0.01


def test_a_step_is_not_started_when_building_it_at_the_measured_pace_would_pass_the_deadline():
    prob = load_problem(random_problem(3, people=8, loops=4))
    group = list(range(len(prob.loops)))
    rounds = sum(len(loop.rounds) for loop in prob.loops)
    deadline = perf_counter() + 0.5
    assert _time_for(prob, group, None, pace=100.0)
    assert _time_for(prob, group, deadline, pace=BUILD_SECONDS_PER_ROUND)
    assert not _time_for(prob, group, deadline, pace=1.0 / rounds * 2)
