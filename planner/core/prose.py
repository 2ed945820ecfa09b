"""Prose helpers shared by the plain-words messages of coverage and scheduling."""

from __future__ import annotations

from collections.abc import Sequence


def and_list(items: Sequence[str]) -> str:
    """Items joined as prose, kept as written: "A", "A and B", "A, B and C"."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
