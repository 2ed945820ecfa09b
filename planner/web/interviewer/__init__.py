"""Interviewer pages: my interviews, invites and the calendar feed link."""

from planner.web.interviewer.views import bp

__all__ = ["bp"]
