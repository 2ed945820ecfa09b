"""`planner invites export --loop ID --out DIR [--history]`."""

from __future__ import annotations

import click

from planner.cli.common import clear_errors, get_app, session_scope
from planner.core.prose import plural


@click.group("invites")
def invites_group() -> None:
    """Calendar invites of loops."""


@invites_group.command("export")
@click.option("--loop", "loop_id", required=True, type=int, help="The loop's id.")
@click.option(
    "--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Folder to write into."
)
@click.option("--history", is_flag=True, help="Also write every version sent so far.")
@clear_errors
def export_command(loop_id: int, out_dir: str, history: bool) -> None:
    """Write a loop's invites and the candidate's itinerary as .ics files."""
    from planner.db import utcnow
    from planner.services.invite_export import export_loop
    from planner.services.invites import MailSettings

    settings = MailSettings.from_mapping(get_app().config)
    with session_scope() as session:
        result = export_loop(session, loop_id, out_dir, settings=settings, now=utcnow(), history=history)
    for name in result.files:
        click.echo(str(result.folder / name))
    click.echo(f"Wrote {plural(len(result.files), 'file')} to {result.folder}.")
