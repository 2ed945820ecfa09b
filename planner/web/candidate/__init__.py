"""The candidate's pages: no login, reached through a signed link that names one loop."""

from planner.web.candidate.views import bp

__all__ = ["bp"]
