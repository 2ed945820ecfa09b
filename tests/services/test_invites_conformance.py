"""Every kind of calendar file the app produces passes ../shared/tools/ics_check.py (--pair for versions)."""

from __future__ import annotations

from datetime import timedelta

from icalendar import Calendar
from invitedata import NOW, SETTINGS, make_interviewer, make_loop
from sqlalchemy import select, update

from planner.models import InterviewStatus, OutboxMessage, OutboxState, Seat, SeatRole, SeatStatus
from planner.services import invites
from planner.services.feeds import feed_for_token, interview_download
from planner.services.invite_export import export_loop
from planner.services.outbox import eml_bytes
from tests.core.calendar.ics_checker import run_ics_check

TRAINEE = ("Tia Shadow", "tia@hire.example", "Europe/London")


def _history_of_a_loop(db):
    """Invite, reschedule, reassignment and cancellation, each an hour apart."""
    scenario = make_loop(db, rounds=2, trainee=TRAINEE)
    first, second = scenario.interviews
    invites.announce_scheduled(db, [first.id, second.id], settings=SETTINGS, now=NOW)
    first.start += timedelta(days=1)
    first.end += timedelta(days=1)
    invites.announce_changed(db, first.id, settings=SETTINGS, now=NOW + timedelta(hours=1))
    # Delivered, so Ana heard of the interview and gets the CANCEL when taken off.
    db.execute(update(OutboxMessage).values(state=OutboxState.SENT))
    ana_seat = next(s for s in first.seats if s.interviewer.email == "ana@hire.example")
    ana_seat.status = SeatStatus.REMOVED
    noor = make_interviewer(db, "Noor Ali", "noor@hire.example", "Asia/Kolkata")
    db.add(Seat(interview_id=first.id, interviewer_id=noor.id, role=SeatRole.ASSESSOR))
    db.flush()
    db.expire(first)
    invites.announce_replaced(
        db, first.id, ana_seat.interviewer_id, settings=SETTINGS, now=NOW + timedelta(hours=2)
    )
    second.status = InterviewStatus.CANCELLED
    invites.announce_cancelled(db, second.id, settings=SETTINGS, now=NOW + timedelta(hours=3))
    db.commit()
    return scenario


def _check(*args):
    result = run_ics_check(*args)
    assert result.returncode == 0 and not result.problems, result.output
    return result


def test_export_with_history_passes_the_checker_with_pairs(db, tmp_path):
    """Exported invites, itinerary and every version sent pass; consecutive versions pass --pair."""
    scenario = _history_of_a_loop(db)
    first, second = scenario.interviews
    out = tmp_path / "export"
    result = export_loop(
        db, scenario.loop.id, out, settings=SETTINGS, now=NOW + timedelta(hours=4), history=True
    )
    assert {"itinerary.ics", f"interview-{first.id}.ics", f"interview-{second.id}.ics"} <= set(result.files)
    h1, h2 = out / "history" / f"interview-{first.id}", out / "history" / f"interview-{second.id}"
    assert sorted(p.name for p in h1.iterdir()) == [
        "seq00-candidate-request.ics",
        "seq00-invite-request.ics",
        "seq01-candidate-request.ics",
        "seq01-update-request.ics",
        "seq02-reassign-cancel.ics",
        "seq03-reassign-request.ics",
    ]
    assert sorted(p.name for p in h2.iterdir()) == [
        "seq00-candidate-request.ics",
        "seq00-invite-request.ics",
        "seq01-cancel-cancel.ics",
        "seq01-candidate-cancel.ics",
    ]
    pairs = [
        (h1 / "seq00-invite-request.ics", h1 / "seq01-update-request.ics"),  # reschedule
        (h1 / "seq01-update-request.ics", h1 / "seq02-reassign-cancel.ics"),  # taken off
        (h1 / "seq01-update-request.ics", h1 / "seq03-reassign-request.ics"),  # new panel
        (h1 / "seq00-candidate-request.ics", h1 / "seq01-candidate-request.ics"),
        (h2 / "seq00-invite-request.ics", h2 / "seq01-cancel-cancel.ics"),  # cancellation
        (h2 / "seq00-candidate-request.ics", h2 / "seq01-candidate-cancel.ics"),
    ]
    pair_args = [arg for a, b in pairs for arg in ("--pair", a, b)]
    checked = _check(*pair_args)
    assert checked.summary.startswith(f"{len({p for pair in pairs for p in pair})} files, 0 problems")
    backwards = run_ics_check("--pair", h1 / "seq01-update-request.ics", h1 / "seq00-invite-request.ics")
    assert backwards.returncode == 1  # the checker does catch a version that goes back
    _check(out / "history")
    _check(out / "itinerary.ics", out / f"interview-{first.id}.ics", out / f"interview-{second.id}.ics")
    itinerary = (out / "itinerary.ics").read_bytes().replace(b"\r\n ", b"")
    assert (
        b"METHOD:PUBLISH" in itinerary and b"ATTENDEE" not in itinerary and b"STATUS:CANCELLED" in itinerary
    )
    assert b"METHOD:CANCEL" in (out / f"interview-{second.id}.ics").read_bytes()


