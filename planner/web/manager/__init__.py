"""Hiring-manager pages: read-only coverage dashboards."""

from planner.web.manager.views import bp

__all__ = ["bp"]
