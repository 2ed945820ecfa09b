"""Runs the shared conformance checker ``../shared/tools/ics_check.py`` on generated files.

The checker needs ``ical`` and ``vobject`` besides icalendar. It runs with the test interpreter
(``sys.executable``) once those are in the dev extras; until then ``ICS_CHECK_PYTHON`` or a
throw-away venv at ``/tmp/icsvenv`` can supply them. Tests skip only when the checker file itself
is absent (a checkout without the shared folder); a missing dependency fails loudly instead.
``ICS_CHECK_SCRIPT`` points at the checker when the checkout does not sit beside the shared folder.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

# tests/core/calendar/ics_checker.py -> parents[3] is the repository root; the checker sits beside it.
CHECKER = Path(
    os.environ.get("ICS_CHECK_SCRIPT")
    or Path(__file__).resolve().parents[3] / ".." / "shared" / "tools" / "ics_check.py"
)
_THROWAWAY_VENV_PYTHON = Path("/tmp/icsvenv/bin/python")


@dataclass(frozen=True)
class CheckResult:
    """What the checker said: exit status, problem lines, warning lines and the summary line."""

    returncode: int
    problems: tuple[str, ...]
    warnings: tuple[str, ...]
    summary: str
    output: str


def _checker_python() -> str:
    override = os.environ.get("ICS_CHECK_PYTHON")
    if override:
        return override
    if importlib.util.find_spec("ical") and importlib.util.find_spec("vobject"):
        return sys.executable
    if _THROWAWAY_VENV_PYTHON.exists():
        return str(_THROWAWAY_VENV_PYTHON)
    pytest.fail(
        "ics_check.py needs the 'ical' and 'vobject' packages: add them to the dev extras "
        "(or point ICS_CHECK_PYTHON at an interpreter that has them)."
    )


def run_ics_check(*args: str | Path) -> CheckResult:
    """Run the checker with ``args`` (paths and options); skip if the checker is not checked out."""
    if not CHECKER.is_file():
        pytest.skip(f"the shared checker {CHECKER} is not present in this checkout")
    completed = subprocess.run(
        [_checker_python(), str(CHECKER), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if completed.returncode == 2:
        pytest.fail(f"ics_check.py could not run: {completed.stderr or completed.stdout}")
    lines = completed.stdout.splitlines()
    summary = lines[-1] if lines else ""
    if not re.match(r"^\d+ files, \d+ problems", summary):
        pytest.fail(f"unexpected checker output: {completed.stdout}{completed.stderr}")
    warnings = tuple(line for line in lines[:-1] if ": warning: " in line)
    problems = tuple(line for line in lines[:-1] if ": warning: " not in line)
    return CheckResult(completed.returncode, problems, warnings, summary, completed.stdout)
