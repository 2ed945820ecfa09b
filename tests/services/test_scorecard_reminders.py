"""Scorecard reminders: due exactly 24 h after the interview ends, one email a day per assessor listing all they
owe (in their zone), none once submitted, none for cancelled interviews, trainees or removed seats; two workers
racing queue one."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from invitedata import FIRST_START, SETTINGS, make_loop
from sqlalchemy import func, select

from planner.core.errors import ValidationFailed
from planner.db import make_session_factory
from planner.models import (
    AuditEntry,
    InterviewStatus,
    OutboxMessage,
    Scorecard,
    ScorecardReminder,
    Seat,
    SeatStatus,
)
from planner.queries.scorecards_due import get_overdue_scorecards, list_overdue
from planner.services.reminders import ReminderSettings, queue_reminders

#: The first interview ends Mon 29 Mar 2027 09:00 UTC; its scorecards are due Tue 30 Mar 09:00 UTC.
FIRST_DUE = FIRST_START + timedelta(hours=1 + 24)
#: Both interviews (ending 09:00 and 11:00 UTC) are overdue by then.
BOTH_DUE = FIRST_START + timedelta(hours=28)
TRAINEE = ("Tom Trainee", "tom@hire.example", "Europe/London")


def reminders(db) -> list[OutboxMessage]:
    return list(db.scalars(select(OutboxMessage).where(OutboxMessage.kind == "reminder").order_by(OutboxMessage.id)))


def to(db) -> list[str]:
    return sorted(m.recipient_email for m in reminders(db))


@pytest.fixture
def loop(db):
    scenario = make_loop(db, rounds=2, trainee=TRAINEE)
    db.commit()
    return scenario


def test_due_exactly_24_hours_after_the_end_not_before(db, loop):
    """At the due second nothing is overdue or queued; one second later each assessor gets one reminder."""
    assert list_overdue(db, now=FIRST_DUE) == []
    assert queue_reminders(db, now=FIRST_DUE, settings=SETTINGS) == []
    assert reminders(db) == []
    queued = queue_reminders(db, now=FIRST_DUE + timedelta(seconds=1), settings=SETTINGS)
    assert len(queued) == 3
    assert to(db) == ["ana@hire.example", "oliver@hire.example", "priya@hire.example"]
    assert {len(r.interview_ids) for r in db.scalars(select(ScorecardReminder))} == {1}


def test_one_email_lists_every_overdue_scorecard_in_the_assessors_zone(db, loop):
    """Ana (Los Angeles) gets one plain email naming both interviews in Pacific time, with a link to each."""
    queue_reminders(db, now=BOTH_DUE, settings=SETTINGS)
    message = next(m for m in reminders(db) if m.recipient_email == "ana@hire.example")
    assert message.ics is None and message.method == "" and not message.is_calendar
    assert message.sender_email == SETTINGS.organizer_email and message.loop_id is None
    assert message.subject == "Reminder: 2 scorecards overdue"
    first, second = loop.interviews
    text = message.body_text
    assert "Compiler design with Kim Lee, Mon 29 Mar, 01:00–02:00 PDT" in text
    assert "due Tue 30 Mar, 02:00 PDT (3 hours overdue)" in text
    assert "Bar raiser with Kim Lee, Mon 29 Mar, 03:00–04:00 PDT" in text and "(1 hour overdue)" in text
    for interview in (first, second):
        url = f"https://planner.hire.example/interviewer/interviews/{interview.id}/scorecard"
        assert url in text and f'href="{url}"' in message.body_html
    priya = next(m for m in reminders(db) if m.recipient_email == "priya@hire.example")
    assert "Mon 29 Mar, 13:30–14:30 IST" in priya.body_text


def test_at_most_one_a_day_per_assessor_local_day(db, loop):
    """Two runs the same day queue one reminder each; the next local day (Kolkata's comes first) one more."""
    assert len(queue_reminders(db, now=BOTH_DUE, settings=SETTINGS)) == 3
    assert queue_reminders(db, now=BOTH_DUE, settings=SETTINGS) == []
    assert queue_reminders(db, now=BOTH_DUE + timedelta(hours=6), settings=SETTINGS) == []
    # 19:00 UTC on Tue 30 Mar is already Wed 31 Mar 00:30 in Kolkata, still Tuesday in London and LA.
    later = queue_reminders(db, now=FIRST_START + timedelta(hours=35), settings=SETTINGS)
    assert [db.get(OutboxMessage, i).recipient_email for i in later] == ["priya@hire.example"]
    assert len(queue_reminders(db, now=FIRST_START + timedelta(days=2), settings=SETTINGS)) == 2
    assert db.scalar(select(func.count(ScorecardReminder.id))) == 6


def test_none_once_the_scorecard_is_submitted(db, loop):
    """Submitting ends the reminders for that scorecard; a draft does not; all submitted: no email."""
    oliver = next(p for p in loop.interviewers if p.name == "Oliver Hughes")
    first, second = loop.interviews
    # The scorecards as the scorecard service leaves them: submitted (stamped) and a draft (not).
    db.add_all([Scorecard(interview_id=first.id, interviewer_id=oliver.id, notes="Clear.", submitted_at=first.end),
                draft := Scorecard(interview_id=second.id, interviewer_id=oliver.id, notes="")])
    db.commit()
    owed = [(i.interviewer_name, i.interview_id, i.has_draft) for i in list_overdue(db, now=BOTH_DUE)
            if i.interviewer_id == oliver.id]
    assert owed == [("Oliver Hughes", second.id, True)]
    draft.submitted_at = second.end
    db.commit()
    queue_reminders(db, now=BOTH_DUE, settings=SETTINGS)
    assert to(db) == ["ana@hire.example", "priya@hire.example"]


def test_none_for_cancelled_interviews_trainees_removed_seats_or_people_out_of_the_pool(db, loop):
    """Cancelled interviews owe nothing; trainees and removed seats are never chased; inactive people are
    listed for the coordinator but not mailed."""
    first, second = loop.interviews
    second.status = InterviewStatus.CANCELLED
    ana, oliver, priya = loop.interviewers[:3]
    db.scalar(select(Seat).where(Seat.interview_id == first.id, Seat.interviewer_id == priya.id)).status = \
        SeatStatus.REMOVED
    oliver.active = False
    db.commit()
    overdue = list_overdue(db, now=BOTH_DUE)
    assert {(i.interviewer_name, i.interview_id) for i in overdue} == {("Ana Ruiz", first.id),
                                                                      ("Oliver Hughes", first.id)}
    queue_reminders(db, now=BOTH_DUE, settings=SETTINGS)
    assert to(db) == ["ana@hire.example"]
    assert "tom@hire.example" not in to(db)


def test_each_reminder_is_audited_as_the_system_about_the_person(db, loop):
    """One entry per reminder: no actor, the interviewer it went to, the interviews it listed."""
    queue_reminders(db, now=BOTH_DUE, settings=SETTINGS)
    entries = db.scalars(select(AuditEntry).where(AuditEntry.action == "scorecard_reminder_queued")).all()
    ana = loop.interviewers[0]
    assert len(entries) == 3 and {e.actor_id for e in entries} == {None}
    mine = next(e for e in entries if e.interviewer_id == ana.id)
    assert mine.details["interviews"] == [i.id for i in loop.interviews] and mine.details["day"] == "2027-03-30"


def test_the_overview_list_counts_all_and_shows_the_most_overdue(db, loop):
    """The overview query: total across everyone, the first few most overdue first."""
    listed = get_overdue_scorecards(db, now=BOTH_DUE, limit=2)
    assert listed.total == 6 and len(listed.items) == 2
    assert {i.interview_id for i in listed.items} == {loop.interviews[0].id}


def test_two_workers_at_once_queue_one_reminder_per_person(committed_db):
    """Two sessions queueing at the same moment: the unique (person, day) row lets exactly one win each."""
    factory = make_session_factory(committed_db)
    with factory() as session:
        make_loop(session, rounds=2)
        session.commit()
    barrier, results, errors = threading.Barrier(2), [], []

    def worker():
        try:
            with factory() as session:
                barrier.wait(timeout=10)
                results.append(queue_reminders(session, now=BOTH_DUE, settings=SETTINGS))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert sum(len(r) for r in results) == 3
    with factory() as session:
        assert len(reminders(session)) == 3
        assert session.scalar(select(func.count(ScorecardReminder.id))) == 3


@pytest.mark.parametrize("value", ["abc", 0, -1, "1.5", 10_000, True])
def test_a_bad_due_hours_setting_is_one_sentence(value):
    """SCORECARD_DUE_HOURS must be whole hours from 1 to 720; anything else is refused with the value named."""
    with pytest.raises(ValidationFailed, match="SCORECARD_DUE_HOURS must be a whole number"):
        ReminderSettings.from_mapping({"SCORECARD_DUE_HOURS": value})


def test_settings_read_hours_and_the_switch():
    """Defaults 24 h and on; text from the environment is read too."""
    assert ReminderSettings.from_mapping({}) == ReminderSettings(24, True)
    assert ReminderSettings.from_mapping({"SCORECARD_DUE_HOURS": "48", "SCORECARD_REMINDERS": "off"}) == \
        ReminderSettings(48, False)
    assert ReminderSettings.from_mapping({"SCORECARD_REMINDERS": False}).enabled is False
