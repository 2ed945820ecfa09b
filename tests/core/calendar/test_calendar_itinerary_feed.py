"""The candidate's itinerary (privacy, own UIDs) and the published feed and download."""

from __future__ import annotations

from datetime import timedelta

import pytest
from icalendar import Calendar

from planner.core.calendar import (
    CalendarInputError,
    build_candidate_cancel,
    build_candidate_request,
    build_download,
    build_feed,
    build_itinerary,
    candidate_message,
    itinerary_uid,
)
from tests.core.calendar.ics_scenario import (
    ALICE,
    ANA,
    CANCELLED,
    CANDIDATE,
    EARLIER_CANCELLED,
    INVITED,
    ORGANIZER,
    RAJ,
    REASSIGNED,
    RELOCATED,
    SECOND_ROUND,
    T0,
    T2,
    T3,
    T4,
)

# Anything on this list reaching the candidate would leak internal interview data.
# Case-sensitive: the competency "compiler design" differs from the round name "Compiler design".
INTERNAL = [
    ALICE.email,
    ANA.email,
    RAJ.email,
    "Doe, Alice",
    "compiler design",
    "pre-silicon feedback",
    "Competencies",
    "Walk me through",
    "Focus questions",
    "Referred by the Neuron team",
    "interviewer/interviews",
    "Zoë Okafor –",
]


def _decoded_text(ics: bytes) -> str:
    """Every property value as the candidate's client shows it (unfolded, unescaped)."""
    cal = Calendar.from_ical(ics)
    return "\n".join(str(value) for component in cal.walk() for value in component.values())


def _candidate_outputs() -> dict[str, str]:
    request_email = candidate_message(INVITED, ORGANIZER, CANDIDATE, T0, kind="invite").email
    cancel_email = candidate_message(CANCELLED, ORGANIZER, CANDIDATE, T4, kind="cancel").email
    return {
        "itinerary": _decoded_text(build_itinerary([RELOCATED, SECOND_ROUND], ORGANIZER, "Yours", T2)),
        "request": _decoded_text(build_candidate_request(INVITED, ORGANIZER, CANDIDATE, T0)),
        "cancel": _decoded_text(build_candidate_cancel(CANCELLED, ORGANIZER, CANDIDATE, T4)),
        "request email": "\n".join(
            p.get_content()
            for p in request_email.walk()
            if not p.is_multipart()
            if p.get_content_maintype() == "text"
        ),
        "cancel email": "\n".join(
            p.get_content()
            for p in cancel_email.walk()
            if not p.is_multipart()
            if p.get_content_maintype() == "text"
        ),
    }


@pytest.mark.parametrize("output", ["itinerary", "request", "cancel", "request email", "cancel email"])
def test_candidate_sees_no_internal_data(output):
    """No interviewer address or name, competency, focus question, note or kit link reaches the candidate."""
    text = _candidate_outputs()[output]
    leaked = [item for item in INTERNAL if item in text]
    assert leaked == []
    assert "Compiler design" in text  # the round name is shown (and the check above is not vacuous)


def test_itinerary_uses_its_own_uids_and_the_interview_sequence():
    """Each round appears once, under itinerary-<interview uid>, with the interview's SEQUENCE."""
    cal = Calendar.from_ical(build_itinerary([SECOND_ROUND, RELOCATED], ORGANIZER, "Yours", T2))
    events = list(cal.walk("VEVENT"))
    assert [str(e["UID"]) for e in events] == [itinerary_uid(RELOCATED.uid), itinerary_uid(SECOND_ROUND.uid)]
    assert [e["SEQUENCE"] for e in events] == [RELOCATED.sequence, SECOND_ROUND.sequence]
    assert cal["METHOD"] == "PUBLISH"
    assert all(e.get("ATTENDEE") is None for e in events)


def test_candidate_request_lists_only_the_candidate():
    """The emailed copy of a round has the candidate as its only ATTENDEE and its own UID."""
    cal = Calendar.from_ical(build_candidate_request(INVITED, ORGANIZER, CANDIDATE, T0))
    (event,) = cal.walk("VEVENT")
    assert cal["METHOD"] == "REQUEST"
    assert str(event["ATTENDEE"]) == f"mailto:{CANDIDATE.email}"
    assert str(event["UID"]) == "itinerary-interview-42@hire.example.com"


