"""Interview-loop planner: the application factory."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def create_app(overrides: Mapping[str, Any] | None = None) -> Flask:
    """Build the web application.

    Configuration comes from defaults, then the file named by PLANNER_CONFIG, then PLANNER_*
    environment variables, then `overrides` (how tests configure the app).
    """
    from flask import Flask

    from planner.config import load_config
    from planner.db import make_engine, make_session_factory
    from planner.web import init_web

    app = Flask(
        __name__,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(Path(__file__).parent / "static"),
        instance_path=os.environ.get("PLANNER_INSTANCE_PATH") or str(PROJECT_ROOT / "instance"),
    )
    app.config.update(load_config(app.instance_path, overrides))
    if app.config["DATABASE_URL"].startswith("sqlite:///"):
        os.makedirs(app.instance_path, exist_ok=True)
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["planner.engine"] = engine
    app.extensions["planner.sessionmaker"] = make_session_factory(engine)
    init_web(app)
    from planner.cli import register_flask_commands

    register_flask_commands(app)
    return app
