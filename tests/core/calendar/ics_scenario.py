"""A fixed interview history (fixed ``now`` values, UIDs and people) that produces every calendar file.

Interview 42 goes through invite -> reschedule -> room change -> reassignment (Ana off, Ben on) ->
cancel. The panel sits in four zones (Berlin, Los Angeles, Kolkata, and a trainee in Sydney; Ben,
added later, in New York) and the candidate in a fifth (Sao Paulo). Interview 77 straddles the
2027 European daylight-saving change. Every timestamp moves forward, as in real use.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from planner.core.calendar import (
    REASSIGNMENT_SEQUENCE_STEP,
    InterviewEvent,
    Organizer,
    Person,
    build_cancel,
    build_candidate_cancel,
    build_candidate_request,
    build_download,
    build_feed,
    build_itinerary,
    build_reassignment,
    build_request,
    candidate_message,
    panel_cancel_messages,
    panel_request_messages,
    reassignment_messages,
)

ORGANIZER = Organizer("recruiting@hire.example.com", "Hire Example Recruiting")
ALICE = Person("alice@hire.example.com", "Doe, Alice", "Europe/Berlin")
ANA = Person("ana@hire.example.com", "Ana Ruiz", "America/Los_Angeles")
RAJ = Person("raj@hire.example.com", "Raj Patel", "Asia/Kolkata")
MEI = Person("mei@hire.example.com", "Mei Chen", "Australia/Sydney")
BEN = Person("ben@hire.example.com", "Ben Okoro", "America/New_York")
CANDIDATE = Person("zoe.okafor@example.org", "Zoë Okafor", "America/Sao_Paulo")

T0 = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)  # invite
T1 = datetime(2027, 3, 2, 10, 0, tzinfo=UTC)  # reschedule
T2 = datetime(2027, 3, 3, 11, 0, tzinfo=UTC)  # room change
T3 = datetime(2027, 3, 4, 12, 0, tzinfo=UTC)  # reassignment
T4 = datetime(2027, 3, 5, 13, 0, tzinfo=UTC)  # cancel

INVITED = InterviewEvent(
    uid="interview-42@hire.example.com",
    sequence=0,
    start_utc=datetime(2027, 3, 30, 16, 0, tzinfo=UTC),
    end_utc=datetime(2027, 3, 30, 17, 0, tzinfo=UTC),
    last_modified_utc=T0,
    candidate_name="Zoë Okafor",
    posting_title="Senior ML Compiler Engineer",
    round_name="Compiler design",
    competencies=("compiler design", "pre-silicon feedback"),
    focus_questions=(
        "Walk me through a compiler pass you wrote; what broke first?",
        "How would you lower a fused op, step by step, for a new accelerator?",
    ),
    location="Room 4.12, Berlin; 4th floor",
    video_url="https://meet.example.com/abc-defg-hij",
    interviewer_page_url="https://planner.example.com/interviewer/interviews/42",
    internal_notes='Referred by the Neuron team; probe "ownership" <carefully>.',
)
RESCHEDULED = replace(
    INVITED,
    sequence=1,
    start_utc=datetime(2027, 3, 31, 15, 0, tzinfo=UTC),
    end_utc=datetime(2027, 3, 31, 16, 0, tzinfo=UTC),
    last_modified_utc=T1,
)
RELOCATED = replace(RESCHEDULED, sequence=2, location="Room 2.01, Berlin", last_modified_utc=T2)
REASSIGNED = replace(
    RELOCATED, sequence=RELOCATED.sequence + REASSIGNMENT_SEQUENCE_STEP, last_modified_utc=T3
)
CANCELLED = replace(REASSIGNED, sequence=REASSIGNED.sequence + 1, status="CANCELLED", last_modified_utc=T4)

SECOND_ROUND = InterviewEvent(
    uid="interview-43@hire.example.com",
    sequence=0,
    start_utc=datetime(2027, 3, 31, 16, 30, tzinfo=UTC),
    end_utc=datetime(2027, 3, 31, 17, 15, tzinfo=UTC),
    last_modified_utc=T0,
    candidate_name="Zoë Okafor",
    posting_title="Senior ML Compiler Engineer",
    round_name="Customer ownership",
    competencies=("customer ownership", "mentoring"),
    focus_questions=("Tell me about a customer escalation you owned end to end.",),
    video_url="https://meet.example.com/klm-nopq-rst",
    interviewer_page_url="https://planner.example.com/interviewer/interviews/43",
)
EARLIER_CANCELLED = InterviewEvent(
    uid="interview-41@hire.example.com",
    sequence=1,
    start_utc=datetime(2027, 3, 29, 14, 0, tzinfo=UTC),
    end_utc=datetime(2027, 3, 29, 14, 45, tzinfo=UTC),
    last_modified_utc=T1,
    candidate_name="Lee Kim",
    posting_title="Senior ML Compiler Engineer",
    round_name="Phone screen",
    status="CANCELLED",
)
ACROSS_DST = InterviewEvent(
    uid="interview-77@hire.example.com",
    sequence=0,
    # Europe/Berlin moves from CET to CEST at 01:00 UTC on 28 March 2027.
    start_utc=datetime(2027, 3, 28, 0, 30, tzinfo=UTC),
    end_utc=datetime(2027, 3, 28, 1, 30, tzinfo=UTC),
    last_modified_utc=T0,
    candidate_name="Sam Tanaka",
    posting_title="Senior ML Compiler Engineer",
    round_name="Bar raiser",
    competencies=("mentoring",),
    video_url="https://meet.example.com/dst-test",
)

PANEL = (ALICE, ANA, RAJ)
TRAINEES = (MEI,)
NEW_PANEL = (ALICE, BEN, RAJ)


def calendar_files() -> dict[str, bytes]:
    """Every kind of .ics the app produces, keyed by file name."""
    reassignment = build_reassignment(REASSIGNED, ORGANIZER, [ANA], NEW_PANEL, T3, trainees=TRAINEES)
    return {
        "invite.ics": build_request(INVITED, ORGANIZER, PANEL, T0, trainees=TRAINEES),
        "reschedule.ics": build_request(RESCHEDULED, ORGANIZER, PANEL, T1, trainees=TRAINEES),
        "relocate.ics": build_request(RELOCATED, ORGANIZER, PANEL, T2, trainees=TRAINEES),
        "reassign-cancel.ics": reassignment.cancel_for_removed,
        "reassign-request.ics": reassignment.request_for_panel,
        "cancel.ics": build_cancel(CANCELLED, ORGANIZER, NEW_PANEL, T4, trainees=TRAINEES),
        "candidate-invite.ics": build_candidate_request(INVITED, ORGANIZER, CANDIDATE, T0),
        "candidate-reschedule.ics": build_candidate_request(RESCHEDULED, ORGANIZER, CANDIDATE, T1),
        "candidate-cancel.ics": build_candidate_cancel(CANCELLED, ORGANIZER, CANDIDATE, T4),
        "itinerary.ics": build_itinerary(
            [RELOCATED, SECOND_ROUND], ORGANIZER, "Your interviews at Hire Example", T2
        ),
        "feed-alice.ics": build_feed(
            [REASSIGNED, SECOND_ROUND, EARLIER_CANCELLED], ORGANIZER, "Interviews: Doe, Alice", T3
        ),
        "download.ics": build_download(SECOND_ROUND, ORGANIZER, T2),
        "dst-invite.ics": build_request(ACROSS_DST, ORGANIZER, [ALICE, ANA], T0),
    }


def _short(person: Person) -> str:
    return person.email.split("@")[0].split(".")[0]


def email_files() -> dict[str, bytes]:
    """Every iMIP email of the history, one per recipient, keyed by file name."""
    steps = {
        "invite": panel_request_messages(INVITED, ORGANIZER, PANEL, T0, trainees=TRAINEES),
        "reschedule": panel_request_messages(
            RESCHEDULED, ORGANIZER, PANEL, T1, kind="update", trainees=TRAINEES
        ),
        "reassign": reassignment_messages(
            REASSIGNED, ORGANIZER, [ANA], [BEN], NEW_PANEL, T3, trainees=TRAINEES
        ),
        "cancel": panel_cancel_messages(CANCELLED, ORGANIZER, NEW_PANEL, T4, trainees=TRAINEES),
        "candidate-invite": (candidate_message(INVITED, ORGANIZER, CANDIDATE, T0, kind="invite"),),
        "candidate-cancel": (candidate_message(CANCELLED, ORGANIZER, CANDIDATE, T4, kind="cancel"),),
        "dst-invite": panel_request_messages(ACROSS_DST, ORGANIZER, [ALICE, ANA], T0),
    }
    files = {}
    for step, messages in steps.items():
        for message in messages:
            files[f"{step}-{message.method.lower()}-{_short(message.recipient)}.eml"] = (
                message.email.as_bytes()
            )
    return files


def all_files() -> dict[str, bytes]:
    """Calendar files and emails together."""
    return {**calendar_files(), **email_files()}


def write_files(directory: Path) -> dict[str, Path]:
    """Write every output to ``directory`` and return the paths by file name."""
    paths = {}
    for name, data in all_files().items():
        path = directory / name
        path.write_bytes(data)
        paths[name] = path
    return paths


# The version of interview 42 (or of the candidate's copy) that each email follows, for --pair checks.
PREDECESSOR = {
    "reschedule": "invite.ics",
    "reassign": "relocate.ics",
    "cancel": "reassign-request.ics",
    "candidate-cancel": "candidate-reschedule.ics",
}


def predecessor_of(email_name: str) -> str | None:
    """The .ics an email's calendar part must be a newer version of, if any."""
    for step, previous in sorted(PREDECESSOR.items(), key=lambda item: -len(item[0])):
        if email_name.startswith(step + "-"):
            return previous
    return None
