"""`planner calendars sync|keygen|rotate-key`: interviewers' CalDAV calendars from the command line."""

from __future__ import annotations

import sys

import click

from planner.cli.common import clear_errors, get_app, session_scope


@click.group("calendars")
def calendars_group() -> None:
    """Interviewers' CalDAV calendars: busy-time sync and the key that encrypts their passwords."""


@calendars_group.command("sync")
@click.option("--interviewer", "interviewer_id", type=click.IntRange(min=1), default=None,
              help="Only this interviewer's calendar (their id in the pool).")
@clear_errors
def sync_command(interviewer_id: int | None) -> None:
    """Fetch busy time from every active interviewer's CalDAV calendar (exit 1 when one fails)."""
    from planner.db import utcnow
    from planner.services.calendars import CalendarSettings, sync_all

    settings = CalendarSettings.from_mapping(get_app().config)
    with session_scope() as session:
        reports = sync_all(session, now=utcnow(), settings=settings, interviewer_id=interviewer_id)
    if not reports:
        click.echo("No active interviewer has a CalDAV calendar.")
        return
    for report in reports:
        line = f"{report.name}: {report.message} ({report.seconds:.2f} s)"
        if report.ok:
            click.echo(line)
        else:
            click.echo(f"Error: {report.name}: sync failed: {report.message}", err=True)
    failed = sum(1 for r in reports if not r.ok)
    click.echo(f"Synced {len(reports) - failed} of {len(reports)} calendar{'s' if len(reports) != 1 else ''}.")
    if failed:
        sys.exit(1)


@calendars_group.command("keygen")
def keygen_command() -> None:
    """Print a new key for CALENDAR_SECRET_KEY (keep it secret, and keep it: it opens the saved passwords)."""
    from planner.services.calendars import generate_key

    click.echo(generate_key())


@calendars_group.command("rotate-key")
@clear_errors
def rotate_command() -> None:
    """Re-encrypt every saved calendar password with the first key of CALENDAR_SECRET_KEY."""
    from planner.services.calendars import CalendarSettings, rotate_calendar_secrets

    settings = CalendarSettings.from_mapping(get_app().config)
    with session_scope() as session:
        count = rotate_calendar_secrets(session, settings=settings)
    click.echo(f"Re-encrypted {count} calendar password{'s' if count != 1 else ''} with the first key; "
               "older keys can now be dropped from CALENDAR_SECRET_KEY.")
