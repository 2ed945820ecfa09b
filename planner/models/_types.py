"""Column helpers shared by the model modules."""

from __future__ import annotations

import enum

import sqlalchemy as sa


def enum_column(enum_cls: type[enum.Enum], name: str) -> sa.Enum:
    """A portable enum stored as its values in a VARCHAR with a named CHECK constraint."""
    return sa.Enum(
        enum_cls,
        name=name,
        native_enum=False,
        create_constraint=True,
        length=32,
        values_callable=lambda cls: [member.value for member in cls],
        validate_strings=True,
    )
