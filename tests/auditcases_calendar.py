"""Audit-trail cases of the calendar side: interviewers' answers (app, mail, inbox), proposed times, candidates'
links and bookings, and a suggestion switched to its runner-up.

Importing this module adds its runs to ``auditcases.CASES``. A run returning a third value names the login
expected as the actor; the test then checks the audit page's "who" column says who it was (a candidate, an
interviewer's calendar, or that login).
"""

from __future__ import annotations

from datetime import date, time, timedelta

from auditcases import NOBODY, Ctx, _interviewer_in, _suggested, case
from candidateworld import MAIL, OFFERS, offers_now
from imaputil import dovecot_server
from loopworld import NOW, SETTINGS
from replyworld import mail_answer

from planner.models import InboundOutcome
from planner.services import answers, candidate_links, changes, replies, runner_ups, users
from planner.services import candidate_booking as booking
from planner.services.loops import WindowInput
from planner.services.mailbox import ImapSettings, poll_once

LATER = NOW + timedelta(hours=1)


def _decline(c: Ctx, **edits) -> bytes:
    interview = c.mentor
    return mail_answer(c.db, interview, _interviewer_in(interview), "DECLINED", comment="At a conference", **edits)


def _counter(c: Ctx, *, source: str = "imap", actor_id=None):
    """A proposed new time for the mentoring round, one the panel can make, as it arrives by mail."""
    interview = c.mentor
    start = changes.reschedule_options(c.db, interview.id, now=LATER)[0]
    end, stamp = start + (interview.end - interview.start), "%Y%m%dT%H%M%SZ"

    def move(ics: bytes) -> bytes:
        return ics.replace(f"DTSTART:{interview.start:{stamp}}".encode(), f"DTSTART:{start:{stamp}}".encode()) \
            .replace(f"DTEND:{interview.end:{stamp}}".encode(), f"DTEND:{end:{stamp}}".encode())

    raw = mail_answer(c.db, interview, _interviewer_in(interview), "TENTATIVE", method="COUNTER", comment="Later?",
                      edit=move)
    row = replies.process_message(c.db, raw, source=source, now=LATER, actor_id=actor_id)
    assert row.outcome == InboundOutcome.COUNTER, row.reason
    return row


@case("replies.process_message", "reply_recorded")
def _reply_by_mail(c):
    row = replies.process_message(c.db, _decline(c), source="imap", now=LATER)
    assert row.outcome == InboundOutcome.APPLIED, row.reason
    return c.loop.id, _interviewer_in(c.mentor).id, None


@case("replies.process_message (upload)", "reply_recorded")
def _reply_uploaded(c):
    replies.process_message(c.db, _decline(c), source="upload", now=LATER, actor_id=c.actor, loop_id=c.loop.id)
    return c.loop.id, _interviewer_in(c.mentor).id


@case("replies.process_message (counter)", "counter_received")
def _counter_by_mail(c):
    _counter(c)
    return c.loop.id, _interviewer_in(c.mentor).id, None


@case("mailbox.poll_once", "reply_recorded")
def _poll(c):
    with dovecot_server() as imap:
        imap.append(_decline(c))
        report = poll_once(ImapSettings.from_mapping(imap.config), c.factory, now=lambda: LATER)
    assert report.outcomes == {"applied": 1}
    return c.loop.id, _interviewer_in(c.mentor).id, None


@case("answers.answer_invite", "invite_answered")
def _answer_in_the_app(c):
    person = _interviewer_in(c.mentor)
    login = users.create_user(c.db, email=person.email, name=person.name, password="password123",
                              roles=["interviewer"], actor_id=c.actor)
    person.user_id = login.id
    c.db.commit()
    answers.answer_invite(c.db, person.id, c.mentor.id, "declined", "Parental leave", actor_id=login.id, now=NOW)
    return c.loop.id, person.id, login.id


@case("answers.move_to_counter", "counter_accepted")
def _move_to_counter(c):
    answers.move_to_counter(c.db, _counter(c).id, actor_id=c.actor, now=LATER, settings=SETTINGS)
    return c.loop.id, _interviewer_in(c.mentor).id


@case("answers.dismiss_counter", "counter_dismissed")
def _dismiss_counter(c):
    answers.dismiss_counter(c.db, _counter(c).id, actor_id=c.actor, now=LATER)
    return c.loop.id, _interviewer_in(c.mentor).id


def _link_loop(c: Ctx):
    """A draft loop with no windows and a link the coordinator made: (loop, link id, secret)."""
    loop = c.world.loop("Ada Moss", windows=())
    c.db.commit()
    issued = candidate_links.issue_link(c.db, loop.id, actor_id=c.actor, now=NOW, lifetime_days=7)
    return loop, issued.link.id, issued.secret


def _booked(c: Ctx):
    loop, link_id, secret = _link_loop(c)
    booking.book(c.db, link_id, secret, offers_now(c.db, loop).times[0].start, now=NOW, settings=OFFERS, mail=MAIL)
    return loop, link_id, secret


@case("candidate_links.issue_link", "candidate_link_sent")
def _send_link(c):
    loop = c.world.loop("Ada Moss", windows=())
    c.db.commit()
    candidate_links.issue_link(c.db, loop.id, actor_id=c.actor, now=NOW, lifetime_days=7, send=True,
                               url_of=lambda issued: f"https://planner.example/c/{issued.link.id}/{issued.secret}",
                               settings=SETTINGS)
    return loop.id, None


@case("candidate_links.revoke_link", "candidate_link_revoked")
def _revoke_link(c):
    loop, _link_id, _secret = _link_loop(c)
    candidate_links.revoke_link(c.db, loop.id, actor_id=c.actor, now=NOW)
    return loop.id, None


@case("candidate_booking.book", "candidate_booked")
def _book(c):
    return _booked(c)[0].id, None, None


@case("candidate_booking.reschedule", "candidate_rescheduled")
def _reschedule(c):
    loop, link_id, secret = _booked(c)
    first = min(i.start for i in loop.interviews)
    target = next(t for t in offers_now(c.db, loop).times if t.start.date() != first.date())
    booking.reschedule(c.db, link_id, secret, target.start, now=NOW, settings=OFFERS, mail=MAIL)
    return loop.id, None, None


@case("candidate_booking.cancel", "candidate_cancelled")
def _cancel(c):
    loop, link_id, secret = _booked(c)
    booking.cancel(c.db, link_id, secret, "Took another offer", now=NOW, settings=OFFERS, mail=MAIL)
    return loop.id, None, None


@case("candidate_booking.set_timezone", "candidate_timezone_set")
def _timezone(c):
    loop, link_id, secret = _link_loop(c)
    booking.set_timezone(c.db, link_id, secret, "Asia/Singapore", now=NOW, detected=True)
    return loop.id, None, None


@case("candidate_booking.submit_availability", "candidate_availability")
def _availability(c):
    loop, link_id, secret = _link_loop(c)
    booking.submit_availability(c.db, link_id, secret, [WindowInput(date(2030, 3, 7), time(10), time(15))], now=NOW)
    return loop.id, None, None


@case("runner_ups.switch_to_runner_up", "posting.competency.switch")
def _switch(c):
    posting = _suggested(c)
    selection = posting.competencies[0]
    selection.runner_up_id = c.world.competencies["compiler-design"].id
    c.db.commit()
    runner_ups.switch_to_runner_up(c.db, posting.id, selection.id, actor_id=c.actor)
    return NOBODY

