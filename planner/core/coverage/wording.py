"""Small helpers that turn counts and names into the plain sentences managers read."""

from __future__ import annotations

from planner.core.prose import and_list

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number_word(count: int) -> str:
    """Spell small counts ("two"), keep digits for larger ones, as prose style guides suggest."""
    return _NUMBER_WORDS[count] if 0 <= count < len(_NUMBER_WORDS) else str(count)


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """``counted(2, "round")`` -> "two rounds"; ``counted(1, "round")`` -> "one round"."""
    noun = singular if count == 1 else (plural or singular + "s")
    return f"{number_word(count)} {noun}"


def minutes_text(minutes: float) -> str:
    """Minutes without a trailing ".0" ("11.2", "15")."""
    return f"{round(minutes, 1):g}"


def lower_first(name: str) -> str:
    """Lower-case the first letter to use a name mid-sentence, but leave acronyms ("ML ops") alone."""
    if len(name) > 1 and name[1].isupper():
        return name
    return name[:1].lower() + name[1:]


def join_names(names: list[str]) -> str:
    """Join names as prose: "A", "A and b", "A, b and c" (later names lower-cased mid-sentence)."""
    if not names:
        return ""
    return and_list([names[0]] + [lower_first(name) for name in names[1:]])
