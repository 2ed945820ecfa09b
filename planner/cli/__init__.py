"""The `planner` command line: one group, commands in small modules, errors as one sentence.

Commands are imported when they run: `planner schedule` needs neither the database layer nor Flask, and
importing them all cost half a second before every command.
"""

from __future__ import annotations

from importlib import import_module

import click

from planner.cli.common import CONTEXT_SETTINGS

#: Command name -> "module:attribute" (`planner --help` lists them by name).
COMMAND_PATHS = {
    "db": "planner.cli.database:db_group",
    "demo": "planner.cli.demo:demo_command",
    "serve": "planner.cli.serve:serve_command",
    "users": "planner.cli.users:users_group",
    "extract": "planner.cli.extract:extract_command",
    "schedule": "planner.cli.schedule:schedule_command",
    "coverage": "planner.cli.coverage:coverage_command",
    "invites": "planner.cli.invites:invites_group",
    "worker": "planner.cli.worker:worker_command",
    "inbox": "planner.cli.inbox:inbox_command",
    "reminders": "planner.cli.reminders:reminders_command",
    "calendars": "planner.cli.calendars:calendars_group",
}


def _load(name: str) -> click.Command:
    module, attribute = COMMAND_PATHS[name].split(":")
    return getattr(import_module(module), attribute)


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_PATHS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return _load(cmd_name) if cmd_name in COMMAND_PATHS else None


@click.group(cls=LazyGroup, context_settings=CONTEXT_SETTINGS)
def main() -> None:
    """Interview-loop planner: postings, coverage, scheduling and calendar invites."""


def register_flask_commands(app) -> None:
    """Make every command reachable as `flask --app planner ...` too."""
    for name in COMMAND_PATHS:
        app.cli.add_command(_load(name))
