"""Sentences of the calendar side of the trail: interviewers' answers and proposed times, candidates' links
and bookings, CalDAV calendars.

Each takes the lookup helper of :mod:`planner.core.audit.wording` (``s``: names of the loop, round and
person, times in the viewer's zone) and returns one sentence; the entry's reason shows in its own column,
so it is not repeated here. Entries written before the interview's time was kept in the details read
without it.
"""

from __future__ import annotations

from collections.abc import Callable

#: How each calendar answer (PARTSTAT) reads after the person's name.
ANSWERED = {"accepted": "accepted", "declined": "declined", "tentative": "tentatively accepted",
            "needs-action": "took back their answer to"}
#: How an answer that did not come straight from the person's calendar reached the planner.
ANSWERED_VIA = {"upload": " (answer uploaded)", "app": " on their interviews page"}


def _at(s, key: str = "start") -> str:
    return f" ({s.when(key)})" if s.d.get(key) else ""


def _answered(s) -> str:
    verb = ANSWERED.get(str(s.d.get("partstat")), f"answered {s.d.get('partstat')} to")
    return f"{s.person()} {verb} {s.round()} for {s.candidate()}{_at(s)}{ANSWERED_VIA.get(s.d.get('via'), '')}"


def _link(verb: str) -> Callable:
    def say(s) -> str:
        older = s.d.get("revoked") or []
        revoked = "; the older link no longer works" if len(older) == 1 else \
            "; the older links no longer work" if older else ""
        until = f" (works until {s.when('expires_at')})" if s.d.get("expires_at") else ""
        return f"{verb} {s.candidate()} a link to book their interviews{until}{revoked}"
    return say


def _timezone(s) -> str:
    how = "detected by their browser" if s.d.get("detected") else "chosen by them"
    return f"{s.candidate()}'s time zone set to {s.d.get('to')} ({how}; it was {s.d.get('from')})"


def _calendar_set(s) -> str:
    verb = "Connected" if s.d.get("created") else "Changed"
    secret = {"changed": "; new password saved", "kept": "; saved password kept"}.get(s.d.get("secret"), "")
    return f"{verb} {s.person()}'s CalDAV calendar ({s.d.get('url', 'its address')}{secret})"


def _calendar_sync(s) -> str:
    added, removed = s.d.get("added", 0), s.d.get("removed", 0)
    return (f"Synced {s.person()}'s CalDAV calendar: {s.count('blocks', 'busy block')} from "
            f"{s.count('events', 'event')} ({added} new, {removed} gone)")


SENTENCES: dict[str, Callable] = {
    "calendar.set": _calendar_set,
    "calendar.sync": _calendar_sync,
    "calendar.remove": lambda s: f"Disconnected {s.person()}'s CalDAV calendar and removed "
                                 f"{s.count('removed_blocks', 'busy block')} it brought",
    "calendar.rotate_key": lambda s: f"Re-encrypted {s.count('secrets', 'saved calendar password')} "
                                     "under the newest key",
    "reply_recorded": _answered,
    "invite_answered": _answered,
    "counter_received": lambda s: f"{s.person()} proposed moving {s.round()} for {s.candidate()} "
                                  f"to {s.when('start')}",
    "counter_accepted": lambda s: f"Accepted {s.person()}'s proposed time for {s.round()} for {s.candidate()}: "
                                  f"{s.when('start')}",
    "counter_dismissed": lambda s: f"Kept the time of {s.round()} for {s.candidate()}; dismissed "
                                   f"{s.person()}'s proposal{_at(s)}",
    "candidate_link_created": _link("Made"),
    "candidate_link_sent": _link("Sent"),
    "candidate_link_revoked": lambda s: f"Revoked {s.candidate()}'s link to book their interviews "
                                        f"({s.count('links', 'link')})",
    "candidate_booked": lambda s: f"{s.candidate()} booked {s.count('interviews', 'interview')}, starting "
                                  f"{s.when('start')}; invites queued",
    "candidate_rescheduled": lambda s: f"{s.candidate()} moved their interviews from {s.when('from')} "
                                       f"to {s.when('to')}",
    "candidate_cancelled": lambda s: f"{s.candidate()} cancelled {s.count('interviews', 'interview')}; the loop "
                                     "is a draft again",
    "candidate_timezone_set": _timezone,
    "candidate_availability": lambda s: f"{s.candidate()} gave their availability "
                                        f"({s.count('windows', 'window')})",
}
