"""The links candidates schedule themselves with: one loop each, expiring, revocable."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from planner.db import Base, utcnow


class CandidateLink(Base):
    """A link sent to a candidate: the URL carries a signed id and a secret, this row its hash.

    A link is live while it is neither revoked nor expired; issuing a new link for a loop revokes the
    loop's older ones, so at most one link per loop works at any time.
    """

    __tablename__ = "candidate_links"

    id: Mapped[int] = mapped_column(primary_key=True)
    loop_id: Mapped[int] = mapped_column(ForeignKey("loops.id", ondelete="CASCADE"), index=True)
    #: SHA-256 (hex) of the link's random secret (32 bytes); the secret itself is never stored.
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: True: times are offered over the coming business days in the candidate's zone; False: inside the
    #: loop's own windows, as the coordinator typed them.
    offer_horizon: Mapped[bool] = mapped_column(default=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]
    #: When the candidate's own zone (from their browser or their choice) replaced the coordinator's guess.
    timezone_confirmed_at: Mapped[datetime | None]
