"""Plain-text and HTML email bodies for calendar messages, one per recipient.

Each body shows the time in the recipient's own zone and in UTC (the calendar part is UTC only).
Interviewers get the interview kit (competencies, focus questions, link, internal notes); the
candidate gets round, position, time and place only. Every user-supplied string in the HTML is
escaped; links were limited to http(s) when the event was built.
"""

from __future__ import annotations

from html import escape
from typing import Literal

from planner.core.calendar.components import candidate_summary, interviewer_summary
from planner.core.calendar.events import CalendarInputError, InterviewEvent, Organizer, Person
from planner.core.calendar.localtime import local_time_range, utc_time_range

#: invite: first REQUEST; update: a later REQUEST; cancel: the interview is off;
#: removed: this person was taken off an interview that goes on (reassignment).
MessageKind = Literal["invite", "update", "cancel", "removed"]

_SUBJECT_PREFIX = {
    "invite": "Invitation",
    "update": "Updated",
    "cancel": "Cancelled",
    "removed": "Removed from",
}


def _check_kind(kind: str, *, candidate: bool = False) -> None:
    allowed = ("invite", "update", "cancel") if candidate else tuple(_SUBJECT_PREFIX)
    if kind not in allowed:
        raise CalendarInputError(f"Unknown message kind {kind!r}; use one of {', '.join(allowed)}.")


def subject_line(kind: MessageKind, event: InterviewEvent, *, for_candidate: bool = False) -> str:
    """Email subject, e.g. ``Invitation: Interview: Kim Lee – Compiler design (Senior ...)``."""
    _check_kind(kind, candidate=for_candidate)
    summary = candidate_summary(event) if for_candidate else interviewer_summary(event)
    return f"{_SUBJECT_PREFIX[kind]}: {summary}"


def _interviewer_headline(kind: str, event: InterviewEvent, as_trainee: bool) -> str:
    who = f"{event.candidate_name} for {event.posting_title} ({event.round_name} round)"
    if kind == "invite":
        role = " as a trainee, shadowing the assessors" if as_trainee else ""
        return f"You are invited to interview {who}{role}. Please accept or decline in your calendar."
    if kind == "update":
        return f"The interview with {who} has changed. Please check the details below."
    if kind == "cancel":
        return f"The interview with {who} is cancelled. Your calendar will remove it."
    return (
        f"You have been taken off the interview with {who}. "
        "Someone else covers it; your calendar will remove it."
    )


def _candidate_headline(kind: str, event: InterviewEvent) -> str:
    what = f"the {event.round_name} interview for {event.posting_title}"
    if kind == "invite":
        return f"Here are the details of {what}. We look forward to meeting you."
    if kind == "update":
        return f"The details of {what} have changed. Please check them below."
    return f"{what[0].upper()}{what[1:]} is cancelled. We will be in touch about next steps."


def _when_lines(event: InterviewEvent, recipient: Person) -> list[tuple[str, str]]:
    return [
        ("When (your time)", local_time_range(event.start_utc, event.end_utc, recipient.timezone)),
        ("When (UTC)", utc_time_range(event.start_utc, event.end_utc)),
    ]


def _place_lines(event: InterviewEvent) -> list[tuple[str, str]]:
    lines = []
    if event.location:
        lines.append(("Location", event.location))
    if event.video_url:
        lines.append(("Video link", event.video_url))
    return lines


def interviewer_text(
    event: InterviewEvent,
    recipient: Person,
    kind: MessageKind,
    organizer: Organizer,
    *,
    as_trainee: bool = False,
) -> str:
    """Plain-text body for an interviewer or trainee, with times in their zone."""
    _check_kind(kind)
    out = [f"Hello {recipient.name},", "", _interviewer_headline(kind, event, as_trainee), ""]
    out += [f"{label}: {value}" for label, value in _when_lines(event, recipient) + _place_lines(event)]
    if kind in ("invite", "update"):
        if event.competencies:
            out += ["", "Competencies to assess:"] + [f"- {c}" for c in event.competencies]
        if event.focus_questions:
            out += ["", "Focus questions:"] + [f"{i}. {q}" for i, q in enumerate(event.focus_questions, 1)]
        if event.interviewer_page_url:
            out += ["", f"Interview kit and scorecard: {event.interviewer_page_url}"]
        if event.internal_notes:
            out += ["", "Notes (internal):", event.internal_notes]
    out += ["", "-- ", organizer.name, ""]
    return "\n".join(out)


def candidate_text(event: InterviewEvent, candidate: Person, kind: MessageKind, organizer: Organizer) -> str:
    """Plain-text body for the candidate: round, position, time and place, nothing internal."""
    _check_kind(kind, candidate=True)
    out = [f"Hello {candidate.name},", "", _candidate_headline(kind, event), ""]
    out += [f"{label}: {value}" for label, value in _when_lines(event, candidate) + _place_lines(event)]
    out += ["", "-- ", organizer.name, ""]
    return "\n".join(out)


def _html_value(label: str, value: str) -> str:
    # Only the video link is a link: it was checked to be http(s) when the event was built.
    if label == "Video link":
        url = escape(value, quote=True)
        return f'<a href="{url}">{url}</a>'
    return escape(value)


def _html_fields(pairs: list[tuple[str, str]]) -> str:
    rows = "".join(
        f'<tr><th align="left">{escape(label)}</th><td>{_html_value(label, value)}</td></tr>'
        for label, value in pairs
    )
    return f"<table>{rows}</table>"


def _html_page(greeting: str, headline: str, sections: list[str], organizer: Organizer) -> str:
    body = "".join(sections)
    return (
        f"<!DOCTYPE html><html><body><p>{escape(greeting)}</p><p>{escape(headline)}</p>{body}"
        f"<p>{escape(organizer.name)}</p></body></html>\n"
    )


def interviewer_html(
    event: InterviewEvent,
    recipient: Person,
    kind: MessageKind,
    organizer: Organizer,
    *,
    as_trainee: bool = False,
) -> str:
    """HTML body for an interviewer or trainee; every value is escaped."""
    _check_kind(kind)
    sections = [_html_fields(_when_lines(event, recipient) + _place_lines(event))]
    if kind in ("invite", "update"):
        if event.competencies:
            items = "".join(f"<li>{escape(c)}</li>" for c in event.competencies)
            sections.append(f"<p>Competencies to assess:</p><ul>{items}</ul>")
        if event.focus_questions:
            items = "".join(f"<li>{escape(q)}</li>" for q in event.focus_questions)
            sections.append(f"<p>Focus questions:</p><ol>{items}</ol>")
        if event.interviewer_page_url:
            url = escape(event.interviewer_page_url, quote=True)
            sections.append(f'<p><a href="{url}">Interview kit and scorecard</a></p>')
        if event.internal_notes:
            notes = escape(event.internal_notes).replace("\n", "<br>")
            sections.append(f"<p>Notes (internal):<br>{notes}</p>")
    return _html_page(
        f"Hello {recipient.name},", _interviewer_headline(kind, event, as_trainee), sections, organizer
    )


def candidate_html(event: InterviewEvent, candidate: Person, kind: MessageKind, organizer: Organizer) -> str:
    """HTML body for the candidate; every value is escaped."""
    _check_kind(kind, candidate=True)
    sections = [_html_fields(_when_lines(event, candidate) + _place_lines(event))]
    return _html_page(f"Hello {candidate.name},", _candidate_headline(kind, event), sections, organizer)
