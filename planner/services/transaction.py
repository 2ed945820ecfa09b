"""One transaction around a change that re-checks rows it has locked: commit, or roll back everything."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from planner.core.errors import Conflict

#: The start of the sentence for a change that lost a race; callers say what the user can do next.
SOMEONE_ELSE = "Someone else changed these interviewers' schedules at the same moment; "


@contextmanager
def committed_or_conflict(session: Session, conflict: str) -> Iterator[None]:
    """Commit what the block wrote; on any error roll it all back and re-raise.

    A lock timeout, deadlock or unique clash from the database means someone else changed the same rows
    first: that becomes a ``Conflict`` with the sentence ``conflict``, so the caller can offer a fresh
    choice instead of a traceback.
    """
    try:
        yield
        session.commit()
    except (IntegrityError, DBAPIError) as exc:
        session.rollback()
        raise Conflict(conflict) from exc
    except BaseException:
        session.rollback()
        raise
