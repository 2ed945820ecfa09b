"""How much work a repeating event would cost to expand, known before expanding it.

Expansion walks a rule from its first occurrence (DTSTART) to the end of the import period, one
occurrence at a time, even for the part before the period. ``FREQ=SECONDLY`` with no end makes
86,400 occurrences a day, so a small hostile or broken file could keep a web worker busy for
minutes before any cap on the result could bite. This module bounds, from the rule alone:

* the occurrences the walk goes through (DTSTART to the period's end): at most ``MAX_STEPS``;
* the occurrences inside the period: at most the import's cap on busy blocks.

The bound is an upper estimate (BY-rules are assumed to expand, never to filter), so a rule under
it always expands within the caps; a rule over it is refused with one sentence, naming the event.
"""

from __future__ import annotations

import math
from datetime import date, datetime, time, timedelta, tzinfo

from planner.core.errors import ValidationFailed

#: Occurrences one import may walk through, across all its rules (a daily meeting since 1990 is ~13,000).
MAX_STEPS = 200_000

_PERIOD_SECONDS = {
    "SECONDLY": 1, "MINUTELY": 60, "HOURLY": 3600, "DAILY": 86_400, "WEEKLY": 7 * 86_400,
    "MONTHLY": 28 * 86_400, "YEARLY": 365 * 86_400,
}
_ORDER = ["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"]
# A BY-part multiplies the occurrences of a period when it names a finer unit than the FREQ.
_EXPANDING = {"BYSECOND": "SECONDLY", "BYMINUTE": "MINUTELY", "BYHOUR": "HOURLY", "BYDAY": "DAILY",
              "BYMONTHDAY": "DAILY", "BYYEARDAY": "DAILY", "BYWEEKNO": "WEEKLY", "BYMONTH": "MONTHLY"}
_WORDS = {"SECONDLY": "every second", "MINUTELY": "every minute", "HOURLY": "every hour", "DAILY": "every day",
          "WEEKLY": "every week", "MONTHLY": "every month", "YEARLY": "every year"}


class RecurrenceTooCostly(ValidationFailed):
    """A repeating event would expand into more occurrences than an import may handle."""


def _utc(value: date | datetime, zone: tzinfo) -> datetime:
    if not isinstance(value, datetime):
        value = datetime.combine(value, time(0))
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone)
    return value


def _first(rule, key: str):
    values = rule.get(key) or [None]
    return values[0] if isinstance(values, list) else values


def _per_period(rule, freq: str) -> int:
    factor = 1
    rank = _ORDER.index(freq)
    for part, unit in _EXPANDING.items():
        values = rule.get(part)
        if values and _ORDER.index(unit) < rank:
            factor *= max(len(values) if isinstance(values, list) else 1, 1)
    return factor


def rule_cost(rule, dtstart: datetime, period_start: datetime, period_end: datetime,
              zone: tzinfo) -> tuple[int, int, str]:
    """(occurrences walked, occurrences inside the period, FREQ) of one RRULE, as upper bounds."""
    freq = str(_first(rule, "FREQ") or "").upper()
    if freq not in _PERIOD_SECONDS:
        return 0, 0, freq  # not a rule the expansion can run; it reports that itself
    interval = _first(rule, "INTERVAL")
    interval = interval if isinstance(interval, int) and interval > 0 else 1
    step = _PERIOD_SECONDS[freq] * interval
    per_period = _per_period(rule, freq)
    last = period_end
    until = _first(rule, "UNTIL")
    if isinstance(until, date):
        last = min(last, _utc(until, zone))
    count = _first(rule, "COUNT")
    count = count if isinstance(count, int) and count >= 0 else None

    def occurrences(begin: datetime, finish: datetime) -> int:
        if finish <= begin:
            return 0
        return (math.floor((finish - begin).total_seconds() / step) + 1) * per_period

    walked = occurrences(dtstart, last)
    inside = occurrences(max(dtstart, period_start - timedelta(seconds=step)), last)
    if count is not None:
        walked, inside = min(walked, count), min(inside, count)
    return walked, inside, freq


def check_recurrence_cost(events, zone: tzinfo, period_start: datetime, period_end: datetime,
                          max_instances: int, describe) -> None:
    """Refuse the first rule that would walk more than ``MAX_STEPS`` or place more than ``max_instances``.

    :param events: VEVENT components with a DTSTART.
    :param describe: gives "the event 'Standup'" for a component, for the message.
    :raise RecurrenceTooCostly: with one sentence naming the event and what to do.
    """
    walked_total = 0
    for event in events:
        rules = event.get("RRULE")
        if rules is None:
            continue
        dtstart = _utc(event["DTSTART"].dt, zone)
        for rule in rules if isinstance(rules, list) else [rules]:
            walked, inside, freq = rule_cost(rule, dtstart, period_start, period_end, zone)
            walked_total += walked
            if inside > max_instances:
                raise RecurrenceTooCostly(
                    f"{describe(event)[0].upper()}{describe(event)[1:]} repeats {_WORDS[freq]} without an end "
                    f"that close: it would expand to more than {max_instances} events in the import period. "
                    "Fix or remove that event, or export a shorter range.")
            if walked_total > MAX_STEPS:
                raise RecurrenceTooCostly(
                    f"{describe(event)[0].upper()}{describe(event)[1:]} repeats {_WORDS[freq]} since "
                    f"{dtstart:%Y-%m-%d}: expanding it would take more than {MAX_STEPS:,} steps. "
                    "Fix or remove that event, or export only recent events.")
