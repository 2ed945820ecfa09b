"""Run Alembic migrations from code (the CLI, the tests) without an alembic.ini."""

from __future__ import annotations

import os

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

from planner import PROJECT_ROOT


def default_database_url() -> str:
    """The URL the app would use with no overrides: PLANNER_DATABASE_URL or the instance SQLite file."""
    from planner.config import load_config

    instance = os.environ.get("PLANNER_INSTANCE_PATH") or str(PROJECT_ROOT / "instance")
    return load_config(instance)["DATABASE_URL"]


def alembic_config(url: str | None = None, engine: Engine | None = None) -> Config:
    config = Config(toml_file=str(PROJECT_ROOT / "pyproject.toml"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    if url:
        # ConfigParser interpolation would choke on a % in a password.
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database behind `engine` to `revision`."""
    with engine.begin() as connection:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def downgrade(engine: Engine, revision: str = "base") -> None:
    with engine.begin() as connection:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


def current_heads() -> tuple[str, ...]:
    from alembic.script import ScriptDirectory

    return tuple(ScriptDirectory.from_config(alembic_config()).get_heads())
