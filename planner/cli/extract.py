"""`planner extract FILE [--json]`: the competencies a posting asks for, with their evidence."""

from __future__ import annotations

import json
import textwrap

import click

from planner.core.errors import PlannerError
from planner.core.extraction import Finding, extract, read_posting_file
from planner.core.library import default_library
from planner.core.prose import plural

#: Exit status for bad input, as for click's own usage errors.
BAD_INPUT = 2


@click.command("extract")
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a readable list.")
def extract_command(file: str, as_json: bool) -> None:
    """List the competencies FILE (a UTF-8 posting text) asks for, with the sentences behind each."""
    try:
        text = read_posting_file(file)
        findings = extract(text, default_library())
    except PlannerError as exc:
        click.echo(f"Error: {exc}", err=True)
        raise SystemExit(BAD_INPUT) from None
    if as_json:
        payload = {"competencies": [finding.to_dict() for finding in findings]}
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        click.echo(render_findings(findings, file))


def render_findings(findings: list[Finding], source: str) -> str:
    """The human-readable listing: one block per competency, evidence sentences quoted below it."""
    if not findings:
        return f"No competencies found in {source}."
    lines = [f"{plural(len(findings), 'competency')} found in {source}, strongest first:", ""]
    for finding in findings:
        lines.append(f"{finding.name} [{finding.slug}, {finding.category}]  score {finding.score:.2f}")
        reason = f" ({finding.priority_reason})" if finding.priority_reason else ""
        lines.append(f"  suggested {finding.priority}{reason}")
        if finding.matched_by != "phrases":
            lines.append(f"  found by {finding.matched_by}")
        if finding.runner_up is not None:
            runner = finding.runner_up
            lines.append(f"  also close: {runner.name} [{runner.slug}] ({runner.reason})")
        for item in finding.evidence:
            quoted = textwrap.fill(
                f'"{item.text}"', width=100, initial_indent="  - ", subsequent_indent="    "
            )
            lines.append(quoted)
        lines.append("")
    return "\n".join(lines).rstrip()
