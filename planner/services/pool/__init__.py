"""Use cases for the interviewer pool: people, qualifications, promotions, busy time and load.

Every rule (time zones, working hours, caps, training progress, calendar import, load against caps)
is decided by ``planner.core.pool``; these modules read and write rows around it and commit once.
``seat_records_for`` and ``load_status`` are the read helpers the scheduler reuses so the pool
pages and the scheduler count load the same way (they live in ``planner.queries.load``).
"""

from planner.core.errors import FieldError
from planner.queries.load import (
    BOOKED_STATUSES,
    TrainingCounts,
    load_status,
    load_window,
    local_week_start,
    seat_records_for,
    training_counts,
)
from planner.services.pool.busy_time import (
    DEFAULT_HORIZON_DAYS,
    IMPORT_PREFIX,
    MANUAL_SOURCE,
    MAX_HORIZON_DAYS,
    ImportResult,
    add_busy_block,
    delete_busy_block,
    import_busy_ics,
    import_source,
    local_to_utc,
    remove_import,
)
from planner.services.pool.people import (
    InterviewerInput,
    check_interviewer,
    create_interviewer,
    set_active,
    upcoming_seat_count,
    update_interviewer,
)
from planner.services.pool.qualifications import promote_qualification, remove_qualification, set_qualification

__all__ = [
    "check_interviewer",
    "BOOKED_STATUSES",
    "DEFAULT_HORIZON_DAYS",
    "IMPORT_PREFIX",
    "MANUAL_SOURCE",
    "MAX_HORIZON_DAYS",
    "FieldError",
    "ImportResult",
    "InterviewerInput",
    "TrainingCounts",
    "add_busy_block",
    "create_interviewer",
    "delete_busy_block",
    "import_busy_ics",
    "import_source",
    "load_status",
    "load_window",
    "local_to_utc",
    "local_week_start",
    "promote_qualification",
    "remove_import",
    "remove_qualification",
    "seat_records_for",
    "set_active",
    "set_qualification",
    "training_counts",
    "upcoming_seat_count",
    "update_interviewer",
]
