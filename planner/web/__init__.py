"""The web layer: the only package that imports Flask. Wires sessions, login, CSRF and blueprints."""

from __future__ import annotations

from flask import Flask
from limits.errors import ConfigurationError as LimitsConfigurationError

from planner.config import ConfigError
from planner.web import account, auth, errors, filters, health, pagecache, security, sqlcount
from planner.web.candidate import bp as candidate_bp
from planner.web.coordinator import bp as coordinator_bp
from planner.web.dbsession import close_session
from planner.web.extensions import csrf, limiter, login_manager
from planner.web.feeds import bp as feeds_bp
from planner.web.interviewer import bp as interviewer_bp
from planner.web.manager import bp as manager_bp


def init_web(app: Flask) -> None:
    """Register extensions, blueprints, filters and error pages on `app`."""
    csrf.init_app(app)
    login_manager.init_app(app)
    try:
        limiter.init_app(app)
    except LimitsConfigurationError as exc:
        raise ConfigError(f"RATELIMIT_STORAGE_URI {app.config.get('RATELIMIT_STORAGE_URI')!r} cannot be used "
                          f"for sign-in limits: {exc}.") from exc
    security.register(app)
    sqlcount.register(app)
    pagecache.register(app)
    app.teardown_appcontext(close_session)
    filters.register(app)
    errors.register(app)
    app.register_blueprint(health.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(account.bp)
    app.register_blueprint(coordinator_bp)
    app.register_blueprint(interviewer_bp)
    app.register_blueprint(manager_bp)
    app.register_blueprint(feeds_bp)
    app.register_blueprint(candidate_bp)
