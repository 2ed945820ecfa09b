"""Role checks shared by the blueprints."""

from __future__ import annotations

from flask import Blueprint, abort
from flask_login import current_user

from planner.web.extensions import login_manager

HOME_ENDPOINTS = {
    "coordinator": "coordinator.home",
    "manager": "manager.home",
    "interviewer": "interviewer.home",
}


def restrict_blueprint(bp: Blueprint, role: str) -> None:
    """Anonymous users go to the login page; signed-in users without `role` get 403."""

    @bp.before_request
    def _require_role():
        if not current_user.is_authenticated:
            return login_manager.unauthorized()
        if not current_user.has_role(role):
            abort(403)
        return None


def home_endpoint_for(user) -> str | None:
    """Where a user lands after login: the first of their roles in coordinator, manager, interviewer order."""
    for role, endpoint in HOME_ENDPOINTS.items():
        if user.has_role(role):
            return endpoint
    return None
