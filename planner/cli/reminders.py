"""`planner reminders [--once] [--interval S]`: queue the day's scorecard reminders in the outbox.

`planner worker` does the same at the start of every cycle; this command is for setups that deliver
mail elsewhere or want reminders from cron. Running it any number of times, from any number of
processes, queues at most one reminder per assessor per day (their local day).
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Mapping

import click

from planner.cli.common import clear_errors, get_app, session_scope


def reminder_job(config: Mapping) -> Callable:
    """A function (session, now) -> outbox ids queued, doing nothing when SCORECARD_REMINDERS is off."""
    from planner.services.invites import MailSettings
    from planner.services.reminders import ReminderSettings, queue_reminders

    settings, mail = ReminderSettings.from_mapping(config), MailSettings.from_mapping(config)

    def run(session, now) -> list[int]:
        if not settings.enabled:
            return []
        return queue_reminders(session, now=now, settings=mail, due_hours=settings.due_hours)

    return run


@click.command("reminders")
@click.option("--once", is_flag=True, help="Queue what is due now, then exit.")
@click.option("--interval", type=click.FloatRange(min=1), default=300.0, show_default=True,
              help="Seconds between checks when running continuously.")
@clear_errors
def reminders_command(once: bool, interval: float) -> None:
    """Queue one email a day to each assessor whose scorecards are overdue (SCORECARD_DUE_HOURS after the end)."""
    from planner.db import utcnow
    from planner.services.reminders import ReminderSettings

    config = get_app().config
    settings = ReminderSettings.from_mapping(config)
    if not settings.enabled:
        click.echo("Scorecard reminders are switched off (SCORECARD_REMINDERS); nothing was queued.")
        return
    run = reminder_job(config)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    total = 0
    try:
        while not stopping:
            with session_scope() as session:
                queued = run(session, utcnow())
            total += len(queued)
            if once:
                break
            if queued:
                click.echo(f"queued {len(queued)} scorecard reminder(s)")
            time.sleep(interval)
    except KeyboardInterrupt:
        pass
    click.echo(f"Queued {total} scorecard reminder{'' if total == 1 else 's'} "
               f"(scorecards are due {settings.due_hours} h after the interview ends).")
