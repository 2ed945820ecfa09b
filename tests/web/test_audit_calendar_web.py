"""The audit page shows the calendar side in words under its own kinds: a decline that came by mail, a candidate's
booking through their link, and a suggestion switched to its runner-up."""

from __future__ import annotations

import re

import auditcases_calendar  # noqa: F401  (adds the calendar side's runs to CASES)
from auditcases import CASES, make_ctx
from sqlalchemy import select

from planner.models import User


def _rows(client, query: str) -> list[tuple[str, str, str]]:
    """(action, who, what) of every row the page shows."""
    response = client.get(f"/coordinator/audit{query}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    cells = re.findall(r'data-action="([^"]+)">\s*<td[^>]*>[^<]*</td>\s*<td[^>]*>([^<]*)</td>\s*'
                       r'<td class="what">([^<]*)</td>', html)
    return [(action, who, what.replace("&#39;", "'")) for action, who, what in cells]


def test_declines_bookings_and_switches_read_as_sentences_under_their_kinds(db, login):
    """Each is listed under its kind (and not under "other"), said as a sentence, by the right "who"."""
    client = login("coordinator")
    user = db.scalar(select(User).where(User.email == "coordinator@example.com"))
    user.timezone = "Europe/Berlin"
    ctx = make_ctx(db)
    for name in ("replies.process_message", "candidate_booking.book", "runner_ups.switch_to_runner_up"):
        CASES[name][1](ctx)
    person = next(s.interviewer for s in ctx.mentor.seats).name
    assert f"{ctx.mentor.start:%H:%M}" == "15:00"  # UTC: 16:00 in the viewer's Berlin

    answers = _rows(client, "?kind=answers")
    assert answers == [("reply_recorded", "interviewer via calendar",
                        f"{person} declined Mentoring for Kim Lee (Wed 6 Mar 16:00)")], answers
    candidates = _rows(client, "?kind=candidates")
    assert [(a, w) for a, w, _what in candidates] == [("candidate_booked", "candidate"),
                                                      ("candidate_link_created", "Casey Coordinator")]
    assert re.fullmatch(r"Ada Moss booked \d interviews, starting \w{3} \d+ Mar \d\d:\d\d; invites queued",
                        candidates[0][2]), candidates[0][2]
    assert candidates[1][2].startswith("Made Ada Moss a link to book their interviews (works until ")
    postings = _rows(client, "?kind=postings")
    assert ("posting.competency.switch", "Casey Coordinator",
            "Switched Mentoring to its runner-up Compiler design on Compiler Lead") in postings
    assert _rows(client, "?kind=other") == []
