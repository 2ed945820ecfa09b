"""`planner inbox [--once]`: read calendar answers from the organizer's IMAP mailbox."""

from __future__ import annotations

import signal
import time

import click

from planner.cli.common import clear_errors, fail, get_app


@click.command("inbox")
@click.option("--once", is_flag=True, help="Process what is in the mailbox now, then exit.")
@click.option("--batch", type=click.IntRange(min=1), default=50, show_default=True,
              help="Messages processed per pass.")
@clear_errors
def inbox_command(once: bool, batch: int) -> None:
    """Record accepts, declines and proposed new times that interviewers' calendars mail back."""
    from planner.db import utcnow
    from planner.services.mailbox import ImapSettings, MailboxUnavailable, poll_once

    app = get_app()
    settings = ImapSettings.from_mapping(app.config)
    if not settings.configured:
        click.echo("No IMAP server is configured (set PLANNER_IMAP_SERVER); coordinators can upload answers "
                   "on a loop's page.")
        return
    factory = app.extensions["planner.sessionmaker"]
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    totals: dict[str, int] = {}
    if not once:
        click.echo(f"Reading {settings.mailbox} on {settings.server}:{settings.port} every "
                   f"{settings.poll_seconds:g} s; Ctrl-C stops it.")
    try:
        while not stopping:
            try:
                report = poll_once(settings, factory, now=utcnow, batch=batch)
            except MailboxUnavailable as exc:
                if once:
                    fail(str(exc), code=1)
                click.echo(f"{exc} Trying again in {settings.poll_seconds:g} s.", err=True)
                time.sleep(settings.poll_seconds)
                continue
            for outcome, count in report.outcomes.items():
                totals[outcome] = totals.get(outcome, 0) + count
            if report.processed and not once:
                click.echo(_summary(report.outcomes))
            if report.remaining:
                continue
            if once:
                break
            time.sleep(settings.poll_seconds)
    except KeyboardInterrupt:
        pass
    click.echo(f"Processed {sum(totals.values())} messages" + (f": {_summary(totals)}." if totals else "."))


def _summary(outcomes: dict[str, int]) -> str:
    return ", ".join(f"{count} {outcome}" for outcome, count in sorted(outcomes.items()))
