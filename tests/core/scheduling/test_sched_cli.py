"""`planner schedule PROBLEM.json [-o RESULT.json]`: result JSON out; bad input: one sentence, exit 2."""

import json

import pytest
from click.testing import CliRunner
from core.scheduling.schedbuild import loop, person, problem, random_problem, rnd

from planner.cli.schedule import schedule_command
from planner.core.scheduling import load_problem, validate

DOC = problem(
    [person("a", {"x": "qualified"})],
    [loop("L", [rnd("r", ["x"])], [("2026-12-07T09:00:00Z", "2026-12-07T17:00:00Z")])],
)


def _run(tmp_path, payload: bytes, *extra: str):
    source = tmp_path / "problem.json"
    source.write_bytes(payload)
    return CliRunner().invoke(schedule_command, [str(source), *extra])


def test_prints_a_valid_result_on_stdout(tmp_path):
    """A good problem prints the 5.2 result on standard output and exits 0."""
    outcome = _run(tmp_path, json.dumps(DOC).encode())
    assert outcome.exit_code == 0, outcome.output
    result = json.loads(outcome.stdout)
    assert result["loops"][0]["status"] == "scheduled"
    assert validate(load_problem(DOC), result) == []


def test_writes_the_result_file_with_o(tmp_path):
    """With -o the result goes to the file and nothing to standard output."""
    target = tmp_path / "result.json"
    outcome = _run(tmp_path, json.dumps(DOC).encode(), "-o", str(target))
    assert outcome.exit_code == 0
    assert outcome.stdout == ""
    assert json.loads(target.read_text())["stats"]["scheduled"] == 1


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b'{"loops": [', "is not valid JSON"),
        ('{"é": 1}'.encode("latin-1"), "is not UTF-8"),
        (
            json.dumps(
                {**DOC, "interviewers": [{**DOC["interviewers"][0], "timezone": "Mars/Base"}]}
            ).encode(),
            "interviewers[0].timezone: unknown time zone 'Mars/Base'",
        ),
        (json.dumps({**DOC, "loops": [DOC["loops"][0], DOC["loops"][0]]}).encode(), "duplicate id 'L'"),
        (b'{"loops": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "is nested too deeply"),
        (b'{"slot_minutes": ' + b"9" * 5000 + b"}", "a number has too many digits"),
        (
            json.dumps({**DOC, "interviewers": [{**DOC["interviewers"][0], "timezone": "America"}]}).encode(),
            "unknown time zone 'America'",
        ),
    ],
)
def test_bad_input_gives_one_sentence_and_exit_2(tmp_path, payload, message):
    """Bad JSON, bad encoding and structural errors: one line on stderr, exit 2, no result file."""
    target = tmp_path / "result.json"
    outcome = _run(tmp_path, payload, "-o", str(target))
    assert outcome.exit_code == 2
    assert message in outcome.stderr
    assert len(outcome.stderr.strip().splitlines()) == 1
    assert outcome.stderr.startswith("Error: ")  # as every other command says it
    assert "Traceback" not in outcome.stderr
    assert not target.exists()


def test_missing_file_is_reported(tmp_path):
    """A path that does not exist gives a clear message and exit 2."""
    outcome = CliRunner().invoke(schedule_command, [str(tmp_path / "nope.json")])
    assert outcome.exit_code == 2
    assert "no such file" in outcome.stderr


def test_large_inputs_report_progress_on_stderr(tmp_path):
    """Problems with many rounds print progress lines on standard error, the result stays clean JSON."""
    doc = random_problem(3, people=12, loops=30)
    outcome = _run(tmp_path, json.dumps(doc).encode())
    assert outcome.exit_code == 0
    assert "first-fit:" in outcome.stderr
    assert len(json.loads(outcome.stdout)["loops"]) == 30


def test_unwritable_output_is_reported(tmp_path):
    """An -o path in a missing folder gives one sentence and exit 2 instead of a traceback."""
    outcome = _run(tmp_path, json.dumps(DOC).encode(), "-o", str(tmp_path / "missing" / "result.json"))
    assert outcome.exit_code == 2
    assert "cannot write the result" in outcome.stderr


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--seed", str(2**40)], "Invalid value for '--seed'"),
        (["--time-limit", "0"], "Invalid value for '--time-limit'"),
        (["--time-limit", "nan"], "Invalid value for '--time-limit'"),
    ],
)
def test_bad_options_are_usage_errors_not_tracebacks(tmp_path, extra, message):
    """A seed the optimiser cannot take, or a time limit that is not positive, is a usage error (exit 2)."""
    outcome = _run(tmp_path, json.dumps(DOC).encode(), *extra)
    assert outcome.exit_code == 2
    assert message in outcome.stderr
    assert "Traceback" not in outcome.stderr


def test_user_text_with_a_newline_keeps_the_error_on_one_line(tmp_path):
    """A skill named with a line break is quoted in the field path, so the message stays one line."""
    doc = {**DOC, "interviewers": [{**DOC["interviewers"][0], "skills": {"x\ny": "expert"}}]}
    outcome = _run(tmp_path, json.dumps(doc).encode())
    assert outcome.exit_code == 2
    assert len(outcome.stderr.strip().splitlines()) == 1
    assert "skills.'x\\ny': unknown training level 'expert'" in outcome.stderr


def test_the_command_line_schedules_without_loading_the_database_layer_or_flask(tmp_path):
    """`planner schedule` imports only what scheduling needs: the database layer and Flask cost half a second
    of start-up and a stateless scheduler has no use for them."""
    import subprocess
    import sys

    source, target = tmp_path / "problem.json", tmp_path / "result.json"
    source.write_text(json.dumps(DOC))
    script = (
        "import sys\n"
        "from planner.cli import main\n"
        f"try:\n    main(['schedule', {str(source)!r}, '-o', {str(target)!r}])\n"
        "except SystemExit as done:\n    assert not done.code, done.code\n"
        "print(sorted(m for m in ('sqlalchemy', 'flask', 'planner.models') if m in sys.modules))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
    assert json.loads(target.read_text())["stats"]["scheduled"] == 1
