"""An interviewer's CalDAV calendar: where it is, the encrypted secret, and how its last sync went."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from planner.db import Base, utcnow

if TYPE_CHECKING:
    from planner.models.people import Interviewer


class CalendarSource(Base):
    """One CalDAV calendar per interviewer; its busy blocks carry ``source = "caldav:<id>"``."""

    __tablename__ = "calendar_sources"

    id: Mapped[int] = mapped_column(primary_key=True)
    interviewer_id: Mapped[int] = mapped_column(
        ForeignKey("interviewers.id", ondelete="CASCADE"), unique=True
    )
    url: Mapped[str] = mapped_column(String(500))
    username: Mapped[str] = mapped_column(String(200), default="")
    #: The password or app password as a Fernet token (never the plain text); None when there is none.
    secret: Mapped[str | None] = mapped_column(Text)
    #: The server's collection state at the last full fetch ("sync:<token>" or "ctag:<ctag>"), and the
    #: end of the horizon that fetch covered: both unchanged means nothing needs downloading.
    state_token: Mapped[str | None] = mapped_column(String(500))
    state_horizon_end: Mapped[datetime | None]
    last_success_at: Mapped[datetime | None]
    #: Busy blocks the last successful sync left for this calendar.
    last_block_count: Mapped[int] = mapped_column(default=0)
    last_failure_at: Mapped[datetime | None]
    #: One sentence saying why the last attempt failed ("" after a success).
    last_error: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    interviewer: Mapped[Interviewer] = relationship()

    @property
    def busy_source(self) -> str:
        """The ``BusyBlock.source`` of the blocks this calendar brought."""
        return f"caldav:{self.id}"
