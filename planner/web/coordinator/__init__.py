"""Coordinator pages: postings, loop plans, the interviewer pool, loops and scheduling, the outbox.

Each feature lives in its own module and registers its routes on the shared blueprint.
"""

from planner.web.coordinator import competencies, postings  # noqa: F401
from planner.web.coordinator import pool  # noqa: F401
from planner.web.coordinator import plans  # noqa: F401
from planner.web.coordinator.views import bp

__all__ = ["bp"]
