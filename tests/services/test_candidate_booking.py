"""A candidate books, moves and cancels through their link; every change re-checked, announced and audited."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest
from candidateworld import MAIL, OFFERS, counts, issue, offers_now
from icalendar import Calendar
from loopworld import NOW, World, utc
from sqlalchemy import select

from planner.core.errors import Conflict, ValidationFailed
from planner.models import AuditEntry, BusyBlock, InterviewStatus, LoopStatus, OutboxMessage, SeatStatus
from planner.services import candidate_booking as booking
from planner.services import candidate_links
from planner.services.loops import WindowInput


def _world(db, **loop):
    world = World(db)
    pool = world.basic_pool()
    link_loop = world.loop(windows=(), **loop)
    link_id, secret = issue(db, link_loop)
    return world, pool, link_loop, link_id, secret


def _messages(db, loop_id):
    return list(db.scalars(select(OutboxMessage).where(OutboxMessage.loop_id == loop_id)
                           .order_by(OutboxMessage.id)))


def test_booking_the_second_offered_time_confirms_and_queues_invites(db):
    """The loop is scheduled from the picked start; one REQUEST per interviewer and the itinerary are queued."""
    _world_, _pool, loop, link_id, secret = _world(db)
    second = offers_now(db, loop).times[1]
    created = booking.book(db, link_id, secret, second.start, now=NOW, settings=OFFERS, mail=MAIL)
    assert loop.status == LoopStatus.SCHEDULED
    assert min(i.start for i in created) == second.start
    messages = _messages(db, loop.id)
    panel = {s.interviewer.email for i in created for s in i.seats}
    requests = [m for m in messages if m.kind == "invite" and m.method == "REQUEST"]
    assert sorted(m.recipient_email for m in requests) == sorted(panel)
    itinerary = [m for m in messages if m.kind == "itinerary"]
    assert len(itinerary) == len(created) and {m.recipient_email for m in itinerary} == {"kim@cand.example"}
    # The candidate's windows are now the business hours of the day picked.
    assert [(w.start, w.end) for w in loop.windows] == [(utc(2030, 3, 5, 14), utc(2030, 3, 5, 22))]
    audit = db.scalar(select(AuditEntry).where(AuditEntry.action == "candidate_booked"))
    assert audit.loop_id == loop.id and audit.actor_id is None and audit.details["by"] == "candidate"
    link = candidate_links.live_link(db, loop.id, NOW)
    assert link.expires_at >= max(i.end for i in created)


def test_a_time_that_became_unstaffable_is_refused_with_fresh_times(db):
    """Between page load and pick Ana became busy all day: nothing is booked, and that time is gone."""
    _world_, pool, loop, link_id, secret = _world(db)
    picked = offers_now(db, loop).times[0]
    db.add(BusyBlock(interviewer_id=pool["ana"].id, start=picked.start - timedelta(hours=6),
                     end=picked.start + timedelta(hours=12)))
    db.commit()
    before = counts(db)
    with pytest.raises(Conflict, match="just taken"):
        booking.book(db, link_id, secret, picked.start, now=NOW, settings=OFFERS, mail=MAIL)
    assert counts(db) == before
    assert loop.status == LoopStatus.DRAFT
    assert picked.start not in {t.start for t in offers_now(db, loop).times}


def test_a_time_staffed_by_someone_else_now_is_still_booked(db):
    """The person shown is taken, but another qualified person is free then: the pick is booked with them."""
    world, pool, loop, link_id, secret = _world(db)
    world.person("Bea", "America/Los_Angeles", {"compiler-design": "qualified"}, hours=("06:00", "14:00"))
    picked = offers_now(db, loop).times[0]
    shown = {p for i in picked.interviews for p in i["interviewers"]}
    tech = next(i for i in picked.interviews if i["round"] == "tech")
    taker = int(tech["interviewers"][0][1:])
    world.booked(db.get(type(pool["ana"]), taker), picked.start - timedelta(hours=1), picked.end)
    db.commit()
    created = booking.book(db, link_id, secret, picked.start, now=NOW, settings=OFFERS, mail=MAIL)
    seated = {f"p{s.interviewer_id}" for i in created for s in i.seats}
    assert min(i.start for i in created) == picked.start and seated != shown


@pytest.mark.parametrize("when", ["past", "inside notice", "not offered"])
def test_bad_start_changes_nothing(db, when):
    """A start in the past, inside the notice period or outside the offered hours is refused; nothing written."""
    _world_, _pool, _loop, link_id, secret = _world(db)
    start = {"past": NOW - timedelta(hours=1), "inside notice": NOW + timedelta(hours=3),
             "not offered": utc(2030, 3, 6, 3)}[when]
    before = counts(db)
    with pytest.raises(ValidationFailed):
        booking.book(db, link_id, secret, start, now=NOW, settings=OFFERS, mail=MAIL)
    assert counts(db) == before


@pytest.mark.parametrize("how", ["tampered", "expired", "revoked", "reissued"])
def test_dead_links_change_nothing(db, how):
    """A wrong secret, an expired, revoked or replaced link: one sentence, no row written."""
    world, _pool, loop, link_id, secret = _world(db)
    start = offers_now(db, loop).times[0].start
    now = NOW
    if how == "tampered":
        secret = secret[:-2] + ("AA" if not secret.endswith("AA") else "BB")
    elif how == "expired":
        now = NOW + timedelta(days=8)
        start += timedelta(days=8)
    elif how == "revoked":
        candidate_links.revoke_link(db, loop.id, actor_id=None, now=NOW)
    else:
        issue(db, loop)
    assert candidate_links.resolve(db, link_id, secret, now) is None
    before = counts(db)
    with pytest.raises(ValidationFailed, match="no longer works"):
        booking.book(db, link_id, secret, start, now=now, settings=OFFERS, mail=MAIL)
    with pytest.raises(ValidationFailed, match="no longer works"):
        booking.set_timezone(db, link_id, secret, "Asia/Singapore", now=now)
    assert counts(db) == before


def test_reschedule_keeps_uids_and_raises_the_sequence(db):
    """Moving the booking keeps every interview's UID, raises SEQUENCE and tells the panel and the candidate."""
    _world_, _pool, loop, link_id, secret = _world(db)
    times = offers_now(db, loop).times
    created = booking.book(db, link_id, secret, times[0].start, now=NOW, settings=OFFERS, mail=MAIL)
    uids = {i.id: (i.uid, i.sequence) for i in created}
    target = next(t for t in offers_now(db, loop).times if t.start.date() != times[0].start.date())
    before = len(_messages(db, loop.id))
    moved = booking.reschedule(db, link_id, secret, target.start, now=NOW, settings=OFFERS, mail=MAIL)
    assert min(i.start for i in moved) == target.start
    for interview in moved:
        uid, sequence = uids[interview.id]
        assert interview.uid == uid and interview.sequence > sequence
    new = _messages(db, loop.id)[before:]
    assert {m.method for m in new} == {"REQUEST"} or {m.method for m in new} == {"REQUEST", "CANCEL"}
    assert any(m.kind == "itinerary" for m in new)
    for message in new:
        event = next(iter(Calendar.from_ical(message.ics).walk("VEVENT")))
        assert int(event["SEQUENCE"]) == message.sequence >= 1
    audit = db.scalar(select(AuditEntry).where(AuditEntry.action == "candidate_rescheduled"))
    assert audit.loop_id == loop.id
    assert loop.windows[0].start.date() == target.start.date()


