"""``planner schedule PROBLEM.json [-o RESULT.json]``: the stateless scheduler on the DESIGN 5.2 contract."""

from __future__ import annotations

import json
from pathlib import Path

import click

from planner.cli.common import fail
from planner.core.scheduling import ProblemError, load_problem, solution_to_dict, solve

#: Inputs with more rounds than this get progress lines on standard error.
PROGRESS_ROUNDS = 50


def _positive_seconds(_ctx, _param, value: float | None) -> float | None:
    if value is not None and not value > 0:  # also rejects nan
        raise click.BadParameter(f"{value} is not a number of seconds greater than 0")
    return value


def _read_problem(path: Path) -> dict:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        fail(f"{path}: no such file")
    except IsADirectoryError:
        fail(f"{path}: is a directory, not a problem file")
    except OSError as exc:
        fail(f"{path}: cannot be read ({exc.strerror or exc})")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        fail(f"{path}: is not UTF-8 text (bad byte at position {exc.start})")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{path}: is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})")
    except RecursionError:
        fail(f"{path}: is nested too deeply to be a problem file")
    except ValueError as exc:  # an integer literal of thousands of digits
        detail = "a number has too many digits" if "digits" in str(exc) else str(exc).split(":")[0]
        fail(f"{path}: is not valid JSON ({detail})")
    raise AssertionError("unreachable")


@click.command("schedule")
@click.argument("problem_file", metavar="PROBLEM.json", type=click.Path(path_type=Path, dir_okay=True))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Write the result JSON here instead of standard output.",
)
# The optimiser (CP-SAT) takes a 32-bit seed.
@click.option(
    "--seed",
    type=click.IntRange(-(2**31), 2**31 - 1),
    default=0,
    show_default=True,
    help="Seed of the optimiser's search.",
)
@click.option(
    "--time-limit",
    type=float,
    default=None,
    callback=_positive_seconds,
    help="Wall-clock cap in seconds (best plan so far).",
)
def schedule_command(problem_file: Path, output: Path | None, seed: int, time_limit: float | None) -> None:
    """Assign interviewers and times to the loops of PROBLEM.json and print the result JSON."""
    data = _read_problem(problem_file)
    try:
        problem = load_problem(data)
    except ProblemError as exc:
        fail(f"{problem_file}: {exc}")
    rounds = sum(len(loop.rounds) for loop in problem.loops)
    progress = (lambda line: click.echo(line, err=True)) if rounds > PROGRESS_ROUNDS else None
    solution = solve(problem, seed=seed, time_limit=time_limit, progress=progress)
    text = json.dumps(solution_to_dict(solution), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            fail(f"{output}: cannot write the result ({exc.strerror or exc})")


if __name__ == "__main__":  # pragma: no cover - lets the command run before it is registered
    schedule_command()
