"""Turn the DESIGN 5.2 problem JSON (already decoded into Python values) into a checked ``Problem``.

Only structural mistakes are errors here; anything that merely makes a loop impossible (nobody
qualified, windows too short, caps full) is left to the solver, which reports it as a reason.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from planner.core.errors import PlannerError
from planner.core.scheduling.problem import (
    TRAINING_LEVELS,
    WEEKDAYS,
    Interviewer,
    Loop,
    Problem,
    Round,
    Span,
    WorkingHours,
)

_HHMM = re.compile(r"([0-9]{2}):([0-9]{2})")
_DEFAULT_DAYS = frozenset(range(5))
_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
#: Instants must fall in these (UTC) years: the calendar arithmetic needs days of room on either side.
MIN_YEAR, MAX_YEAR = 1000, 9000
#: The largest number any count, duration, gap or cap may have (keeps the optimiser's integers small).
MAX_NUMBER = 1_000_000_000
_JSON_TYPES = {
    dict: "an object",
    list: "a list",
    str: "a string",
    bool: "true or false",
    int: "a number",
    float: "a number",
    type(None): "null",
}


class ProblemError(PlannerError):
    """The problem file is structurally wrong; the message names the field and the fix."""


def load_problem(data: Any) -> Problem:
    """Validate a decoded problem document and build a ``Problem``.

    :raise ProblemError: with one sentence naming the offending field, e.g.
        ``interviewers[3].timezone: unknown time zone 'Mars/Base'``.
    """
    doc = _mapping(data, "problem")
    slot = _positive_int(15 if doc.get("slot_minutes") is None else doc["slot_minutes"], "slot_minutes")
    catalogue = _catalogue(doc)
    people = _unique(
        [
            _interviewer(item, f"interviewers[{n}]", catalogue)
            for n, item in enumerate(_list(doc, "interviewers", "problem"))
        ],
        "interviewers",
    )
    loops = _unique(
        [_loop(item, f"loops[{n}]", catalogue) for n, item in enumerate(_list(doc, "loops", "problem"))],
        "loops",
    )
    return Problem(interviewers=tuple(people), loops=tuple(loops), slot_minutes=slot)


def parse_instant(value: Any, where: str) -> datetime:
    """Parse an RFC 3339 timestamp that carries an offset (``Z`` or ``+hh:mm``)."""
    if not isinstance(value, str):
        raise ProblemError(f"{where}: expected an RFC 3339 date-time string, got {value!r}")
    text = value.strip()
    if text.endswith("z"):  # RFC 3339 allows a lower-case "z" (and "t"), fromisoformat only "Z"
        text = text[:-1] + "Z"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ProblemError(f"{where}: {value!r} is not an RFC 3339 date-time") from None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ProblemError(f"{where}: {value!r} has no UTC offset; add 'Z' or '+hh:mm'")
    try:
        year = moment.astimezone(UTC).year
    except OverflowError:
        year = 0
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise ProblemError(f"{where}: {value!r} is outside the supported years {MIN_YEAR} to {MAX_YEAR}")
    return moment


def _to_minutes(moment: datetime, round_up: bool) -> int:
    seconds = moment.timestamp()
    return math.ceil(seconds / 60) if round_up else math.floor(seconds / 60)


def _span(item: Any, where: str, inner: bool) -> Span:
    """Parse ``{"start", "end"}``; ``inner`` rounds sub-minute edges inwards (windows), else outwards."""
    obj = _mapping(item, where)
    start = parse_instant(_required(obj, "start", where), f"{where}.start")
    end = parse_instant(_required(obj, "end", where), f"{where}.end")
    if end <= start:
        raise ProblemError(f"{where}: end {obj['end']!r} is not after start {obj['start']!r}")
    return Span(_to_minutes(start, round_up=inner), _to_minutes(end, round_up=not inner))


def _catalogue(doc: Mapping[str, Any]) -> frozenset[str] | None:
    # Optional extension: a list of known competencies turns typos in rounds or skills into errors.
    if "competencies" not in doc:
        return None
    items = doc["competencies"]
    if not isinstance(items, list) or not all(isinstance(c, str) and c for c in items):
        raise ProblemError("competencies: expected a list of competency names")
    return frozenset(items)


def _interviewer(item: Any, where: str, catalogue: frozenset[str] | None) -> Interviewer:
    obj = _mapping(item, where)
    ident = _id(obj, where)
    zone = _timezone(_required(obj, "timezone", where), f"{where}.timezone")
    hours = _working_hours(obj.get("working_hours"), f"{where}.working_hours")
    skills_raw = _mapping(obj.get("skills", {}), f"{where}.skills")
    skills: dict[str, str] = {}
    for competency, level in skills_raw.items():
        if catalogue is not None and competency not in catalogue:
            raise ProblemError(f"{where}.skills: unknown competency {competency!r}")
        norm = level.strip().lower().replace("_", "-") if isinstance(level, str) else level
        if norm not in TRAINING_LEVELS:
            raise ProblemError(
                f"{where}.skills.{_key(competency)}: unknown training level {level!r} "
                f"(use one of {', '.join(TRAINING_LEVELS)})"
            )
        skills[competency] = norm
    team = obj.get("team")
    if team is not None and not isinstance(team, str):
        raise ProblemError(f"{where}.team: expected a string")
    return Interviewer(
        id=ident,
        timezone=zone,
        working_hours=hours,
        busy=tuple(_span(b, f"{where}.busy[{n}]", inner=False) for n, b in enumerate(_opt_list(obj, "busy", where))),
        existing=tuple(
            _span(b, f"{where}.existing[{n}]", inner=False) for n, b in enumerate(_opt_list(obj, "existing", where))
        ),
        max_per_day=_cap(obj.get("max_per_day"), f"{where}.max_per_day"),
        max_per_week=_cap(obj.get("max_per_week"), f"{where}.max_per_week"),
        team=team,
        skills=skills,
        name=str(obj.get("name", "")),
        email=str(obj.get("email", "")),
    )


def _working_hours(value: Any, where: str) -> WorkingHours:
    if value is None:
        return WorkingHours(9 * 60, 17 * 60, _DEFAULT_DAYS)
    obj = _mapping(value, where)
    start_text, end_text = obj.get("start", "09:00"), obj.get("end", "17:00")
    start = _clock(start_text, f"{where}.start")
    end = _clock(end_text, f"{where}.end")
    if end <= start:
        raise ProblemError(f"{where}: end {end_text!r} is not after start {start_text!r}")
    days = _DEFAULT_DAYS
    if "days" in obj:
        names = obj["days"]
        if not isinstance(names, list):
            raise ProblemError(f"{where}.days: expected a list such as ['mon', 'tue']")
        picked = set()
        for name in names:
            key = name.strip().lower() if isinstance(name, str) else None
            if key in _DAY_NAMES:
                key = key[:3]
            if key not in WEEKDAYS:
                raise ProblemError(f"{where}.days: unknown day {name!r} (use mon, tue, wed, thu, fri, sat, sun)")
            picked.add(WEEKDAYS.index(key))
        days = frozenset(picked)
    return WorkingHours(start, end, days)


def _clock(value: Any, where: str) -> int:
    match = _HHMM.fullmatch(value) if isinstance(value, str) else None
    if not match:
        raise ProblemError(f"{where}: expected a time as HH:MM, got {value!r}")
    hours, minutes = int(match.group(1)), int(match.group(2))
    if minutes > 59 or hours > 24 or (hours == 24 and minutes):
        raise ProblemError(f"{where}: {value!r} is not a time of day between 00:00 and 24:00")
    return hours * 60 + minutes


def _loop(item: Any, where: str, catalogue: frozenset[str] | None) -> Loop:
    obj = _mapping(item, where)
    ident = _id(obj, where)
    windows = tuple(_span(w, f"{where}.windows[{n}]", inner=True) for n, w in enumerate(_list(obj, "windows", where)))
    if not windows:
        raise ProblemError(f"{where}.windows: a loop needs at least one availability window")
    rounds = _unique(
        [_round(r, f"{where}.rounds[{n}]", catalogue) for n, r in enumerate(_list(obj, "rounds", where))],
        f"{where}.rounds",
    )
    if not rounds:
        raise ProblemError(f"{where}.rounds: a loop needs at least one round")
    candidate = _mapping({} if obj.get("candidate") is None else obj["candidate"], f"{where}.candidate")
    if "timezone" in candidate:
        _timezone(candidate["timezone"], f"{where}.candidate.timezone")
    gap = obj.get("max_gap_minutes")
    if gap is not None and (not _is_int(gap) or not 0 <= gap <= MAX_NUMBER):
        raise ProblemError(
            f"{where}.max_gap_minutes: expected a whole number of minutes from 0 to {MAX_NUMBER}, got {gap!r}"
        )
    team = obj.get("hiring_team")
    if team is not None and not isinstance(team, str):
        raise ProblemError(f"{where}.hiring_team: expected a string")
    ordered = obj.get("ordered")
    ordered = False if ordered is None else ordered
    if not isinstance(ordered, bool):
        raise ProblemError(f"{where}.ordered: expected true or false, got {ordered!r}")
    return Loop(
        id=ident,
        windows=tuple(sorted(windows, key=lambda s: (s.start, s.end))),
        rounds=tuple(rounds),
        hiring_team=team,
        max_gap_minutes=gap,
        candidate={k: str(v) for k, v in candidate.items()},
        ordered=ordered,
    )


def _round(item: Any, where: str, catalogue: frozenset[str] | None) -> Round:
    obj = _mapping(item, where)
    ident = _id(obj, where)
    minutes = _positive_int(_required(obj, "minutes", where), f"{where}.minutes")
    competencies = obj.get("competencies")
    if (
        not isinstance(competencies, list)
        or not competencies
        or not all(isinstance(c, str) and c for c in competencies)
    ):
        raise ProblemError(f"{where}.competencies: expected a non-empty list of competency names")
    for competency in competencies:
        if catalogue is not None and competency not in catalogue:
            raise ProblemError(f"{where}.competencies: unknown competency {competency!r}")
    count = _positive_int(obj.get("interviewers", 1), f"{where}.interviewers")
    outside = obj.get("outside_hiring_team", 0)
    if not _is_int(outside) or not 0 <= outside <= MAX_NUMBER:
        raise ProblemError(
            f"{where}.outside_hiring_team: expected a whole number from 0 to {MAX_NUMBER}, got {outside!r}"
        )
    # More outside seats than interviewers is not structural: the loop stays unscheduled, with the reason.
    trainee = obj.get("trainee", False)
    if not isinstance(trainee, bool):
        raise ProblemError(f"{where}.trainee: expected true or false")
    return Round(
        id=ident,
        minutes=minutes,
        competencies=tuple(dict.fromkeys(competencies)),
        interviewers=count,
        trainee=trainee,
        outside_hiring_team=outside,
    )


# -- small shape helpers -------------------------------------------------------------------------


def _key(name: str) -> str:
    """A user's key as part of a field path: as is when plain, else quoted (so a message stays one line)."""
    return name if re.fullmatch(r"[\w.-]+", name) else repr(name)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ProblemError(f"{where}: expected an object, got {_JSON_TYPES.get(type(value), type(value).__name__)}")
    return value


