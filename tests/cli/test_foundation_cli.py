"""The command line: migrations, demo, users, and clear one-sentence errors for bad configuration."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from planner.cli import main
from planner.db import make_engine, make_session_factory
from planner.models import Interviewer, Posting, User

PLANNER = [sys.executable, "-m", "planner.cli"]


def run_cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run the real console entry point in a subprocess, as a user would."""
    import os

    full_env = {k: v for k, v in os.environ.items() if not k.startswith("PLANNER_")} | env
    return subprocess.run([*PLANNER, *args], capture_output=True, text=True, env=full_env, timeout=120)


@pytest.fixture
def fresh_url(database_url, tmp_path, backend_name):
    """A database URL for CLI runs: a new SQLite file, or the migrated PostgreSQL test database."""
    if backend_name == "sqlite":
        return f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    return database_url


@pytest.fixture
def backend_name(database_url):
    return "sqlite" if database_url.startswith("sqlite") else "postgresql"


def test_db_upgrade_then_demo_twice_is_idempotent(fresh_url, committed_db):
    """`planner db upgrade` then `planner demo` twice leaves one copy of every demo object."""
    env = {"PLANNER_DATABASE_URL": fresh_url}
    upgrade = run_cli("db", "upgrade", env=env)
    assert upgrade.returncode == 0, upgrade.stderr
    for _ in range(2):
        demo = run_cli("demo", env=env)
        assert demo.returncode == 0, demo.stderr
        assert "planner-demo" in demo.stdout
    engine = make_engine(fresh_url)
    with make_session_factory(engine)() as session:
        assert session.scalar(select(func.count(Posting.id))) == 1
        assert session.scalar(select(func.count(Interviewer.id))) >= 12
        assert len(set(session.scalars(select(Interviewer.timezone)))) >= 3
        emails = set(session.scalars(select(User.email)))
        assert {"coordinator@demo.test", "manager@demo.test", "interviewer@demo.test"} <= emails
        linked = session.scalar(select(Interviewer).where(Interviewer.email == "interviewer@demo.test"))
        assert linked.user_id is not None
    engine.dispose()


def test_demo_if_empty_skips_a_database_with_postings(fresh_url, committed_db):
    """`planner demo --if-empty` does nothing when postings already exist."""
    env = {"PLANNER_DATABASE_URL": fresh_url}
    assert run_cli("db", "upgrade", env=env).returncode == 0
    assert run_cli("demo", env=env).returncode == 0
    again = run_cli("demo", "--if-empty", env=env)
    assert again.returncode == 0
    assert "not loaded" in again.stdout


@pytest.mark.parametrize(("url", "expected"), [
    ("not a url at all", "malformed"),
    ("mysql://root@127.0.0.1/x", "only sqlite and postgresql"),
    ("postgresql+psycopg://nobody@127.0.0.1:1/none", "cannot be reached"),
])
def test_bad_database_url_gives_one_sentence(url, expected):
    """A malformed, unsupported or unreachable database URL stops with one clear line, no traceback."""
    result = run_cli("db", "upgrade", env={"PLANNER_DATABASE_URL": url})
    assert result.returncode != 0
    assert expected in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_production_without_secret_key_refuses_to_start(tmp_path):
    """In production mode a missing secret key stops start-up with a clear message."""
    result = run_cli("db", "upgrade", env={"PLANNER_ENV": "production",
                                           "PLANNER_DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite3'}"})
    assert result.returncode != 0
    assert "PLANNER_SECRET_KEY is not set" in result.stderr
    assert "Traceback" not in result.stderr


def test_config_file_then_env_then_overrides(tmp_path, monkeypatch):
    """Configuration is layered: file, then PLANNER_* environment, then create_app overrides."""
    from planner import create_app

    config_file = tmp_path / "settings.py"
    config_file.write_text('BASE_URL = "https://from-file"\nMAIL_ORGANIZER_NAME = "File"\nUID_DOMAIN = "file"\n')
    monkeypatch.setenv("PLANNER_CONFIG", str(config_file))
    monkeypatch.setenv("PLANNER_MAIL_ORGANIZER_NAME", "Env")
    monkeypatch.setenv("PLANNER_MAIL_PORT", "2525")
    monkeypatch.setenv("PLANNER_UID_DOMAIN", "env")
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'c.sqlite3'}", "UID_DOMAIN": "override"})
    assert app.config["BASE_URL"] == "https://from-file"
    assert app.config["MAIL_ORGANIZER_NAME"] == "Env"
    assert app.config["MAIL_PORT"] == 2525
    assert app.config["UID_DOMAIN"] == "override"
    app.extensions["planner.engine"].dispose()


def test_missing_config_file_is_one_sentence(tmp_path):
    """PLANNER_CONFIG naming a missing file stops with a clear message."""
    result = run_cli("db", "upgrade", env={"PLANNER_CONFIG": str(tmp_path / "nope.py")})
    assert result.returncode != 0
    assert "is not a file" in result.stderr


def test_users_create_and_duplicate(fresh_url, committed_db):
    """`planner users create` makes a login; the same email again is refused with one sentence."""
    env = {"PLANNER_DATABASE_URL": fresh_url}
    assert run_cli("db", "upgrade", env=env).returncode == 0
    args = ("users", "create", "--email", "Lead@Example.com", "--role", "coordinator", "--role", "manager",
            "--password", "long-enough-pw")
    first = run_cli(*args, env=env)
    assert first.returncode == 0, first.stderr
    assert "lead@example.com" in first.stdout
    second = run_cli(*args, env=env)
    assert second.returncode == 2
    assert "already exists" in second.stderr


def test_users_create_rejects_unknown_timezone_and_short_password():
    """Bad arguments to `users create` get one clear message before anything is written."""
    runner = CliRunner()
    result = runner.invoke(main, ["users", "create", "--email", "a@b.co", "--role", "manager",
                                  "--password", "x", "--timezone", "Mars/Base"])
    assert result.exit_code == 2
    assert "not a known IANA time zone" in result.output


def test_layers_contract_holds():
    """import-linter: core stays pure, only web touches Flask, layers point one way."""
    root = Path(__file__).resolve().parents[2]
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint)], cwd=root, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:]
