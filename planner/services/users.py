"""Use cases for logins: create users, check passwords."""

from __future__ import annotations

import re

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from planner.core.errors import ValidationFailed
from planner.models import ROLES, User
from planner.services.audit import record

EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
MIN_PASSWORD = 8


def normalise_email(email: str) -> str:
    return email.strip().lower()


def create_user(session: Session, *, email: str, name: str, password: str, roles: list[str] | tuple[str, ...],
                timezone: str = "UTC", actor_id: int | None = None) -> User:
    """Create a login with the given roles and commit.

    :param actor_id: who creates it (None: the command line or the demo).

    :raise ValidationFailed: bad email, short password, unknown role, or the email is taken.
    """
    email = normalise_email(email)
    if not EMAIL_RE.match(email):
        raise ValidationFailed(f"{email!r} is not an email address.")
    if len(password) < MIN_PASSWORD:
        raise ValidationFailed(f"The password must be at least {MIN_PASSWORD} characters long.")
    unknown = sorted(set(roles) - set(ROLES))
    if unknown or not roles:
        raise ValidationFailed(f"Roles must be among {', '.join(ROLES)}; got {', '.join(unknown) or 'none'}.")
    if session.scalar(select(User.id).where(func.lower(User.email) == email)) is not None:
        raise ValidationFailed(f"A user with email {email} already exists.")
    user = User(
        email=email,
        name=name.strip() or email,
        password_hash=generate_password_hash(password),
        roles=" ".join(r for r in ROLES if r in roles),
        timezone=timezone,
    )
    session.add(user)
    session.flush()
    record(session, actor_id=actor_id, action="user.create", entity="user", entity_id=user.id,
           details={"email": user.email, "roles": user.roles})
    session.commit()
    return user


def authenticate(session: Session, email: str, password: str) -> User | None:
    """The active user with this email and password, or None (the same answer for both mistakes)."""
    user = session.scalar(select(User).where(User.email == normalise_email(email)))
    if user is None or not user.active or not check_password_hash(user.password_hash, password):
        return None
    return user


def get_user(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def update_preferences(session: Session, user_id: int, *, name: str, timezone: str) -> User:
    """Change a user's display name and the zone their pages are shown in, and commit.

    :raise ValidationFailed: the zone is unknown or the name is empty.
    """
    from planner.core.timezones import require_timezone

    require_timezone(timezone)
    if not name.strip():
        raise ValidationFailed("The name cannot be empty.")
    user = session.get(User, user_id)
    changed = sorted(k for k, v in (("name", name.strip()), ("timezone", timezone)) if getattr(user, k) != v)
    user.name, user.timezone = name.strip(), timezone
    record(session, actor_id=user.id, action="user.update", entity="user", entity_id=user.id,
           details={"email": user.email, "changed": changed})
    session.commit()
    return user


def change_password(session: Session, user_id: int, *, current: str, new: str) -> None:
    """Replace the password after checking the current one, and commit.

    :raise ValidationFailed: the current password is wrong or the new one too short.
    """
    user = session.get(User, user_id)
    if not check_password_hash(user.password_hash, current):
        raise ValidationFailed("The current password is not correct.")
    if len(new) < MIN_PASSWORD:
        raise ValidationFailed(f"The new password must be at least {MIN_PASSWORD} characters long.")
    user.password_hash = generate_password_hash(new)
    record(session, actor_id=user.id, action="user.password", entity="user", entity_id=user.id,
           details={"email": user.email})
    session.commit()
