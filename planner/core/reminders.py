"""Scorecard deadlines and the reminder email, in the assessor's time zone. Pure: no clock, no database.

A scorecard is due a fixed number of hours (24 by default) after its interview *ends*, counted in real
hours: across a daylight-saving change the due time moves on the wall clock (an interview ending at
10:30 CET on the Saturday before the spring change is due at 11:30 CEST on the Sunday).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

DEFAULT_DUE_HOURS = 24


def due_at(end: datetime, due_hours: int = DEFAULT_DUE_HOURS) -> datetime:
    """When the scorecard of an interview ending at ``end`` is due (real hours, so DST changes nothing)."""
    return end + timedelta(hours=due_hours)


def is_overdue(end: datetime, now: datetime, due_hours: int = DEFAULT_DUE_HOURS) -> bool:
    """True once the due time has passed (exactly at the due time it is not overdue yet)."""
    return now > due_at(end, due_hours)


def overdue_by(delta: timedelta) -> str:
    """How late, in the largest units that read well: "40 minutes", "5 hours", "1 day 3 hours", "4 days"."""
    minutes = max(0, int(delta.total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)

    def unit(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    if days >= 3:
        return unit(days, "day")
    if days:
        return unit(days, "day") + (f" {unit(hours, 'hour')}" if hours else "")
    if hours:
        return unit(hours, "hour")
    return unit(max(mins, 1), "minute")


def local_day(now: datetime, timezone: str) -> date:
    """The date it is in ``timezone`` at ``now`` (a person gets at most one reminder per such day)."""
    return now.astimezone(ZoneInfo(timezone)).date()


@dataclass(frozen=True)
class OwedScorecard:
    """One scorecard an assessor still owes, with the link to write it."""

    interview_id: int
    round_name: str
    candidate: str
    start: datetime
    end: datetime
    due: datetime
    url: str


@dataclass(frozen=True)
class ReminderEmail:
    subject: str
    text: str
    html: str


def _when(moment: datetime, zone: ZoneInfo) -> str:
    local = moment.astimezone(zone)
    return f"{local:%a} {local.day} {local:%b, %H:%M %Z}"


def _span(item: OwedScorecard, zone: ZoneInfo) -> str:
    start, end = item.start.astimezone(zone), item.end.astimezone(zone)
    return f"{start:%a} {start.day} {start:%b, %H:%M}–{end:%H:%M %Z}"


def reminder_email(name: str, items: Sequence[OwedScorecard], *, timezone: str, now: datetime,
                   page_url: str) -> ReminderEmail:
    """The reminder listing every overdue scorecard of one assessor, times in their ``timezone``.

    :param page_url: the interviewer's own page, where every scorecard is listed too.
    """
    zone = ZoneInfo(timezone)
    count = len(items)
    noun = "scorecard" if count == 1 else "scorecards"
    subject = f"Reminder: {count} {noun} overdue" if count > 1 else \
        f"Reminder: your scorecard for {items[0].round_name} ({items[0].candidate}) is overdue"
    lines = [f"Hello {name},", "",
             f"{'This scorecard is' if count == 1 else f'These {count} scorecards are'} past due. The hiring "
             "team needs your ratings and notes before the debrief:", ""]
    rows = []
    for item in items:
        late = overdue_by(now - item.due)
        lines += [f"- {item.round_name} with {item.candidate}, {_span(item, zone)}",
                  f"  due {_when(item.due, zone)} ({late} overdue)", f"  {item.url}", ""]
        rows.append(
            f'<li><strong>{html.escape(item.round_name)}</strong> with {html.escape(item.candidate)}, '
            f'{html.escape(_span(item, zone))}<br>due {html.escape(_when(item.due, zone))} '
            f'<strong>({html.escape(late)} overdue)</strong><br>'
            f'<a href="{html.escape(item.url, quote=True)}">Write the scorecard</a></li>')
    lines += [f"All your interviews: {page_url}", "",
              "You get at most one reminder a day while a scorecard is overdue; it stops once you submit.", "",
              "-- ", "Interview-loop planner"]
    body_html = (f"<p>Hello {html.escape(name)},</p>"
                 f"<p>{'This scorecard is' if count == 1 else f'These {count} scorecards are'} past due. The hiring "
                 "team needs your ratings and notes before the debrief:</p>"
                 f"<ul>{''.join(rows)}</ul>"
                 f'<p><a href="{html.escape(page_url, quote=True)}">All your interviews</a></p>'
                 "<p>You get at most one reminder a day while a scorecard is overdue; it stops once you submit.</p>")
    return ReminderEmail(subject=subject[:300], text="\n".join(lines) + "\n", html=body_html)
