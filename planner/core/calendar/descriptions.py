"""DESCRIPTION texts: what an interviewer needs to run the interview, and what a candidate may see.

Kept apart from the email bodies because calendar clients show DESCRIPTION long after the email
is gone; it carries no times (DTSTART does, in every viewer's own zone).
"""

from __future__ import annotations

from planner.core.calendar.events import InterviewEvent


def interviewer_description(event: InterviewEvent) -> str:
    """Candidate, round, competencies to assess, focus questions, place, links and notes."""
    lines = [
        f"Candidate: {event.candidate_name}",
        f"Position: {event.posting_title}",
        f"Round: {event.round_name}",
    ]
    if event.competencies:
        lines += ["", "Competencies to assess:"] + [f"- {c}" for c in event.competencies]
    if event.focus_questions:
        lines += ["", "Focus questions:"] + [f"{i}. {q}" for i, q in enumerate(event.focus_questions, 1)]
    lines.append("")
    if event.location:
        lines.append(f"Location: {event.location}")
    if event.video_url:
        lines.append(f"Video link: {event.video_url}")
    if event.interviewer_page_url:
        lines.append(f"Interview kit and scorecard: {event.interviewer_page_url}")
    if event.internal_notes:
        lines += ["", "Notes (internal):", event.internal_notes]
    return "\n".join(lines).strip()


def candidate_description(event: InterviewEvent) -> str:
    """Round, position and where to go: nothing internal, no interviewer addresses."""
    lines = [f"Position: {event.posting_title}", f"Round: {event.round_name}"]
    if event.location:
        lines.append(f"Location: {event.location}")
    if event.video_url:
        lines.append(f"Video link: {event.video_url}")
    return "\n".join(lines)
