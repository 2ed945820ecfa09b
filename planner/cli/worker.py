"""`planner worker [--once] [--interval S]`: deliver the outbox over SMTP, with retries."""

from __future__ import annotations

import os
import signal
import socket
import time

import click

from planner.cli.common import clear_errors, get_app, session_scope


@click.command("worker")
@click.option("--once", is_flag=True, help="Deliver what is due now, then exit.")
@click.option(
    "--interval",
    type=click.FloatRange(min=0.1),
    default=5.0,
    show_default=True,
    help="Seconds to wait when nothing is due.",
)
@click.option(
    "--batch", type=click.IntRange(min=1), default=20, show_default=True, help="Messages claimed at a time."
)
@clear_errors
def worker_command(once: bool, interval: float, batch: int) -> None:
    """Deliver queued calendar emails (and queue due scorecard reminders); safe to run as several processes."""
    from planner.cli.reminders import reminder_job
    from planner.db import utcnow
    from planner.services.outbox import SmtpSettings, run_once

    smtp = SmtpSettings.from_mapping(get_app().config)
    remind = reminder_job(get_app().config)
    if not smtp.configured:
        click.echo(
            "No SMTP server is configured (set PLANNER_MAIL_SERVER); messages stay in the outbox, "
            "where coordinators can download them."
        )
        return
    worker_id = f"{socket.gethostname()}:{os.getpid()}"
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    totals = {"sent": 0, "retrying": 0, "failed": 0}
    if not once:
        click.echo(f"Worker {worker_id} delivering through {smtp.server}:{smtp.port}; Ctrl-C stops it.")
    try:
        while not stopping:
            with session_scope() as session:
                queued = remind(session, utcnow())
                report = run_once(session, smtp, worker_id=worker_id, now=utcnow(), batch=batch)
            if queued and not once:
                click.echo(f"queued {len(queued)} scorecard reminder(s)")
            for key in totals:
                totals[key] += len(getattr(report, key))
            if report.claimed and not once:
                click.echo(
                    f"sent {len(report.sent)}, retrying {len(report.retrying)}, failed {len(report.failed)}"
                )
            if report.claimed == 0:
                if once:
                    break
                time.sleep(interval)
    except KeyboardInterrupt:
        pass
    click.echo(f"Sent {totals['sent']}, will retry {totals['retrying']}, failed {totals['failed']}.")