def test_itinerary_refuses_empty_and_duplicate_lists():
    """An itinerary without rounds, or with a round twice, is refused."""
    with pytest.raises(CalendarInputError):
        build_itinerary([], ORGANIZER, "Yours", T2)
    with pytest.raises(CalendarInputError):
        build_itinerary([INVITED, RELOCATED], ORGANIZER, "Yours", T2)


def test_feed_has_publish_name_refresh_hints_and_no_attendees():
    """The feed is PUBLISH with NAME, X-WR-CALNAME, REFRESH-INTERVAL;VALUE=DURATION, X-PUBLISHED-TTL."""
    ics = build_feed([REASSIGNED, SECOND_ROUND], ORGANIZER, "Interviews: Doe, Alice", T3, refresh_minutes=30)
    assert b"\r\nREFRESH-INTERVAL;VALUE=DURATION:PT30M\r\n" in ics
    assert b"\r\nX-PUBLISHED-TTL:PT30M\r\n" in ics
    assert b"\r\nNAME:Interviews: Doe\\, Alice\r\n" in ics
    assert b"\r\nX-WR-CALNAME:Interviews: Doe\\, Alice\r\n" in ics
    assert b"ATTENDEE" not in ics
    # Checked as bytes: icalendar 7.3.2 reads NAME/X-WR-CALNAME as vUnknown and keeps the escapes.
    assert Calendar.from_ical(ics)["METHOD"] == "PUBLISH"


def test_feed_events_carry_sequence_last_modified_and_organizer():
    """Every feed event has SEQUENCE, LAST-MODIFIED and ORGANIZER so clients pick up edits."""
    cal = Calendar.from_ical(build_feed([REASSIGNED, SECOND_ROUND, EARLIER_CANCELLED], ORGANIZER, "Mine", T3))
    events = {str(e["UID"]): e for e in cal.walk("VEVENT")}
    assert set(events) == {REASSIGNED.uid, SECOND_ROUND.uid, EARLIER_CANCELLED.uid}
    for event in events.values():
        assert event.get("SEQUENCE") is not None
        assert event.get("ORGANIZER") is not None
    assert events[REASSIGNED.uid].LAST_MODIFIED == REASSIGNED.last_modified_utc
    assert events[EARLIER_CANCELLED.uid]["STATUS"] == "CANCELLED"


def test_feed_uses_the_same_uids_as_the_invites():
    """A feed event and the emailed invite for the same round share one UID."""
    cal = Calendar.from_ical(build_feed([INVITED], ORGANIZER, "Mine", T0))
    (event,) = cal.walk("VEVENT")
    assert str(event["UID"]) == INVITED.uid


@pytest.mark.parametrize("minutes", [0, -5, True, 1.5])
def test_feed_refuses_a_bad_refresh_interval(minutes):
    """Refresh intervals are whole positive minutes."""
    with pytest.raises(CalendarInputError):
        build_feed([INVITED], ORGANIZER, "Mine", T0, refresh_minutes=minutes)


def test_feed_refuses_a_multiline_name():
    """A calendar name with a line break is refused rather than written into the file."""
    with pytest.raises(CalendarInputError):
        build_feed([INVITED], ORGANIZER, "Mine\nX-EVIL:1", T0)


def test_download_is_publish_without_attendees():
    """The single-interview download is PUBLISH, keeps UID and SEQUENCE, and lists no attendee."""
    ics = build_download(RELOCATED, ORGANIZER, T2 + timedelta(minutes=5))
    cal = Calendar.from_ical(ics)
    (event,) = cal.walk("VEVENT")
    assert cal["METHOD"] == "PUBLISH"
    assert event.get("ATTENDEE") is None
    assert (str(event["UID"]), event["SEQUENCE"]) == (RELOCATED.uid, RELOCATED.sequence)


def test_empty_feed_is_served_for_a_new_interviewer():
    """A feed without interviews still has METHOD, name and refresh hints, and parses.

    Serving it beats a 404 that makes clients drop the subscription; its one component is a journal
    entry no client shows (see test_calendar_empty_feed).
    """
    cal = Calendar.from_ical(build_feed([], ORGANIZER, "Mine", T0))
    assert cal["METHOD"] == "PUBLISH"
    assert list(cal.walk("VEVENT")) == []
    assert cal.get("X-PUBLISHED-TTL") is not None
