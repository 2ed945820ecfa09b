"""Audit entries in plain words: who did it and what they did, as one sentence per action.

Sentences are built from an entry's details and the names of what it mentions (looked up by the read
side in a fixed number of queries), with times in the viewer's zone. What no longer exists is named
from the details the entry kept ("Kim Lee") or by its number ("loop #12"); an action this module does
not know still reads as a sentence ("Reply recorded (interview #7)").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from planner.core.audit import calendar_wording
from planner.core.prose import and_list

#: Who the entry names when no login made the change.
SYSTEM = "system"
VIA_CALENDAR = "interviewer via calendar"
CANDIDATE = "candidate"
#: ``details.via`` of an answer a calendar client sent ("mail": it came in through the organizer's inbox).
CALENDAR_VIAS = ("calendar", "mail")
#: A suggestion switched to its runner-up: details "from" and "to" are competency slugs.
SWITCH = "posting.competency.switch"


@dataclass(frozen=True)
class LoopName:
    """Whose loop it is and for which posting."""

    candidate: str
    posting_id: int
    posting: str


@dataclass(frozen=True)
class Names:
    """The names the entries of one page mention, by id (what is missing no longer exists)."""

    loops: Mapping[int, LoopName] = field(default_factory=dict)
    interviews: Mapping[int, str] = field(default_factory=dict)
    people: Mapping[int, str] = field(default_factory=dict)
    postings: Mapping[int, str] = field(default_factory=dict)
    competencies: Mapping[str, str] = field(default_factory=dict)
    competency_ids: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """The parts of an audit entry the sentence is made of."""

    action: str
    entity: str
    entity_id: int | None
    details: Mapping
    loop_id: int | None = None
    interviewer_id: int | None = None
    actor_id: int | None = None

    @property
    def the_loop(self) -> int | None:
        """The loop it concerns: the column, else the details or the entity (entries written before the column)."""
        return self.loop_id or _int(self.details.get("loop_id")) or (self.entity_id if self.entity == "loop" else None)

    @property
    def the_person(self) -> int | None:
        """The interviewer it concerns, by the same rule."""
        return self.interviewer_id or (self.entity_id if self.entity == "interviewer" else None)

    def the_posting(self, names: Names) -> int | None:
        if self.entity == "posting":
            return self.entity_id
        posting = _int(self.details.get("posting_id"))
        if posting is None and self.the_loop in names.loops:
            posting = names.loops[self.the_loop].posting_id
        return posting

    @property
    def the_interview(self) -> int | None:
        return self.entity_id if self.entity == "interview" else _int(self.details.get("interview_id"))


def _int(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def who(entry: Entry, actor_name: str | None) -> str:
    """The actor's name; "interviewer via calendar" for an answer from a calendar client; "candidate" for what
    a candidate did through their link (``details.by``); else "system"."""
    if entry.actor_id is not None:
        return actor_name or f"user #{entry.actor_id} (deleted)"
    if entry.details.get("via") in CALENDAR_VIAS or entry.action.startswith(("reply", "itip")):
        return VIA_CALENDAR
    if entry.details.get("by") == CANDIDATE:
        return CANDIDATE
    return SYSTEM


def competency_slugs(entry: Entry) -> list[str]:
    """The library slugs the entry's sentence names (the read side looks their names up)."""
    keys = ("from", "to") if entry.action == SWITCH else ("competency",)
    slugs = [entry.details.get(key) for key in keys] + list(entry.details.get("uncovered") or [])
    return [str(slug) for slug in slugs if slug]


