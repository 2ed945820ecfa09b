"""Audit trail: who changed what, when and why. Callers commit with their own change."""

from __future__ import annotations

from sqlalchemy.orm import Session

from planner.models import AuditEntry


def record(session: Session, *, actor_id: int | None, action: str, entity: str, entity_id: int | None,
           reason: str = "", details: dict | None = None, loop_id: int | None = None,
           interviewer_id: int | None = None) -> AuditEntry:
    """Add an audit entry to the session (no commit: it lands with the change it describes).

    :param loop_id: the loop the change concerns (the audit page's loop filter); taken from
        ``details["loop_id"]`` when not given.
    :param interviewer_id: the interviewer the change concerns (the audit page's person filter).
    """
    details = details or {}
    if loop_id is None and isinstance(details.get("loop_id"), int):
        loop_id = details["loop_id"]
    entry = AuditEntry(actor_id=actor_id, action=action, entity=entity, entity_id=entity_id,
                       reason=reason, details=details, loop_id=loop_id, interviewer_id=interviewer_id)
    session.add(entry)
    return entry
