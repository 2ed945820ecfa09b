"""Audit trail: who changed what, when and why. Callers commit with their own change."""

from __future__ import annotations

from sqlalchemy.orm import Session

from planner.models import AuditEntry


def record(session: Session, *, actor_id: int | None, action: str, entity: str, entity_id: int | None,
           reason: str = "", details: dict | None = None) -> AuditEntry:
    """Add an audit entry to the session (no commit: it lands with the change it describes)."""
    entry = AuditEntry(actor_id=actor_id, action=action, entity=entity, entity_id=entity_id,
                       reason=reason, details=details or {})
    session.add(entry)
    return entry
