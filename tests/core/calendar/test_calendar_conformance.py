"""Every kind of calendar file and email the app produces passes ../shared/tools/ics_check.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.calendar.ics_checker import run_ics_check
from tests.core.calendar.ics_scenario import email_files, predecessor_of, write_files

# invite -> reschedule -> room change -> reassignment (cancel + request) -> cancel, and the
# candidate's copies: each later version must be a valid successor of the earlier one.
SERIES_PAIRS = [
    ("invite.ics", "reschedule.ics"),
    ("reschedule.ics", "relocate.ics"),
    ("relocate.ics", "reassign-cancel.ics"),
    ("relocate.ics", "reassign-request.ics"),
    ("reassign-cancel.ics", "reassign-request.ics"),
    ("reassign-request.ics", "cancel.ics"),
    ("candidate-invite.ics", "candidate-reschedule.ics"),
    ("candidate-reschedule.ics", "candidate-cancel.ics"),
]
# A published itinerary is a static download; the checker treats any multi-event PUBLISH as a feed
# and hints at refresh properties, which would be false promises in a one-off file.
ITINERARY_WARNING = "itinerary.ics: warning: feed has neither REFRESH-INTERVAL"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """All generated files, written once to a temporary directory."""
    return write_files(tmp_path_factory.mktemp("calendar-outputs"))


def _pair_args(outputs: dict[str, Path]) -> list[str]:
    args = []
    for original, updated in SERIES_PAIRS:
        args += ["--pair", str(outputs[original]), str(outputs[updated])]
    return args


def test_whole_history_of_ics_files_and_request_emails_passes(outputs):
    """All .ics files and REQUEST emails, checked together as one version history, have no problems."""
    files = [p for name, p in outputs.items() if name.endswith(".ics") or "-request-" in name]
    result = run_ics_check(*files, *_pair_args(outputs))
    assert result.problems == (), result.output
    assert result.returncode == 0, result.output
    assert all(ITINERARY_WARNING in w for w in result.warnings), result.output


def test_everything_but_the_itinerary_passes_strict(outputs):
    """With --strict (warnings fail too) every file except the static itinerary is clean."""
    files = [
        p
        for name, p in outputs.items()
        if name != "itinerary.ics" and (name.endswith(".ics") or "-request-" in name)
    ]
    result = run_ics_check("--strict", *files, *_pair_args(outputs))
    assert result.returncode == 0, result.output
    assert result.warnings == ()


def test_itinerary_only_warns_about_refresh_hints(outputs):
    """The itinerary download passes, with the one expected hint about feed refresh properties."""
    result = run_ics_check(outputs["itinerary.ics"])
    assert result.returncode == 0, result.output
    assert len(result.warnings) == 1, result.output
    assert ITINERARY_WARNING in result.warnings[0]


@pytest.mark.parametrize("name", sorted(n for n in email_files() if "-cancel-" in n))
def test_each_cancel_email_passes_after_its_predecessor(outputs, name):
    """Each CANCEL email passes --strict alone and as the successor of the version it cancels.

    Copies of one CANCEL are checked one at a time: the checker reads two identical CANCELs as a
    replay without a SEQUENCE bump.
    """
    previous = predecessor_of(name)
    assert previous is not None
    result = run_ics_check("--strict", outputs[name], "--pair", outputs[previous], outputs[name])
    assert result.returncode == 0, result.output


def test_checker_run_fails_on_a_broken_invite(tmp_path, outputs):
    """The harness can fail: a REQUEST altered to STATUS:CANCELLED is reported."""
    broken = tmp_path / "broken.ics"
    broken.write_bytes(outputs["invite.ics"].read_bytes().replace(b"STATUS:CONFIRMED", b"STATUS:CANCELLED"))
    result = run_ics_check(broken)
    assert result.returncode == 1
    assert any("STATUS:CANCELLED inside METHOD:REQUEST" in p for p in result.problems)


def test_checker_run_fails_on_a_reschedule_without_sequence_bump(tmp_path, outputs):
    """The harness can fail: a moved interview whose SEQUENCE did not rise is reported by --pair."""
    stale = tmp_path / "stale.ics"
    stale.write_bytes(outputs["reschedule.ics"].read_bytes().replace(b"SEQUENCE:1", b"SEQUENCE:0"))
    result = run_ics_check("--pair", outputs["invite.ics"], stale)
    assert result.returncode == 1
    assert any("SEQUENCE" in p for p in result.problems)
