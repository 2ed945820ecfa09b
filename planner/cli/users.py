"""`planner users create`."""

from __future__ import annotations

import click

from planner.cli.common import clear_errors, session_scope
from planner.models import ROLES


@click.group("users")
def users_group() -> None:
    """Manage logins."""


@users_group.command("create")
@click.option("--email", required=True)
@click.option("--name", default="", help="Display name (defaults to the email).")
@click.option("--role", "roles", multiple=True, required=True, type=click.Choice(ROLES),
              help="Repeat for several roles.")
@click.option("--timezone", default="UTC", show_default=True, help="IANA zone pages are shown in.")
@click.password_option(help="Prompted for (hidden) when not given.")
@clear_errors
def create_command(email: str, name: str, roles: tuple[str, ...], timezone: str, password: str) -> None:
    """Create a login with one or more roles."""
    from planner.core.timezones import require_timezone
    from planner.services.users import create_user

    require_timezone(timezone)
    with session_scope() as session:
        user = create_user(session, email=email, name=name, password=password, roles=roles, timezone=timezone)
        click.echo(f"Created {user.email} with roles: {user.roles}.")
