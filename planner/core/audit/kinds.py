"""Kinds of audit entries: the readable groups the audit page filters on, each a set of actions.

An action no kind names (one written by a newer part of the app, or an old one since renamed) falls
under "other", so the filter never hides an entry for good.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    """One choice of the audit page's "Kind" filter."""

    key: str
    label: str
    actions: tuple[str, ...] = ()
    #: Actions starting with one of these belong here too (families such as "busy.").
    prefixes: tuple[str, ...] = ()

    def matches(self, action: str) -> bool:
        return action in self.actions or (bool(self.prefixes) and action.startswith(self.prefixes))


OTHER = "other"

KINDS: tuple[Kind, ...] = (
    Kind("postings", "Postings and their competencies", prefixes=("posting.",)),
    Kind("library", "Competency library", prefixes=("competency.", "library.")),
    Kind("plans", "Loop plans and rounds", ("plan_published", "plan_suggested", "round_added", "round_updated",
                                            "round_removed", "round_moved")),
    Kind("loops", "Loops (create, schedule, cancel)",
         ("loop_created", "loop_windows_changed", "loop_scheduled", "loop_cancelled", "coverage_override")),
    Kind("candidates", "Candidate bookings", prefixes=("candidate_",)),
    Kind("interviews", "Interviews (move, cancel, place)",
         ("interview_rescheduled", "interview_cancelled", "interview_place_changed", "interview_rebooked")),
    Kind("assignments", "Interviewer replacements", ("interviewer_replaced",)),
    Kind("answers", "Interviewers' answers",
         ("reply_recorded", "invite_answered", "counter_received", "counter_accepted", "counter_dismissed")),
    Kind("scorecards", "Scorecards and reminders", prefixes=("scorecard",)),
    Kind("people", "Interviewers and feeds", prefixes=("interviewer.", "feed.")),
    Kind("qualifications", "Qualifications and promotions", prefixes=("qualification.",)),
    Kind("busy", "Busy time and calendars", prefixes=("busy.", "calendar.")),
    Kind("outbox", "Outbox", ("outbox_withdrawn",), prefixes=("outbox.",)),
    Kind("users", "Logins and settings", prefixes=("user.", "demo.")),
)

_BY_KEY = {kind.key: kind for kind in KINDS}


def kind_choices() -> list[tuple[str, str]]:
    """(key, label) of every kind, in page order, "other" last."""
    return [(kind.key, kind.label) for kind in KINDS] + [(OTHER, "Other changes")]


def get_kind(key: str) -> Kind | None:
    """The kind called ``key``; None for "other" and for unknown keys."""
    return _BY_KEY.get(key)


def is_kind(key: str) -> bool:
    return key == OTHER or key in _BY_KEY


def kind_of(action: str) -> str:
    """The key of the kind an action belongs to ("other" when none names it)."""
    return next((kind.key for kind in KINDS if kind.matches(action)), OTHER)