def test_reschedule_with_a_new_panel_cancels_for_the_person_taken_off(db):
    """When the new time needs another person, the one taken off gets a CANCEL, the new one a REQUEST."""
    world, pool, loop, link_id, secret = _world(db)
    bea = world.person("Bea", "America/Los_Angeles", {"compiler-design": "qualified"}, hours=("06:00", "14:00"))
    first = offers_now(db, loop).times[0]
    created = booking.book(db, link_id, secret, first.start, now=NOW, settings=OFFERS, mail=MAIL)
    tech = next(i for i in created if i.round_key == "tech")
    holder = next(s.interviewer_id for s in tech.seats if s.role.value == "assessor")
    other = bea if holder == pool["ana"].id else pool["ana"]
    leaving = db.get(type(other), holder)
    target = next(t for t in offers_now(db, loop).times if t.start.date() != first.start.date())
    # Whoever holds the compiler seat is busy on the new day: the other one takes it.
    db.add(BusyBlock(interviewer_id=holder, start=target.start - timedelta(hours=8),
                     end=target.start + timedelta(hours=12)))
    db.commit()
    target = next(t for t in offers_now(db, loop).times if t.start.date() != first.start.date())
    booking.reschedule(db, link_id, secret, target.start, now=NOW, settings=OFFERS, mail=MAIL)
    seats = {s.interviewer_id: s.status for s in tech.seats}
    assert seats[holder] == SeatStatus.REMOVED and seats[other.id] == SeatStatus.ACTIVE
    cancel = db.scalar(select(OutboxMessage).where(OutboxMessage.interview_id == tech.id,
                                                   OutboxMessage.method == "CANCEL"))
    assert cancel.recipient_email == leaving.email and cancel.sequence == tech.sequence - 1