def when(value, zone: ZoneInfo) -> str:
    """An ISO timestamp or aware datetime as "Tue 8 Dec 10:00" in ``zone`` (the text itself when unreadable)."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return value
    if not isinstance(value, datetime):
        return "?"
    moment = (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(zone)
    return f"{moment:%a} {moment.day} {moment:%b %H:%M}"


class _Say:
    """Name lookups for one entry."""

    def __init__(self, entry: Entry, names: Names, zone: ZoneInfo) -> None:
        self.e, self.n, self.zone, self.d = entry, names, zone, entry.details

    def candidate(self) -> str:
        loop = self.e.the_loop
        if loop in self.n.loops:
            return self.n.loops[loop].candidate
        if self.d.get("candidate"):
            return str(self.d["candidate"])
        return f"loop #{loop}" if loop else "a loop"

    def loop(self) -> str:
        name = self.candidate()
        return f"{name}'s loop" if not name.startswith(("loop #", "a loop")) else name

    def round(self) -> str:
        if self.d.get("round_name"):
            return str(self.d["round_name"])
        interview = self.e.the_interview
        return self.n.interviews.get(interview, f"interview #{interview}" if interview else "an interview")

    def person(self, person_id=None) -> str:
        person_id = self.e.the_person if person_id is None else _int(person_id)
        if person_id is None:
            return "an interviewer"
        return self.n.people.get(person_id, f"interviewer #{person_id}")

    def posting(self) -> str:
        posting = self.e.the_posting(self.n)
        if posting in self.n.postings:
            return self.n.postings[posting]
        if self.d.get("title"):
            return str(self.d["title"])
        return f"posting #{posting}" if posting else "a posting"

    def competency(self, slug=None) -> str:
        slug = self.d.get("competency") if slug is None else slug
        if slug is None and self.e.entity == "competency":
            return self.n.competency_ids.get(self.e.entity_id, str(self.d.get("name") or self.d.get("slug") or
                                                                     f"competency #{self.e.entity_id}"))
        return self.n.competencies.get(str(slug), str(slug or "a competency"))

    def when(self, key: str) -> str:
        return when(self.d.get(key), self.zone)

    def calendar(self) -> str:
        return str(self.d.get("source") or "").removeprefix("import:") or "a calendar"

    def count(self, key: str, noun: str, plural: str | None = None) -> str:
        value = self.d.get(key)
        number = len(value) if isinstance(value, list | tuple) else value if isinstance(value, int) else 0
        return f"{number} {noun if number == 1 else plural or noun + 's'}"


def _fields(value) -> str:
    return and_list([str(v).replace("_", " ") for v in value]) if value else "no field"


def _place(s: _Say) -> str:
    where = [part for part in (s.d.get("location"), s.d.get("video_url")) if part]
    target = f"{s.round()} for {s.candidate()}" if s.d.get("round_name") or s.e.entity == "interview" else \
        f"every upcoming interview of {s.loop()}"
    return f"Changed the place of {target} to {' and '.join(where) if where else 'nothing (cleared)'}"


def _replaced(s: _Say) -> str:
    leaving, joining = s.person(s.d.get("leaving")), s.d.get("joining")
    if joining is not None:
        return f"Replaced {leaving} by {s.person(joining)} on {s.round()} for {s.candidate()}"
    changes = s.d.get("changes") or []
    moved = [c for c in changes if isinstance(c, Mapping) and c.get("moved")]
    if moved:
        return f"Took {leaving} off {s.round()} for {s.candidate()} and re-planned {len(changes)} interview(s)"
    return f"Took {leaving} off {s.round()} for {s.candidate()}"


def _decision(verb: str) -> Callable[[_Say], str]:
    def say(s: _Say) -> str:
        weight = f" as {s.d.get('priority')}, {s.count('required_coverage', 'round')}" if verb != "Rejected" else ""
        return f"{verb} {s.competency()} on {s.posting()}{weight}"
    return say


def _promoted(s: _Say) -> str:
    early = " before finishing the training interviews" if s.d.get("forced") else ""
    return f"Promoted {s.person()} in {s.competency()} from {s.d.get('from')} to {s.d.get('to')}{early}"


def _windows(s: _Say) -> str:
    text = f"Changed the availability windows of {s.loop()} ({s.count('windows', 'window')})"
    gap = s.d.get("max_gap_minutes")
    if isinstance(gap, Mapping):
        limit = "no limit" if gap.get("to") is None else f"{gap.get('to')} minutes"
        text += f"; longest break between rounds now {limit}"
    return text


SENTENCES: dict[str, Callable[[_Say], str]] = {
    "posting.create": lambda s: f"Created the posting {s.posting()}",
    "posting.update": lambda s: f"Edited the posting {s.posting()} ({_fields(s.d.get('changed'))})",
    "posting.extract": lambda s: f"Re-ran competency extraction on {s.posting()} "
                                 f"({s.count('suggestions', 'competency', 'competencies')} found)",
    "posting.competency.accept": _decision("Accepted"),
    "posting.competency.reject": _decision("Rejected"),
    "posting.competency.save": _decision("Re-weighed"),
    "posting.competency.add": _decision("Added"),
    "posting.competency.restore": lambda s: f"Put {s.competency()} back among the suggestions of {s.posting()}",
    "posting.competency.accept_all": lambda s: "Accepted " + s.count("count", "suggested competency",
                                                                    "suggested competencies") + f" of {s.posting()}",
    SWITCH: lambda s: f"Switched {s.competency(s.d.get('from'))} to its runner-up {s.competency(s.d.get('to'))} "
                      f"on {s.posting()}",
    "competency.create": lambda s: f"Added {s.competency()} to the competency library",
    "competency.update": lambda s: f"Edited the library entry {s.competency()} ({_fields(s.d.get('changed'))})",
    "competency.retire": lambda s: f"Retired {s.competency()} from the library",
    "competency.restore": lambda s: f"Restored {s.competency()} to the library",
    "library.seed": lambda s: f"Seeded the competency library with {s.count('added', 'entry', 'entries')}",
    "plan_published": lambda s: f"Published version {s.d.get('version')} of the loop plan of {s.posting()} "
                                f"({s.count('rounds', 'round')})",
    "plan_suggested": lambda s: f"Filled the loop plan of {s.posting()} with {s.count('rounds', 'suggested round')}"
                                f" within {s.d.get('budget_minutes')} minutes",
    "round_added": lambda s: f"Added the round {s.d.get('name')} to the plan of {s.posting()}",
    "round_updated": lambda s: f"Edited the round {s.d.get('name')} of the plan of {s.posting()}",
    "round_removed": lambda s: f"Removed the round {s.d.get('name')} from the plan of {s.posting()}",
    "round_moved": lambda s: f"Moved the round {s.d.get('name')} {s.d.get('direction')} in the plan of {s.posting()}",
    "coverage_override": lambda s: f"Scheduled {s.loop()} despite uncovered must-haves: "
                                   f"{and_list([s.competency(x) for x in s.d.get('uncovered') or []] or ['none'])}",
    "loop_created": lambda s: f"Created a loop for {s.candidate()} on {s.posting()}",
    "loop_windows_changed": _windows,
    "loop_scheduled": lambda s: f"Scheduled {s.loop()}: {s.count('interviews', 'interview')}, invites queued",
    "loop_cancelled": lambda s: f"Cancelled {s.loop()} and {s.count('interviews', 'upcoming interview')}",
    "interview_rescheduled": lambda s: f"Rescheduled {s.round()} for {s.candidate()} from {s.when('from')} "
                                       f"to {s.when('to')}",
    "interview_cancelled": lambda s: f"Cancelled {s.round()} for {s.candidate()}",
    "interview_place_changed": _place,
    "interviewer_replaced": _replaced,
    "scorecard_submitted": lambda s: f"Submitted {s.person()}'s scorecard for {s.round()} ({s.candidate()})",
    "scorecard_saved": lambda s: f"Saved a draft of {s.person()}'s scorecard for {s.round()} ({s.candidate()})",
    "scorecard_reminder_queued": lambda s: f"Queued a reminder to {s.person()} about "
                                           f"{s.count('interviews', 'overdue scorecard')}",
    "feed.rotate": lambda s: f"Gave {s.person()} a new calendar feed link (the old one stopped working)",
    "interviewer.create": lambda s: f"Added {s.person()} to the interviewer pool",
    "interviewer.update": lambda s: f"Edited {s.person()}'s profile ({_fields(s.d.get('fields'))})",
    "interviewer.deactivate": lambda s: f"Took {s.person()} out of the pool",
    "interviewer.reactivate": lambda s: f"Brought {s.person()} back into the pool",
    "qualification.add": lambda s: f"Gave {s.person()} {s.competency()} at {s.d.get('level')} level",
    "qualification.change": lambda s: f"Changed {s.person()}'s {s.competency()} from {s.d.get('from')} "
                                      f"to {s.d.get('to')}",
    "qualification.remove": lambda s: f"Removed {s.competency()} ({s.d.get('level')}) from {s.person()}",
    "qualification.promote": _promoted,
    "busy.add": lambda s: f"Added a busy block for {s.person()}: {s.when('start')} to {s.when('end')}",
    "busy.delete": lambda s: f"Deleted a busy block of {s.person()}",
    "busy.import": lambda s: f"Imported {s.count('imported', 'busy block')} for {s.person()} from "
                             f"{s.calendar()} (replacing {s.d.get('replaced', 0)})",
    "busy.remove_import": lambda s: f"Removed the calendar {s.calendar()} of {s.person()} "
                                    f"({s.count('removed', 'block')})",
    "outbox_withdrawn": lambda s: f"Withdrew {s.count('messages', 'unsent message')} to "
                                  f"{s.d.get('recipient', 'a person taken off')} about {s.round()}"
                                  + ("" if s.d.get("cancel_sent") else "; they were never told, so no cancellation"),
    "interview_rebooked": lambda s: f"Booked {s.round()} for {s.candidate()} again at {s.when('start')} "
                                    f"(it had been cancelled)",
    "outbox.resend": lambda s: f"Queued the message to {s.d.get('recipient', 'its recipient')} again "
                               f"(it was {s.d.get('previous_state', 'sent')})",
    "user.create": lambda s: f"Created the login {s.d.get('email', '')} ({s.d.get('roles', '')})",
    "user.update": lambda s: f"Changed the settings of {s.d.get('email', 'a login')} ({_fields(s.d.get('changed'))})",
    "user.password": lambda s: f"Changed the password of {s.d.get('email', 'a login')}",
    "demo.load": lambda s: "Loaded the demo data",
    **calendar_wording.SENTENCES,
}


def _fallback(s: _Say) -> str:
    words = s.e.action.replace(".", " ").replace("_", " ").strip() or "change"
    subject = f"{s.e.entity} #{s.e.entity_id}" if s.e.entity_id is not None else s.e.entity
    return f"{words[:1].upper()}{words[1:]} ({subject})" if subject else words[:1].upper() + words[1:]


def describe(entry: Entry, names: Names, zone: ZoneInfo) -> str:
    """One sentence saying what the entry records, in the viewer's ``zone``."""
    say = _Say(entry, names, zone)
    sentence = SENTENCES.get(entry.action, _fallback)
    try:
        return sentence(say)
    except (TypeError, ValueError, AttributeError):
        # Details of an older shape: say what is certain rather than fail the page.
        return _fallback(say)
