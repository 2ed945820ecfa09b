"""Coordinator pages: postings, loop plans, the interviewer pool, loops and scheduling, the outbox.

Each feature lives in its own module and registers its routes on the shared blueprint.
"""

from planner.web.coordinator import (  # noqa: F401
    audit,  # noqa: F401
    calendars,  # noqa: F401
    candidate_links,
    competencies,
    loops,  # noqa: F401
    outbox,  # noqa: F401
    overdue,  # noqa: F401
    plans,  # noqa: F401
    pool,  # noqa: F401
    pool_busy,  # noqa: F401
    pool_qualifications,  # noqa: F401
    postings,
    replies,  # noqa: F401
)
from planner.web.coordinator.views import bp

__all__ = ["bp"]
