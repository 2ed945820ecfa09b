"""Scheduling engine: assigns assessors, trainees and start times to interview loops (DESIGN 5.2).

Importing this package is cheap: OR-Tools is only imported when the optimiser runs.
"""

from planner.core.scheduling.engine import solve
from planner.core.scheduling.parse import ProblemError, load_problem
from planner.core.scheduling.problem import Problem, Solution
from planner.core.scheduling.repair import MAX_MOVED, RepairError, Substitute, repair, substitutes
from planner.core.scheduling.result import solution_to_dict
from planner.core.scheduling.validate import validate

__all__ = [
    "MAX_MOVED",
    "Problem",
    "ProblemError",
    "RepairError",
    "Solution",
    "Substitute",
    "load_problem",
    "repair",
    "solution_to_dict",
    "solve",
    "substitutes",
    "validate",
]