def _required(obj: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in obj or obj[key] is None:
        raise ProblemError(f"{where}: missing required field '{key}'")
    return obj[key]


def _list(obj: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = _required(obj, key, where)
    if not isinstance(value, list):
        raise ProblemError(f"{where}.{key}: expected a list" if where != "problem" else f"{key}: expected a list")
    return value


def _opt_list(obj: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ProblemError(f"{where}.{key}: expected a list")
    return value


def _id(obj: Mapping[str, Any], where: str) -> str:
    value = _required(obj, "id", where)
    if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
        raise ProblemError(f"{where}.id: expected a non-empty string")
    return str(value)


def _positive_int(value: Any, where: str) -> int:
    if not _is_int(value) or not 0 < value <= MAX_NUMBER:
        raise ProblemError(f"{where}: expected a whole number from 1 to {MAX_NUMBER}, got {value!r}")
    return value


def _cap(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if not _is_int(value) or not 0 <= value <= MAX_NUMBER:
        raise ProblemError(f"{where}: expected a whole number from 0 to {MAX_NUMBER}, got {value!r}")
    return value


def _timezone(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise ProblemError(f"{where}: expected an IANA time zone name such as 'Europe/Berlin'")
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a folder of zones such as 'America'
        raise ProblemError(f"{where}: unknown time zone {value!r}") from None
    return value


def _unique(items: list[Any], where: str) -> list[Any]:
    seen: set[str] = set()
    for n, item in enumerate(items):
        if item.id in seen:
            raise ProblemError(f"{where}[{n}].id: duplicate id {item.id!r}")
        seen.add(item.id)
    return items
