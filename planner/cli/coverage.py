"""`planner coverage POSTING_ID [--json]`: the coverage matrix of a posting's loop plan."""

from __future__ import annotations

import json

import click

from planner.cli.common import clear_errors, fail, get_app
from planner.core.prose import plural

#: The largest id SQLite and PostgreSQL (bigint) can store.
MAX_ID = 2**63 - 1

STATUS_WORDS = {"gap": "GAP", "no-assessor": "NOBODY", "thin": "THIN", "ok": "ok", "over": "over"}


def coverage_payload(view) -> dict:
    """The JSON contract: posting, competencies (with rounds and bench) and rounds (with warnings)."""
    coverage = view.coverage
    latest = view.latest_version
    rounds = []
    for index, item in enumerate(coverage.rounds):
        focus = {c.slug: c.cells[index] for c in coverage.competencies if c.cells[index]}
        rounds.append({
            "key": item.key, "name": item.name, "kind": item.kind, "minutes": item.minutes,
            "interviewers": item.interviewers, "competencies": list(focus),
            "focus": focus, "warnings": list(item.warnings),
            "staffable": item.staffable, "panelists": item.panelists,
        })
    return {
        "posting": {"id": view.id, "title": view.title, "team": view.team, "status": view.status,
                    "coverage_status": coverage.status if coverage.competencies else "empty",
                    "total_minutes": coverage.total_minutes,
                    "version": latest.number if latest else None,
                    "unpublished_changes": len(view.unpublished),
                    "unstaffable_rounds": [item.key for item in coverage.unstaffable_rounds]},
        "competencies": [
            {"slug": c.slug, "name": c.name, "category": c.category, "priority": c.priority,
             "required": c.required, "rounds": list(c.round_names), "primary_rounds": c.primary_count,
             "qualified_interviewers": c.bench_qualified or 0, "in_training": c.bench_in_training or 0,
             "status": c.status}
            for c in coverage.competencies
        ],
        "rounds": rounds,
        "gaps_and_risks": [{"severity": i.severity, "code": i.code, "message": i.message,
                            "competency": i.competency, "round": i.round_key} for i in coverage.issues],
    }


def render_text(view) -> str:
    """A readable report: one line per competency, the rounds, then the gaps and risks."""
    coverage = view.coverage
    latest = view.latest_version
    lines = [f"Posting #{view.id}: {view.title}",
             f"Plan: {plural(len(coverage.rounds), 'round')}, {coverage.total_minutes} min"
             + (f", version {latest.number}" if latest else ", not published")
             + (f" (+{plural(len(view.unpublished), 'unpublished change')})" if view.unpublished else ""), ""]
    if not coverage.competencies:
        lines.append("The posting has no accepted competencies yet.")
        return "\n".join(lines)
    width = max(len(c.name) for c in coverage.competencies)
    lines.append(f"{'Competency':<{width}}  {'Priority':<12} Rounds  Bench  Status  Assessed in")
    for c in coverage.competencies:
        lines.append(f"{c.name:<{width}}  {c.priority:<12} {c.count:>2}/{c.required:<3} "
                     f"{c.bench_qualified or 0:>5}  {STATUS_WORDS.get(c.status, c.status):<6}  "
                     f"{', '.join(c.round_names) or '-'}")
    lines += ["", "Rounds:"]
    for index, item in enumerate(coverage.rounds, start=1):
        staffing = ""
        if item.staffable is not None:
            staffing = (f" - {item.panelists} {'person' if item.panelists == 1 else 'people'} can staff it"
                        if item.staffable else " - NOBODY CAN STAFF IT")
        lines.append(f"  {index}. {item.name} ({item.kind}, {item.minutes} min){staffing}")
        lines.extend(f"     ! {warning}" for warning in item.warnings)
    unstaffed = coverage.unstaffable_rounds
    if unstaffed:
        lines += ["", f"Rounds nobody can staff: {', '.join(item.name for item in unstaffed)} "
                      "(loops on this plan cannot be scheduled)."]
    issues = [i for i in coverage.issues if i.round_key is None]
    if issues:
        lines += ["", "Gaps and risks:"]
        lines.extend(f"  [{i.severity}] {i.message}" for i in issues)
    return "\n".join(lines)


@click.command("coverage")
@click.argument("posting_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a readable report.")
@clear_errors
def coverage_command(posting_id: int, as_json: bool) -> None:
    """Show how the loop plan of POSTING_ID covers the posting's competencies."""
    from planner.queries.coverage import get_posting_coverage

    if not 0 <= posting_id <= MAX_ID:  # beyond what a database id can hold: ask no database
        fail(f"There is no posting #{posting_id}.")
    app = get_app()
    with app.extensions["planner.sessionmaker"]() as session:
        view = get_posting_coverage(session, posting_id)
    if as_json:
        click.echo(json.dumps(coverage_payload(view), indent=2, ensure_ascii=False))
    else:
        click.echo(render_text(view))
