"""Interviewer pages: my interviews, invites and the calendar feed link."""

from planner.web.interviewer import availability  # noqa: F401  (registers its routes on the blueprint)
from planner.web.interviewer.views import bp

__all__ = ["bp"]
