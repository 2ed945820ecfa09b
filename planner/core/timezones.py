"""Time-zone names: validation shared by forms, the CLI and imports."""

from __future__ import annotations

from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from planner.core.errors import ValidationFailed


@cache
def known_timezones() -> tuple[str, ...]:
    """Every IANA zone name the tz database knows, sorted (for pickers)."""
    return tuple(sorted(name for name in available_timezones() if "/" in name or name == "UTC"))


def require_timezone(name: str) -> ZoneInfo:
    """The zone for an IANA name.

    :raise ValidationFailed: the name is not in the tz database.
    """
    try:
        if not name or name != name.strip():
            raise ValueError
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationFailed(f"{name!r} is not a known IANA time zone (for example Europe/Berlin).") from None


@cache
def _by_lower_case() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones()}


def canonical_timezone(text: str | None) -> str | None:
    """``text`` trimmed, with the tz database's spelling when it names a zone in another case
    ("asia/singapore" -> "Asia/Singapore"); anything else comes back trimmed, for the validator to refuse."""
    if text is None:
        return None
    trimmed = text.strip()
    return _by_lower_case().get(trimmed.lower(), trimmed)



def zone_label(name: str, abbreviation: str) -> str:
    """How a time's zone is written after it: the tz database's abbreviation when it has a real one ("CET",
    "EST"), else a readable name from the IANA key ("Sao Paulo time" rather than the bare offset "-03" the
    database gives zones without an abbreviation)."""
    if abbreviation and abbreviation[0] not in "+-" and not abbreviation.isdigit():
        return abbreviation
    place = name.rsplit("/", 1)[-1].replace("_", " ") if name else "UTC"
    return f"{place} time"