def test_cancel_sends_cancels_and_lets_the_candidate_pick_again(db):
    """Cancelling: every interview cancelled with a CANCEL to the panel and the candidate; the loop is a draft."""
    _world_, _pool, loop, link_id, secret = _world(db)
    created = booking.book(db, link_id, secret, offers_now(db, loop).times[0].start, now=NOW, settings=OFFERS,
                           mail=MAIL)
    count = booking.cancel(db, link_id, secret, "Another offer", now=NOW, settings=OFFERS, mail=MAIL)
    assert count == len(created) and loop.status == LoopStatus.DRAFT
    assert all(i.status == InterviewStatus.CANCELLED for i in created)
    cancels = [m for m in _messages(db, loop.id) if m.method == "CANCEL"]
    assert {m.kind for m in cancels} == {"cancel", "itinerary"}
    audit = db.scalar(select(AuditEntry).where(AuditEntry.action == "candidate_cancelled"))
    assert audit.reason == "Another offer" and audit.loop_id == loop.id
    assert offers_now(db, loop).times  # the link offers times again


def test_changes_are_refused_inside_the_notice_period(db):
    """Less than 24 hours before the first round, moving and cancelling are refused; nothing changes."""
    _world_, _pool, loop, link_id, secret = _world(db)
    first = offers_now(db, loop).times[0]
    booking.book(db, link_id, secret, first.start, now=NOW, settings=OFFERS, mail=MAIL)
    late = first.start - timedelta(hours=5)
    before = counts(db)
    with pytest.raises(ValidationFailed, match="less than 24 hours"):
        booking.cancel(db, link_id, secret, "", now=late, settings=OFFERS, mail=MAIL)
    with pytest.raises(ValidationFailed, match="less than 24 hours"):
        booking.reschedule(db, link_id, secret, first.start + timedelta(days=2), now=late, settings=OFFERS,
                           mail=MAIL)
    assert counts(db) == before and loop.status == LoopStatus.SCHEDULED


def test_time_zone_is_stored_on_the_loop_and_audited(db):
    """The browser's zone replaces the coordinator's guess; an unknown zone is refused and changes nothing."""
    _world_, _pool, loop, link_id, secret = _world(db)
    assert booking.set_timezone(db, link_id, secret, "asia/singapore", now=NOW, detected=True) == "Asia/Singapore"
    assert loop.candidate.timezone == "Asia/Singapore"
    before = counts(db)
    with pytest.raises(ValidationFailed, match="not a known"):
        booking.set_timezone(db, link_id, secret, "Mars/Base", now=NOW)
    assert counts(db) == before and loop.candidate.timezone == "Asia/Singapore"


def test_availability_replaces_windows_for_the_coordinator(db):
    """Windows the candidate marks become the loop's windows (their zone); bad windows change nothing."""
    _world_, _pool, loop, link_id, secret = _world(db)
    booking.submit_availability(db, link_id, secret, [WindowInput(date(2030, 3, 7), time(10), time(15))],
                                now=NOW)
    assert [(w.start, w.end) for w in loop.windows] == [(utc(2030, 3, 7, 15), utc(2030, 3, 7, 20))]
    assert candidate_links.live_link(db, loop.id, NOW).offer_horizon is False
    before = counts(db)
    for bad in ([], [WindowInput(date(2030, 3, 1), time(10), time(15))],
                [WindowInput(date(2030, 3, 7), time(15), time(10))]):
        with pytest.raises(ValidationFailed):
            booking.submit_availability(db, link_id, secret, bad, now=NOW)
    assert counts(db) == before


def test_booking_and_moving_pass_the_calendar_checker(db, tmp_path):
    """Every calendar object a booking and a move queue, and the itinerary download, pass ics_check; each
    interview's moved version is a proper update of the first (same UID, higher SEQUENCE)."""
    from tests.core.calendar.ics_checker import run_ics_check

    _world_, _pool, loop, link_id, secret = _world(db)
    times = offers_now(db, loop).times
    created = booking.book(db, link_id, secret, times[0].start, now=NOW, settings=OFFERS, mail=MAIL)
    first = {m.interview_id: m.ics for m in _messages(db, loop.id) if m.kind == "itinerary"}
    target = next(t for t in offers_now(db, loop).times if t.start.date() != times[0].start.date())
    booking.reschedule(db, link_id, secret, target.start, now=NOW + timedelta(minutes=5), settings=OFFERS,
                       mail=MAIL)
    for message in _messages(db, loop.id):
        (tmp_path / f"m{message.id}-{message.kind}-{message.method.lower()}.ics").write_bytes(message.ics)
    (tmp_path / "itinerary.ics").write_bytes(booking.itinerary_ics(db, loop.id, settings=MAIL, now=NOW))
    result = run_ics_check(tmp_path, "--allow-uninvite")
    assert result.returncode == 0, result.output
    moved = {m.interview_id: m.ics for m in _messages(db, loop.id) if m.kind == "itinerary"}
    for interview in created:
        (tmp_path / "a.ics").write_bytes(first[interview.id])
        (tmp_path / "b.ics").write_bytes(moved[interview.id])
        pair = run_ics_check("--pair", tmp_path / "a.ics", tmp_path / "b.ics")
        assert pair.returncode == 0, pair.output
