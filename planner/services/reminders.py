"""Scorecard reminders: each assessor with overdue scorecards gets at most one email a day, through the outbox.

How reminders are generated: ``planner worker`` calls :func:`queue_reminders` at the start of every
cycle (and ``planner reminders`` does it on its own, for cron). One call lists the overdue scorecards,
groups them by assessor and, for each assessor not yet reminded on their local today, writes a
``scorecard_reminders`` row for (assessor, day), the email in the outbox and an audit entry, and
commits once. The row is inserted with ``ON CONFLICT DO NOTHING`` on its unique (assessor, day) key:
when two workers race, the database lets exactly one insert win, and only the winner queues the
email; the other sees no row come back and writes nothing for that person. The outbox worker then
delivers the reminder like any message (a plain email, no calendar part).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from planner.core.errors import ValidationFailed
from planner.core.reminders import DEFAULT_DUE_HOURS, OwedScorecard, local_day, reminder_email
from planner.models import OutboxMessage, ScorecardReminder
from planner.queries.scorecards_due import OverdueScorecard, list_overdue
from planner.services.audit import record
from planner.services.invites import MailSettings, new_message_id

KIND = "reminder"
MAX_DUE_HOURS = 720
OFF = ("0", "false", "no", "off", "")


@dataclass(frozen=True)
class ReminderSettings:
    """SCORECARD_DUE_HOURS (default 24) and SCORECARD_REMINDERS (default on) from the app configuration."""

    due_hours: int = DEFAULT_DUE_HOURS
    enabled: bool = True

    @classmethod
    def from_mapping(cls, config: Mapping) -> ReminderSettings:
        """Read the settings; :raise ValidationFailed: SCORECARD_DUE_HOURS is not a whole number from 1 to 720."""
        hours = config.get("SCORECARD_DUE_HOURS")
        hours = DEFAULT_DUE_HOURS if hours in (None, "") else hours
        if isinstance(hours, bool) or not str(hours).strip().isdigit() or not 1 <= int(str(hours)) <= MAX_DUE_HOURS:
            raise ValidationFailed(f"SCORECARD_DUE_HOURS must be a whole number of hours from 1 to {MAX_DUE_HOURS}; "
                                   f"it is {hours!r}.")
        enabled = config.get("SCORECARD_REMINDERS", True)
        return cls(due_hours=int(str(hours)),
                   enabled=enabled not in (False, 0, None) and str(enabled).strip().lower() not in OFF)


def scorecard_url(settings: MailSettings, interview_id: int) -> str:
    """The interviewer's scorecard page for an interview (the link in the reminder)."""
    return f"{settings.interviewer_page_url}interviews/{interview_id}/scorecard"


def _claim_day(session: Session, interviewer_id: int, day, interview_ids: list[int], now: datetime) -> int | None:
    """Insert the (person, day) row unless it exists; its id when this call inserted it, else None."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    statement = (dialect.insert(ScorecardReminder)
                 .values(interviewer_id=interviewer_id, day=day, interview_ids=interview_ids, created_at=now)
                 .on_conflict_do_nothing(index_elements=["interviewer_id", "day"])
                 .returning(ScorecardReminder.id))
    return session.execute(statement).scalar()


def _owed(item: OverdueScorecard, settings: MailSettings) -> OwedScorecard:
    return OwedScorecard(item.interview_id, item.round_name, item.candidate, item.start, item.end, item.due,
                         scorecard_url(settings, item.interview_id))


def queue_reminders(session: Session, *, now: datetime, settings: MailSettings,
                    due_hours: int = DEFAULT_DUE_HOURS) -> list[int]:
    """Queue today's reminder for every active assessor with overdue scorecards who has none yet; commit once.

    Inactive interviewers (out of the pool) are not mailed; their overdue scorecards stay listed on the
    coordinator's overview.

    :return: the ids of the outbox messages queued (empty when nobody is due).
    """
    overdue = [item for item in list_overdue(session, now=now, due_hours=due_hours) if item.interviewer_active]
    by_person: dict[int, list[OverdueScorecard]] = {}
    for item in overdue:
        by_person.setdefault(item.interviewer_id, []).append(item)
    days = {pid: local_day(now, items[0].interviewer_timezone) for pid, items in by_person.items()}
    # Who already had today's reminder: read first, so a quiet cycle writes nothing at all.
    done = set(session.execute(select(ScorecardReminder.interviewer_id, ScorecardReminder.day).where(
        tuple_(ScorecardReminder.interviewer_id, ScorecardReminder.day).in_(list(days.items())))).all()) \
        if days else set()
    queued = []
    try:
        for pid, items in by_person.items():
            if (pid, days[pid]) in done:
                continue
            interview_ids = [item.interview_id for item in items]
            reminder_id = _claim_day(session, pid, days[pid], interview_ids, now)
            if reminder_id is None:
                continue  # another worker reminded this person a moment ago
            message = _message(items, settings, now)
            session.add(message)
            session.flush()
            session.get(ScorecardReminder, reminder_id).outbox_message_id = message.id
            record(session, actor_id=None, action="scorecard_reminder_queued", entity="interviewer", entity_id=pid,
                   interviewer_id=pid, details={"interviews": interview_ids, "day": days[pid].isoformat(),
                                                "outbox_message_id": message.id})
            queued.append(message.id)
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return queued


def _message(items: list[OverdueScorecard], settings: MailSettings, now: datetime) -> OutboxMessage:
    person = items[0]
    email = reminder_email(person.interviewer_name, [_owed(item, settings) for item in items],
                           timezone=person.interviewer_timezone, now=now, page_url=settings.interviewer_page_url)
    return OutboxMessage(
        message_id=new_message_id(settings), kind=KIND, method="", ics=None,
        sender_email=settings.organizer_email, sender_name=settings.organizer_name[:120],
        recipient_email=person.interviewer_email, recipient_name=person.interviewer_name[:120],
        subject=email.subject, body_text=email.text, body_html=email.html,
        # No loop or interview: a reminder is about a person (often several loops), and a loop's messages
        # are its calendar history (the loop page, exports and "who was told" read them as such).
        loop_id=None, interview_id=None, sequence=0, next_attempt_at=now, created_at=now,
    )
