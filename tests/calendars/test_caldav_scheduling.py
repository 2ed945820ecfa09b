"""The scheduler keeps off busy time synced from CalDAV, across a daylight-saving change.

Ana lives in London and has a weekly "Architecture review" on Tuesdays at 10:00 London time. The UK clocks
go forward on Sunday 28 March 2027, so the meeting is at 10:00 UTC on 23 March and at 09:00 UTC from
30 March on. The occurrence of 30 March is cancelled. Ana can only interview on Tuesdays 10:00-11:00, so
the only free hour she has in the candidate's windows is the cancelled meeting's.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from caldavutil import SETTINGS, connect, vcalendar, vevent
from loopworld import World
from radicaleutil import PASSWORD

from planner.services import scheduling
from planner.services.calendars import sync_calendar

NOW = datetime(2027, 3, 20, 12, 0, tzinfo=UTC)
LONDON = ZoneInfo("Europe/London")
TUESDAYS = [datetime(2027, 3, 23), datetime(2027, 3, 30), datetime(2027, 4, 6)]

REVIEW = vcalendar(
    vevent("review@test", "20270302T100000", "20270302T110000", "Architecture review", "RRULE:FREQ=WEEKLY"),
    vevent("review@test", "20270330T100000", "20270330T110000", "Architecture review",
           "RECURRENCE-ID;TZID=Europe/London:20270330T100000", "STATUS:CANCELLED"),
)


def london(day: datetime, hour: int) -> datetime:
    return day.replace(hour=hour, tzinfo=LONDON).astimezone(UTC)


def meeting_times() -> list[tuple[datetime, datetime]]:
    """The review's real occurrences (London wall clock), the cancelled one left out."""
    return [(london(d, 10), london(d, 11)) for d in TUESDAYS if d.day != 30]


def _world(db, radicale, days: list[datetime]):
    world = World(db)
    ana = world.person("Ana", "Europe/London", {"compiler-design": "qualified"}, hours=("10:00", "11:00"),
                       days="tue", caps=(2, 5))
    world.person("Cleo", "Europe/London", {"mentoring": "qualified"}, hours=("08:00", "18:00"), team="bar")
    # The candidate (also in London) is free 09:00-12:00 on the given Tuesdays.
    loop = world.loop(tz="Europe/London", windows=[(london(d, 9), london(d, 12)) for d in days])
    db.commit()
    calendar = radicale.new_calendar()
    calendar.save_event(REVIEW)
    connect(db, ana.id, str(calendar.url), password=PASSWORD)
    report = sync_calendar(db, ana.id, now=NOW, settings=SETTINGS)
    assert report.ok, report.message
    return ana, loop


def _tech(proposal) -> tuple[datetime, datetime, list[str]]:
    item = next(i for i in proposal.interviews if i["round"] == "tech")
    parse = datetime.fromisoformat
    return parse(item["start"].replace("Z", "+00:00")), parse(item["end"].replace("Z", "+00:00")), item["interviewers"]


def test_proposed_in_the_cancelled_occurrence(db, radicale):
    """With windows on three Tuesdays around the DST change, Ana is proposed exactly in the cancelled slot
    (10:00 BST = 09:00 UTC on 30 March), never in a meeting."""
    ana, loop = _world(db, radicale, TUESDAYS)

    proposal = scheduling.propose(db, loop.id, now=NOW)

    assert proposal.scheduled, proposal.reason
    start, end, people = _tech(proposal)
    assert people == [f"p{ana.id}"]
    assert (start, end) == (datetime(2027, 3, 30, 9, 0, tzinfo=UTC), datetime(2027, 3, 30, 10, 0, tzinfo=UTC))
    assert all(not (start < m_end and m_start < end) for m_start, m_end in meeting_times())


def test_never_proposed_during_the_meeting(db, radicale):
    """Without the cancelled week, Ana's only interviewing hours are the meeting's, before and after the DST
    change (10:00 UTC, then 09:00 UTC): the loop cannot be scheduled, and the reason points at the round
    Ana alone could hold. Had the meeting kept its UTC time, 6 April 09:00 UTC would have looked free."""
    _ana, loop = _world(db, radicale, [TUESDAYS[0], TUESDAYS[2]])

    proposal = scheduling.propose(db, loop.id, now=NOW)

    assert not proposal.scheduled
    assert "Compiler deep-dive" in proposal.reason, proposal.reason
    for interview in proposal.interviews:
        start = datetime.fromisoformat(interview["start"].replace("Z", "+00:00"))
        end = start + timedelta(minutes=60)
        assert all(not (start < m_end and m_start < end) for m_start, m_end in meeting_times())
