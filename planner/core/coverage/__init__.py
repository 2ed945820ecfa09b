"""Coverage of a loop plan against a posting's competencies: engine, constraint, suggestion, diff."""

from planner.core.coverage.constraint import UncoveredMustHave, check_schedulable, uncovered_must_haves
from planner.core.coverage.diff import Change, diff_plans
from planner.core.coverage.engine import compute_coverage, coverage_status, worst_status
from planner.core.coverage.export import matrix_csv, matrix_rows
from planner.core.coverage.report import CompetencyCoverage, Coverage, Issue, MatrixRow, RoundCheck
from planner.core.coverage.staffing import PoolMember, Staffing, build_pool, check_round, team_slug
from planner.core.coverage.suggest import minimum_rounds, suggest_plan
from planner.core.coverage.types import (
    BenchEntry,
    CompetencyReq,
    RoundCompetency,
    RoundPlan,
    SeatRules,
    build_bench,
)

__all__ = [
    "BenchEntry",
    "Change",
    "CompetencyCoverage",
    "CompetencyReq",
    "Coverage",
    "Issue",
    "MatrixRow",
    "PoolMember",
    "RoundCheck",
    "RoundCompetency",
    "RoundPlan",
    "SeatRules",
    "Staffing",
    "UncoveredMustHave",
    "build_bench",
    "build_pool",
    "check_round",
    "check_schedulable",
    "compute_coverage",
    "coverage_status",
    "diff_plans",
    "matrix_csv",
    "matrix_rows",
    "minimum_rounds",
    "suggest_plan",
    "team_slug",
    "uncovered_must_haves",
    "worst_status",
]
