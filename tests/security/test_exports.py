"""CSV exports never hand a spreadsheet a formula: cells starting with = + - @ (or tab, CR) are neutralised."""

from __future__ import annotations

import csv
import io

import pytest
from coverage_builders import add_round, posting

from planner.core.spreadsheet import csv_text, neutralise_cell

FORMULAS = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1",
            "=cmd|' /C calc'!A0"]


@pytest.mark.parametrize("value", FORMULAS)
def test_formula_cells_get_an_apostrophe(value):
    assert neutralise_cell(value) == "'" + value


@pytest.mark.parametrize("value", ["Compiler design", "", "1", "a=b", "x-y", None, 3])
def test_plain_cells_are_kept(value):
    assert neutralise_cell(value) == ("" if value is None else str(value))


def test_csv_text_round_trips_with_neutralised_cells():
    rows = [["name", "note"], ["=1+1", "plain"], ["multi\nline", "-5"]]
    parsed = list(csv.reader(io.StringIO(csv_text(rows))))
    assert parsed == [["name", "note"], ["'=1+1", "plain"], ["multi\nline", "'-5"]]


def test_manager_coverage_csv_neutralises_names(login, db):
    """Competency and round names that look like formulas are written as text in the manager's download."""
    row, comps = posting(db, {"skill-a": ("must-have", 1)}, title="=Posting")
    comps["skill-a"].name = "=HYPERLINK(\"http://evil.example\",\"click\")"
    add_round(db, row, comps, "+cmd|' /C calc'!A0", {"skill-a": "primary"})
    db.commit()
    client = login("manager")
    response = client.get(f"/manager/postings/{row.id}/coverage.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    cells = [cell for line in csv.reader(io.StringIO(response.get_data(as_text=True))) for cell in line]
    assert "'=HYPERLINK(\"http://evil.example\",\"click\")" in cells
    assert "'+cmd|' /C calc'!A0" in cells
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
