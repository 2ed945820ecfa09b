"""A hiring story written entirely through the web forms, every text field holding markup or a line break.

Each field gets its own payload, ``payload(name)``: a script element, an attribute break-out and an
event handler, tagged with the field's name so a page that shows it can be checked for the escaped
form. The calendar fields also carry CRLF + ``ATTENDEE:`` lines, to check nothing can be injected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import select

from planner.db import utcnow
from planner.models import Competency, Interview, Interviewer, Loop, PostingCompetency, Scorecard

INJECTED_ATTENDEE = "evil@attacker.example"
RAW_MARKERS = ("<script>alert(", "<svg/onload", "<img src=x onerror")


def payload(name: str) -> str:
    """Markup that would run if a page put it unescaped into an element or an attribute."""
    return f'<script>alert("{name}")</script>"\'><svg/onload=alert(1)><img src=x onerror=alert(2)>{name}'


def escaped(name: str) -> str:
    """How Jinja's autoescaping writes the start of ``payload(name)``."""
    return f"&lt;script&gt;alert(&#34;{name}&#34;)&lt;/script&gt;"


def calendar_payload(name: str) -> str:
    """A value that tries to end the property and start an ATTENDEE of its own."""
    return f"{payload(name)}\r\nATTENDEE;CN=x:mailto:{INJECTED_ATTENDEE}\r\nX-EVIL:1;x,y\\"


@dataclass
class HostileWorld:
    posting_id: int
    competency_id: int
    loop_id: int
    interview_id: int
    interviewer_id: int
    round_id: int
    fields: list[str] = field(default_factory=list)


def _ok(response, what: str) -> None:
    body = response.get_data(as_text=True)
    errors = re.findall(r'class="(?:error|flash flash-error)"[^>]*>([^<]*)', body)
    assert response.status_code in (200, 302) and not errors, f"{what}: {response.status_code} {errors}"


def build(client, db, interviewer_user_id: int) -> HostileWorld:
    """Run the story as a coordinator (``client``, CSRF off); ``interviewer_user_id`` is linked to a panelist."""
    day = (utcnow() + timedelta(days=9)).date().isoformat()
    _ok(client.post("/coordinator/competencies/new", data={
        "name": payload("competency-name"), "slug": "hostile-skill", "category": "technical",
        "description": payload("competency-description"), "rubric_strong": payload("rubric-strong"),
        "rubric_weak": payload("rubric-weak"), "phrases": "hostile craft"}), "competency")
    competency = db.scalar(select(Competency).where(Competency.slug == "hostile-skill"))
    _ok(client.post("/coordinator/postings/new", data={
        "title": payload("posting-title"), "team": "neuron", "location": payload("posting-location"),
        "level": payload("posting-level")[:60], "hiring_manager": payload("hiring-manager"), "status": "open",
        "text": f"{payload('posting-text')}\nRequirements\n- You must have hostile craft experience."}), "posting")
    posting_id = db.scalar(select(PostingCompetency.posting_id).where(PostingCompetency.competency_id == competency.id))
    if posting_id is None:
        raise AssertionError("the extractor did not suggest the hostile competency")
    _ok(client.post(f"/coordinator/postings/{posting_id}/accept-all", data={}), "accept")
    people = []
    for index, name in enumerate(("interviewer-name", "second-interviewer")):
        _ok(client.post("/coordinator/interviewers/new", data={
            "name": calendar_payload(name)[:120], "email": f"hostile{index}@hire.example",
            "team": payload("team") if index else "",
            "timezone": "UTC", "work_start": "00:00", "work_end": "24:00",
            "work_days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "max_per_day": "5", "max_per_week": "20",
            "user_id": str(interviewer_user_id if index == 0 else 0)}), "interviewer")
        person = db.scalar(select(Interviewer).where(Interviewer.email == f"hostile{index}@hire.example"))
        _ok(client.post(f"/coordinator/interviewers/{person.id}/qualifications",
                        data={"competency_id": competency.id, "level": "qualified"}), "qualification")
        people.append(person)
    start = (utcnow() + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M")
    end = (utcnow() + timedelta(days=30, hours=2)).strftime("%Y-%m-%dT%H:%M")
    _ok(client.post(f"/coordinator/interviewers/{people[1].id}/busy",
                    data={"start": start, "end": end, "summary": payload("busy-note")}), "busy block")
    _ok(client.post(f"/coordinator/postings/{posting_id}/plan/rounds", data={
        "name": calendar_payload("round-name")[:120], "kind": "technical", "minutes": "60", "interviewers": "1",
        "min_outside_team": "0", "max_trainees": "0",
        "focus_questions": f"{calendar_payload('focus-question')}\nSecond {payload('focus-second')}",
        f"focus_c{_selection_competency(db, posting_id, competency.id)}": "primary"}), "round")
    _ok(client.post(f"/coordinator/postings/{posting_id}/plan/publish", data={"note": payload("version-note")}),
        "publish")
    _ok(client.post("/coordinator/loops/new", data={
        "posting_id": posting_id, "candidate_name": calendar_payload("candidate-name")[:120],
        "candidate_email": "c@cand.example",
        "candidate_timezone": "UTC", "max_gap_minutes": "60", "hiring_team": "neuron",
        "location": payload("loop-location"), "video_url": "",
        "windows-0-day": day, "windows-0-start": "09:00", "windows-0-end": "17:00"}), "loop")
    loop = db.scalar(select(Loop).where(Loop.posting_id == posting_id))
    page = client.get(f"/coordinator/loops/{loop.id}/schedule").get_data(as_text=True)
    token = re.search(r'name="proposal"[^>]*value="([^"]+)"', page)
    assert token, "the loop could not be proposed"
    import html

    _ok(client.post(f"/coordinator/loops/{loop.id}/schedule/confirm",
                    data={"proposal": html.unescape(token.group(1)), "override_reason": payload("override")}),
        "confirm")
    interview = db.scalar(select(Interview).where(Interview.loop_id == loop.id))
    assert interview is not None, "the loop was not scheduled"
    _ok(client.post(f"/coordinator/interviews/{interview.id}/place", data={
        "location": calendar_payload("place"), "video_url": "", "scope": "one",
        "reason": payload("place-reason")}), "place")
    round_id = _round_id(db, posting_id)
    return HostileWorld(posting_id, competency.id, loop.id, interview.id, people[0].id, round_id)


def write_scorecard(client, db, interview_id: int) -> None:
    """Move the interview into the past (time, not text) and save a draft scorecard through the form."""
    interview = db.get(Interview, interview_id)
    interview.start, interview.end = utcnow() - timedelta(hours=2), utcnow() - timedelta(hours=1)
    db.commit()
    slug = "hostile-skill"
    _ok(client.post(f"/interviewer/interviews/{interview_id}/scorecard", data={
        "notes": payload("scorecard-notes"), f"rating-{slug}": "3", "submit_card": "1"}), "scorecard")
    assert db.scalar(select(Scorecard).where(Scorecard.interview_id == interview_id)) is not None


def _selection_competency(db, posting_id: int, competency_id: int) -> int:
    # The round form names its focus fields after the competency id.
    return competency_id


def _round_id(db, posting_id: int) -> int:
    from planner.models import Round

    return db.scalar(select(Round.id).where(Round.posting_id == posting_id))
