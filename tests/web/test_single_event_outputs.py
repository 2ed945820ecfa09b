"""Everything offered as one event holds one UID, and a CalDAV server stores each as one object.

After a loop goes through every kind of change, this collects every output a client is invited to
import or act on as a single event: the text/calendar part and the .ics attachment of every email,
the coordinator's .ics download of every outbox message, every interviewer's "Add to calendar" file,
and the export's per-interview and history files. Feeds and the itinerary hold several UIDs on
purpose (they are subscribed to or imported as a calendar, never PUT as one object); the last test
shows why they must stay out of the single-event paths: Radicale refuses the itinerary as one object.
"""

from __future__ import annotations

import email
import email.policy

import pytest
from icalendar import Calendar
from invitestory import every_kind_of_change
from loopworld import SETTINGS
from sqlalchemy import select

from planner.core.errors import NotFound
from planner.models import Interview, OutboxMessage, Seat, SeatStatus
from planner.services.feeds import interview_download
from planner.services.invite_export import export_loop
from tests.core.calendar.radicale_server import caldav_put, radicale_url  # noqa: F401 (fixture)


def _uids(ics: bytes) -> set[str]:
    cal = Calendar.from_ical(ics)
    return {str(c["UID"]) for c in cal.subcomponents if c.get("UID") is not None}


def _calendar_parts(eml: bytes) -> list[tuple[str, bytes]]:
    message = email.message_from_bytes(eml, policy=email.policy.default)
    return [(part.get_content_type(), part.get_payload(decode=True)) for part in message.walk()
            if part.get_content_type() in ("text/calendar", "application/ics")]


def _single_event_outputs(db, client, story, tmp_path) -> dict[str, bytes]:
    outputs: dict[str, bytes] = {}
    for row in db.scalars(select(OutboxMessage).where(OutboxMessage.loop_id == story.loop_id)):
        eml = client.get(f"/coordinator/outbox/{row.id}.eml")
        assert eml.status_code == 200
        parts = _calendar_parts(eml.data)
        assert parts and parts[0][0] == "text/calendar"
        for number, (kind, payload) in enumerate(parts):
            outputs[f"outbox-{row.id}-{row.kind}-{row.method}.eml#{kind}-{number}"] = payload
        download = client.get(f"/coordinator/outbox/{row.id}.ics")
        assert download.status_code == 200 and download.data == row.ics
        outputs[f"outbox-{row.id}.ics"] = download.data
    seats = db.scalars(select(Seat).join(Interview).where(Interview.loop_id == story.loop_id,
                                                          Seat.status != SeatStatus.REMOVED))
    downloads = 0
    for seat in seats:
        try:
            ics, _ = interview_download(db, seat.interviewer_id, seat.interview_id, settings=SETTINGS,
                                        now=story.steps[-1][1])
        except NotFound:
            continue  # cancelled: no file is offered (the page answers 410)
        outputs[f"download-{seat.interviewer_id}-{seat.interview_id}.ics"] = ics
        downloads += 1
    out = tmp_path / "export"
    export_loop(db, story.loop_id, out, settings=SETTINGS, now=story.steps[-1][1], history=True)
    for path in out.rglob("*.ics"):
        if path.name != "itinerary.ics":
            outputs[f"export/{path.relative_to(out).as_posix()}"] = path.read_bytes()
    return outputs


@pytest.mark.parametrize("stop_before", ["cancel interview", None])
def test_every_single_event_output_holds_one_uid(db, login, tmp_path, stop_before):
    """Every email's calendar parts, every outbox .ics, every download and every exported single-event file
    holds exactly one UID, the UID of its interview or of the candidate's copy of it (before the
    cancellations, while interviewers still have files to download, and after them)."""
    client = login("coordinator")
    story = every_kind_of_change(db, stop_before=stop_before)
    outputs = _single_event_outputs(db, client, story, tmp_path)
    interview_uids = {i.uid for i in db.scalars(select(Interview).where(Interview.loop_id == story.loop_id))}
    allowed = interview_uids | {f"itinerary-{uid}" for uid in interview_uids}
    kinds = {name.split("-", 1)[0].split("/", 1)[0] for name in outputs}
    assert kinds == ({"outbox", "export", "download"} if stop_before else {"outbox", "export"})
    assert len(outputs) > 50
    for name, ics in outputs.items():
        uids = _uids(ics)
        assert len(uids) == 1 and uids <= allowed, (name, uids)


def test_a_caldav_server_stores_each_single_event_output_as_one_object(db, login, tmp_path, radicale_url):  # noqa: F811
    """Radicale stores every single-event output (METHOD removed, RFC 4791 4.1) as one object; the itinerary,
    which holds every round, is refused as one object, as a feed would be."""
    client = login("coordinator")
    story = every_kind_of_change(db, stop_before="cancel interview")
    outputs = _single_event_outputs(db, client, story, tmp_path)
    distinct = {ics: name for name, ics in outputs.items()}  # the same bytes once
    refused = {name: result.status for ics, name in distinct.items()
               if (result := caldav_put(radicale_url, ics)).status != 201}
    assert refused == {}
    export_loop(db, story.loop_id, tmp_path / "again", settings=SETTINGS, now=story.steps[-1][1])
    itinerary = (tmp_path / "again" / "itinerary.ics").read_bytes()
    assert len(_uids(itinerary)) == 2
    assert caldav_put(radicale_url, itinerary).status in (400, 403, 409)
