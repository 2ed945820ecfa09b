"""Without OR-Tools the engine still answers: first-fit plus local search, always valid."""

import sys

import pytest
from core.scheduling.schedbuild import random_problem

from planner.core.scheduling import load_problem, repair, solution_to_dict, solve, validate


@pytest.fixture
def no_ortools(monkeypatch):
    """Make `from ortools.sat.python import cp_model` fail as it would where OR-Tools is not installed."""
    monkeypatch.setitem(sys.modules, "ortools.sat.python", None)
    monkeypatch.setitem(sys.modules, "ortools.sat.python.cp_model", None)


@pytest.mark.parametrize("seed", range(8))
def test_fallback_results_are_valid_and_no_worse_than_first_fit(no_ortools, seed):
    """The fallback plan passes the validator and never has a larger Σ load² than plain first-fit."""
    prob = load_problem(random_problem(seed, people=10, loops=5))
    fallback = solve(prob)
    assert fallback.method == "greedy+local-search"
    result = solution_to_dict(fallback)
    assert validate(prob, result) == []
    greedy = solution_to_dict(solve(prob, improve=False))
    assert result["stats"]["scheduled"] == greedy["stats"]["scheduled"]
    assert result["stats"]["load_sum_squares"] <= greedy["stats"]["load_sum_squares"]


def test_fallback_repair_stays_valid(no_ortools):
    """Repairs without OR-Tools fall back to first-fit re-planning and stay valid."""
    prob = load_problem(random_problem(5, people=8, loops=3))
    result = solution_to_dict(solve(prob))
    for entry in result["loops"]:
        for interview in entry.get("interviews", []):
            fixed = repair(prob, result, entry["id"], interview["round"], interview["interviewers"][0])
            assert validate(prob, fixed) == []
