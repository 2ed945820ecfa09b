"""The `planner` command line: one group, commands in small modules, errors as one sentence."""

from __future__ import annotations

import click

from planner.cli.common import CONTEXT_SETTINGS
from planner.cli.coverage import coverage_command
from planner.cli.database import db_group
from planner.cli.demo import demo_command
from planner.cli.extract import extract_command
from planner.cli.invites import invites_group
from planner.cli.schedule import schedule_command
from planner.cli.serve import serve_command
from planner.cli.users import users_group
from planner.cli.worker import worker_command


@click.group(context_settings=CONTEXT_SETTINGS)
def main() -> None:
    """Interview-loop planner: postings, coverage, scheduling and calendar invites."""


COMMANDS = [db_group, demo_command, serve_command, users_group, extract_command, schedule_command,
            coverage_command, invites_group, worker_command]

for _command in COMMANDS:
    main.add_command(_command)


def register_flask_commands(app) -> None:
    """Make every command reachable as `flask --app planner ...` too."""
    for command in COMMANDS:
        app.cli.add_command(command)
