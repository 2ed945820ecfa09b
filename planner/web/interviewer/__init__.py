"""Interviewer pages: my interviews, invites and the calendar feed link."""

from planner.web.interviewer import (
    answers,  # noqa: F401  (registers its route on bp)
    availability,  # noqa: F401  (registers its route on bp)
    calendars,  # noqa: F401 - registers its routes
)
from planner.web.interviewer.views import bp

__all__ = ["bp"]