def test_eml_of_every_outbox_message_passes(db, tmp_path):
    """The .eml of every queued message (invite, update, reassign, cancel, candidate copy) passes."""
    _history_of_a_loop(db)
    messages = list(db.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
    assert {m.kind for m in messages} == {"invite", "update", "reassign", "cancel", "itinerary"}
    # One folder per mailbox: each recipient sees their own sequence of versions (the same CANCEL
    # mailed to four people is four first copies, not one replayed cancel).
    for message in messages:
        box = tmp_path / message.recipient_email
        box.mkdir(exist_ok=True)
        (box / f"{message.id:03d}-{message.kind}-{message.method.lower()}.eml").write_bytes(
            eml_bytes(message)
        )
    boxes = sorted(p for p in tmp_path.iterdir())
    assert len(boxes) == 6
    checked = 0
    for box in boxes:
        result = _check(box)
        checked += int(result.summary.split()[0])
    assert checked == len(messages)


def test_feed_and_download_pass(db, tmp_path):
    """The subscription feed (with a cancelled interview) and a single download pass the checker."""
    scenario = _history_of_a_loop(db)
    oliver = next(p for p in scenario.interviewers if p.email == "oliver@hire.example")
    feed = feed_for_token(db, oliver.feed_token, settings=SETTINGS, now=NOW + timedelta(hours=5))
    assert feed is not None and b"STATUS:CANCELLED" in feed.body
    (tmp_path / "feed.ics").write_bytes(feed.body)
    ics, _ = interview_download(
        db, oliver.id, scenario.interviews[0].id, settings=SETTINGS, now=NOW + timedelta(hours=5)
    )
    (tmp_path / "download.ics").write_bytes(ics)
    _check(tmp_path)
    assert (
        feed_for_token(db, oliver.feed_token, settings=SETTINGS, now=NOW + timedelta(hours=6)).etag
        == feed.etag
    )


def _sequence_of(path, uid_prefix: str = "") -> tuple[str, int]:
    cal = Calendar.from_ical(path.read_bytes())
    (event,) = [e for e in cal.walk("VEVENT") if str(e["UID"]).startswith(uid_prefix)]
    return str(cal["METHOD"]), int(event["SEQUENCE"])


def test_current_files_and_itinerary_come_after_the_history_they_are_exported_with(db, tmp_path):
    """Checked as one folder, the export has no version that repeats or undoes the history: a cancelled
    interview's current file and its itinerary entry carry a SEQUENCE above the CANCEL that was mailed."""
    scenario = _history_of_a_loop(db)
    second = scenario.interviews[1]
    out = tmp_path / "export"
    export_loop(db, scenario.loop.id, out, settings=SETTINGS, now=NOW + timedelta(hours=4), history=True)
    mailed = db.scalars(select(OutboxMessage).where(OutboxMessage.interview_id == second.id,
                                                    OutboxMessage.method == "CANCEL")).all()
    assert {m.sequence for m in mailed} == {1}
    assert _sequence_of(out / f"interview-{second.id}.ics") == ("CANCEL", 2)
    assert _sequence_of(out / "itinerary.ics", f"itinerary-{second.uid}") == ("PUBLISH", 2)
    _check(out)
