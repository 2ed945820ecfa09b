"""The audit page: every recorded change, newest first, filtered by loop, person, kind and dates; CSV export."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from flask import Response, render_template, request, stream_with_context

from planner.core.audit.cells import safe_row
from planner.core.audit.kinds import kind_choices
from planner.db import utcnow
from planner.queries.audit import (
    AuditFilter,
    AuditRow,
    Choice,
    count_entries,
    iter_entries,
    list_entries,
    loop_choices,
    person_choices,
)
from planner.web.coordinator.forms_audit import AuditFilterForm
from planner.web.coordinator.views import bp
from planner.web.dbsession import get_session
from planner.web.filters import viewer_timezone

#: Ids beyond this are no row's (PostgreSQL integers stop there; binding a larger one is an error).
MAX_ID = 2**31 - 1
PAGE_SIZE = 50
CSV_HEADER = ["When", "When (UTC)", "Who", "What", "Why", "Kind", "Action", "Loop", "Loop id", "Interviewer",
              "Interviewer id", "Posting", "Posting id", "Entry id"]


def _zone() -> ZoneInfo:
    try:
        return ZoneInfo(viewer_timezone())
    except (KeyError, ValueError):
        return ZoneInfo("UTC")


def _number(raw: str) -> int | None:
    return int(raw) if re.fullmatch(r"[0-9]{1,10}", raw or "") and int(raw) <= MAX_ID else None


def _shown(raw: str) -> str:
    raw = " ".join((raw or "").split())
    return raw if len(raw) <= 40 else raw[:39] + "…"


def _with_missing(choices: list[Choice], raw: str, noun: str) -> list[Choice]:
    """The choices, plus the one asked for when it no longer exists (its old entries stay viewable)."""
    number = _number(raw)
    if number and all(c.id != number for c in choices):
        return [*choices, Choice(number, f"{noun} #{number} (no longer exists)")]
    return choices


def _day_start(day: date | None, zone: ZoneInfo) -> datetime | None:
    """Midnight of ``day`` in the viewer's zone, in UTC (None for the calendar's very ends)."""
    try:
        return datetime.combine(day, time(0), zone).astimezone(UTC) if day else None
    except OverflowError:
        return None


def read_filters(session, zone: ZoneInfo) -> tuple[AuditFilterForm, AuditFilter, list[str]]:
    """The filter form, the filter it selects and one sentence per bad value (that value is then left out)."""
    args = request.args
    loops = _with_missing(loop_choices(session), args.get("loop", ""), "loop")
    people = _with_missing(person_choices(session), args.get("person", ""), "interviewer")
    form = AuditFilterForm(args)
    form.loop.choices = [(0, "Every loop"), *((c.id, c.label) for c in loops)]
    form.person.choices = [(0, "Everyone"), *((c.id, c.label) for c in people)]
    form.kind.choices = [("", "Every kind"), *kind_choices()]
    form.validate()
    problems = {
        "loop": f"'{_shown(args.get('loop', ''))}' is not a loop number; showing every loop's changes.",
        "person": f"'{_shown(args.get('person', ''))}' is not an interviewer number; showing everyone's changes.",
        "kind": f"'{_shown(args.get('kind', ''))}' is not a kind of change; showing every kind.",
        "start": f"'{_shown(args.get('start', ''))}' is not a date (use YYYY-MM-DD); the From date is left out.",
        "end": f"'{_shown(args.get('end', ''))}' is not a date (use YYYY-MM-DD); the To date is left out.",
    }
    messages = []
    for name, sentence in problems.items():
        field = form[name]
        if field.errors:
            field.errors = [sentence]
            field.data = field.default
            messages.append(sentence)
    start, end = form.start.data, form.end.data
    if start and end and start > end:
        messages.append("The From date is after the To date, so no change can match; swap them.")
    # The To date counts whole: entries before the next local midnight.
    after_end = end + timedelta(days=1) if end and end < date.max else None
    filters = AuditFilter(loop_id=form.loop.data or None, interviewer_id=form.person.data or None,
                          kind=form.kind.data or None, start=_day_start(start, zone), end=_day_start(after_end, zone))
    return form, filters, messages


def filter_args(form: AuditFilterForm) -> dict[str, str]:
    """The valid filters as GET parameters, for the pager and the export link."""
    values = {"loop": form.loop.data or "", "person": form.person.data or "", "kind": form.kind.data or "",
              "start": form.start.data.isoformat() if form.start.data else "",
              "end": form.end.data.isoformat() if form.end.data else ""}
    return {key: str(value) for key, value in values.items() if value}


@bp.route("/audit")
def audit_list():
    session, zone = get_session(), _zone()
    form, filters, messages = read_filters(session, zone)
    total = count_entries(session, filters)
    size = PAGE_SIZE
    pages = max(1, -(-total // size))
    page = min(max(request.args.get("page", 1, type=int) or 1, 1), pages)
    rows = list_entries(session, filters, zone=zone, limit=size, offset=(page - 1) * size)
    return render_template("coordinator/audit/list.html", form=form, rows=rows, total=total, page=page, pages=pages,
                           first_shown=(page - 1) * size + 1, messages=messages, args=filter_args(form),
                           filtered=any(v is not None for v in vars(filters).values()), now=utcnow())


def _csv_line(values: list) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerow(safe_row(values))
    return buffer.getvalue()


def _csv_cells(row: AuditRow, zone: ZoneInfo) -> list:
    def link(item):
        return (item.label, item.id) if item else ("", "")

    return [row.at.astimezone(zone).isoformat(timespec="seconds"), row.at.astimezone(UTC).isoformat(timespec="seconds"),
            row.who, row.what, row.why, row.kind, row.action, *link(row.loop), *link(row.person), *link(row.posting),
            row.id]


@bp.route("/audit.csv")
def audit_csv():
    """The filtered entries as CSV, streamed in batches (any number of entries, flat memory)."""
    session, zone = get_session(), _zone()
    _form, filters, _messages = read_filters(session, zone)

    def lines():
        yield _csv_line(CSV_HEADER)
        for row in iter_entries(session, filters, zone=zone):
            yield _csv_line(_csv_cells(row, zone))

    filename = f"audit-{utcnow().astimezone(zone):%Y%m%d-%H%M}.csv"
    return Response(stream_with_context(lines()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
