"""Logins and their roles."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from planner.db import Base, utcnow

ROLES = ("coordinator", "interviewer", "manager")


class User(Base):
    """A person who logs in; `roles` is a space-separated subset of ROLES (an admin holds all)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    password_hash: Mapped[str] = mapped_column(String(255))
    roles: Mapped[str] = mapped_column(String(64), default="")
    #: IANA zone the pages are shown in for this viewer.
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    @property
    def role_set(self) -> frozenset[str]:
        return frozenset(self.roles.split())

    def has_role(self, role: str) -> bool:
        return role in self.role_set
