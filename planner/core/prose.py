"""Prose helpers shared by the plain-words messages of coverage and scheduling."""

from __future__ import annotations

from collections.abc import Sequence

#: The one way a date is written, in every sentence and on every page: "Thu 10 Dec 2026".
DATE_FORMAT = "%a %d %b %Y"


def and_list(items: Sequence[str]) -> str:
    """Items joined as prose, kept as written: "A", "A and B", "A, B and C"."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def noun(count: int, singular: str, many: str | None = None) -> str:
    """The noun for ``count`` things: ``singular`` for one, else ``many`` (default: the singular + "s",
    "-y" after a consonant -> "-ies", "-s/-x/-ch/-sh" -> "+es")."""
    if count == 1:
        return singular
    if many:
        return many
    if singular.endswith("y") and singular[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return singular[:-1] + "ies"
    if singular.endswith(("s", "x", "ch", "sh")):
        return singular + "es"
    return singular + "s"


def plural(count: int, singular: str, many: str | None = None) -> str:
    """``count`` with its noun: "1 interview", "2 interviews", "0 competencies"."""
    return f"{count} {noun(count, singular, many)}"
