"""The coverage matrix as rows for a CSV export or a plain-text table."""

from __future__ import annotations

from planner.core.coverage.report import Coverage
from planner.core.spreadsheet import csv_text

FIXED_HEADER = ("Competency", "Slug", "Priority", "Required", "Rounds", "Status", "Qualified", "In training")


def matrix_rows(coverage: Coverage) -> list[list[str]]:
    """Header plus one row per competency: fixed columns, then one column per round (by round name).

    A round cell holds "primary", "secondary" or "" ; bench columns are "" when no bench was given.
    """
    header = [*FIXED_HEADER, *(item.name for item in coverage.rounds)]
    rows = [header]
    for item in coverage.competencies:
        rows.append([
            item.name,
            item.slug,
            item.priority,
            str(item.required),
            str(item.count),
            item.status,
            "" if item.bench_qualified is None else str(item.bench_qualified),
            "" if item.bench_in_training is None else str(item.bench_in_training),
            *(cell or "" for cell in item.cells),
        ])
    return rows


def matrix_csv(coverage: Coverage) -> str:
    """The matrix as CSV text (RFC 4180 line endings), ready to send as a download; no cell runs as a formula."""
    return csv_text(matrix_rows(coverage))
