"""Fill a database to a realistic size for the page benchmark, in bulk and in seconds.

The demo (its posting, plan, library, pool and users) is loaded first; its posting, plan and
interviews are the templates that every generated row copies, so the pages show what real pages
show. Then, with multi-row INSERTs:

* postings: copies of the demo posting, each with its competencies, evidence, rounds and plan version;
* interviewers: a pool in five zones and six teams, each qualified in a few of the plan's competencies;
* loops: one candidate each, on a random posting, spread from five months ago to two months ahead;
  scheduled loops hold one interview per round of the plan with 1-2 assessors and sometimes a trainee,
  past ones with scorecards, future ones with their invites in the outbox; a tenth are drafts.
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from planner.db import utcnow
from planner.models import (
    AuditEntry,
    Candidate,
    Evidence,
    Interview,
    Interviewer,
    Loop,
    LoopWindow,
    OutboxMessage,
    PlanVersion,
    Posting,
    PostingCompetency,
    Qualification,
    Rating,
    Round,
    RoundCompetency,
    Scorecard,
    Seat,
    User,
)
from planner.services.demo import load_demo

ZONES = ["America/Los_Angeles", "America/New_York", "Europe/London", "Europe/Berlin", "Asia/Singapore"]
TEAMS = ["neuron-compiler", "runtime", "kernels", "platform", "bar-raisers", "silicon"]
BATCH = 2000


@dataclass(frozen=True)
class Size:
    postings: int
    interviewers: int
    interviews: int

    @property
    def label(self) -> str:
        return f"{self.postings} postings, {self.interviewers:,} interviewers, {self.interviews:,} interviews"


@dataclass
class Filled:
    """Ids the benchmark asks pages for: rows in the middle of the generated data."""

    posting_id: int
    loop_id: int
    interviewer_id: int
    feed_token: str
    counts: dict[str, int]


def _insert(session: Session, model, rows: list[dict], *, ids: bool = False) -> list[int]:
    """Insert ``rows`` in batches; with ``ids``, return the new primary keys in the rows' order."""
    out: list[int] = []
    for start in range(0, len(rows), BATCH):
        chunk = rows[start:start + BATCH]
        if ids:
            statement = insert(model).returning(model.id, sort_by_parameter_order=True)
            out.extend(session.scalars(statement, chunk))
        else:
            session.execute(insert(model), chunk)
    return out


def _columns(row, skip=("id",)) -> dict:
    return {c.key: getattr(row, c.key) for c in row.__table__.columns if c.key not in skip}


def fill(session: Session, size: Size, seed: int = 7) -> Filled:
    """Load the demo, then add generated rows up to ``size``; commit. Returns ids to benchmark."""
    rng = random.Random(seed)
    now = utcnow()
    load_demo(session, now=now)
    template = session.scalar(select(Posting).order_by(Posting.id))
    version = session.scalar(select(PlanVersion).where(PlanVersion.posting_id == template.id))
    selections = list(session.scalars(select(PostingCompetency).where(PostingCompetency.posting_id == template.id)))
    evidence = {s.id: list(s.evidence) for s in selections}
    rounds = list(session.scalars(select(Round).where(Round.posting_id == template.id).order_by(Round.position)))
    details = {i.round_key: (i.round_name, i.round_detail)
               for i in session.scalars(select(Interview).order_by(Interview.id))}
    sample = session.scalar(select(OutboxMessage).order_by(OutboxMessage.id))
    slugs = {c["slug"] for _name, detail in details.values() for c in detail.get("competencies", [])}
    from planner.models import Competency

    competency_ids = {c.slug: c.id for c in session.scalars(select(Competency).where(Competency.slug.in_(slugs)))}
    coordinator_id = session.scalar(select(User.id).where(User.email == "coordinator@demo.test"))

    posting_ids = [template.id] + _postings(session, template, selections, evidence, rounds, size.postings - 1)
    version_ids = {template.id: version.id}
    for posting_id, version_id in zip(posting_ids[1:], _insert(session, PlanVersion, [
            {"posting_id": p, "number": 1, "snapshot": version.snapshot, "note": "Initial loop plan",
             "published_by_id": coordinator_id, "published_at": now - timedelta(days=200)}
            for p in posting_ids[1:]], ids=True), strict=True):
        version_ids[posting_id] = version_id

    people = list(session.scalars(select(Interviewer.id).order_by(Interviewer.id)))
    people += _interviewers(session, rng, competency_ids, size.interviewers - len(people))
    loops, interview_total = _loops(session, rng, now, size, posting_ids, version_ids, people, details,
                                    competency_ids, sample, coordinator_id)
    session.commit()
    middle_loop = loops[len(loops) // 2]
    jordan = session.scalar(select(Interviewer).join(User, User.id == Interviewer.user_id)
                            .where(User.email == "interviewer@demo.test"))
    busiest = people[len(people) // 2]
    return Filled(posting_ids[len(posting_ids) // 2], middle_loop, busiest, jordan.feed_token,
                  {"postings": len(posting_ids), "interviewers": len(people), "loops": len(loops),
                   "interviews": interview_total})


def _postings(session, template, selections, evidence, rounds, count: int) -> list[int]:
    base = _columns(template)
    ids = _insert(session, Posting, [{**base, "title": f"{template.title} #{n + 2}", "team": TEAMS[n % len(TEAMS)]}
                                     for n in range(count)], ids=True)
    selection_rows = [{**_columns(s), "posting_id": p} for p in ids for s in selections]
    selection_ids = _insert(session, PostingCompetency, selection_rows, ids=True)
    evidence_rows = []
    for index, new_id in enumerate(selection_ids):
        for item in evidence[selections[index % len(selections)].id]:
            evidence_rows.append({**_columns(item), "posting_competency_id": new_id})
    _insert(session, Evidence, evidence_rows)
    round_rows = [{**_columns(r), "posting_id": p, "key": secrets.token_hex(4)} for p in ids for r in rounds]
    round_ids = _insert(session, Round, round_rows, ids=True)
    focus = [[(rc.competency_id, rc.focus) for rc in r.competencies] for r in rounds]
    _insert(session, RoundCompetency, [{"round_id": rid, "competency_id": c, "focus": f}
                                       for index, rid in enumerate(round_ids) for c, f in focus[index % len(rounds)]])
    return ids


def _interviewers(session, rng, competency_ids: dict[str, int], count: int) -> list[int]:
    rows = [{"name": f"Interviewer {n:04d}", "email": f"person{n:04d}@bench.example", "team": rng.choice(TEAMS),
             "timezone": rng.choice(ZONES), "work_start": "09:00", "work_end": "17:00",
             "work_days": "mon tue wed thu fri", "max_per_day": rng.choice([1, 2, 3]),
             "max_per_week": rng.choice([3, 5, 8]), "active": rng.random() > 0.03,
             "feed_token": secrets.token_urlsafe(24)} for n in range(count)]
    ids = _insert(session, Interviewer, rows, ids=True)
    slugs = sorted(competency_ids)
    levels = ["qualified", "qualified", "qualified", "shadow", "reverse-shadow"]
    _insert(session, Qualification, [
        {"interviewer_id": person, "competency_id": competency_ids[slug], "level": rng.choice(levels)}
        for person in ids for slug in rng.sample(slugs, min(len(slugs), rng.randint(2, 6)))])
    return ids


def _loops(session, rng, now, size: Size, posting_ids, version_ids, people, details, competency_ids, sample,
           coordinator_id) -> tuple[list[int], int]:
    keys = list(details)
    scheduled = max(size.interviews // len(keys), 1)
    drafts = max(scheduled // 10, 1)
    candidates = _insert(session, Candidate, [
        {"name": f"Candidate {n:05d}", "email": f"candidate{n:05d}@cand.example", "timezone": rng.choice(ZONES)}
        for n in range(scheduled + drafts)], ids=True)
    days = [now.replace(hour=15, minute=0, second=0, microsecond=0) + timedelta(days=rng.randint(-150, 60))
            for _ in candidates]
    loop_rows = []
    for index, candidate in enumerate(candidates):
        posting = rng.choice(posting_ids)
        loop_rows.append({"posting_id": posting, "candidate_id": candidate, "plan_version_id": version_ids[posting],
                          "status": "scheduled" if index < scheduled else "draft", "hiring_team": "neuron-compiler",
                          "max_gap_minutes": 60, "video_url": "https://meet.example.com/loop",
                          "created_at": days[index] - timedelta(days=14)})
    loop_ids = _insert(session, Loop, loop_rows, ids=True)
    _insert(session, LoopWindow, [{"loop_id": loop, "start": days[i] - timedelta(hours=1),
                                   "end": days[i] + timedelta(hours=8)} for i, loop in enumerate(loop_ids)])
    interview_rows, plans = [], []
    for index, loop in enumerate(loop_ids[:scheduled]):
        start = days[index]
        for key in keys:
            name, detail = details[key]
            minutes = int(detail.get("minutes", 60))
            interview_rows.append({"loop_id": loop, "round_key": key, "round_name": name, "round_detail": detail,
                                   "start": start, "end": start + timedelta(minutes=minutes),
                                   "uid": f"bench-{secrets.token_hex(10)}@planner.example", "sequence": 0,
                                   "status": "scheduled", "video_url": "https://meet.example.com/loop"})
            plans.append(detail)
            start += timedelta(minutes=minutes + 15)
    interview_ids = _insert(session, Interview, interview_rows, ids=True)
    seat_rows, scorecards, outbox = [], [], []
    for interview, row, detail in zip(interview_ids, interview_rows, plans, strict=True):
        panel = rng.sample(people, 3)
        assessors = panel[:rng.choice([1, 1, 2])]
        seat_rows += [{"interview_id": interview, "interviewer_id": p, "role": "assessor", "status": "active"}
                      for p in assessors]
        if rng.random() < 0.3:
            seat_rows.append({"interview_id": interview, "interviewer_id": panel[2], "role": "trainee",
                              "training_level": "shadow", "status": "active"})
        if row["end"] < now:
            scorecards += [(interview, p, detail) for p in assessors if rng.random() < 0.8]
        else:
            outbox += [{"message_id": f"<bench-{secrets.token_hex(10)}@planner.example>", "kind": "invite",
                        "method": "REQUEST", "recipient_email": f"p{p}@bench.example", "recipient_name": "",
                        "subject": sample.subject, "body_text": sample.body_text, "body_html": sample.body_html,
                        "ics": sample.ics, "interview_id": interview, "loop_id": row["loop_id"],
                        "state": rng.choice(["sent", "sent", "sent", "pending", "failed"]),
                        "next_attempt_at": now, "created_at": row["start"] - timedelta(days=10)}
                       for p in assessors]
    _insert(session, Seat, seat_rows)
    card_ids = _insert(session, Scorecard, [{"interview_id": i, "interviewer_id": p, "notes": "Solid evidence.",
                                            "submitted_at": now - timedelta(days=1)} for i, p, _ in scorecards],
                       ids=True)
    _insert(session, Rating, [{"scorecard_id": card, "competency_id": competency_ids[c["slug"]],
                               "score": rng.randint(1, 4)}
                              for card, (_i, _p, detail) in zip(card_ids, scorecards, strict=True)
                              for c in detail.get("competencies", []) if c["slug"] in competency_ids])
    _insert(session, OutboxMessage, outbox)
    _insert(session, AuditEntry, [{"at": days[i] - timedelta(days=10), "actor_id": coordinator_id,
                                   "action": "loop_scheduled", "entity": "loop", "entity_id": loop, "loop_id": loop,
                                   "details": json.loads(json.dumps({"interviews": len(keys)}))}
                                  for i, loop in enumerate(loop_ids[:scheduled])])
    return loop_ids[:scheduled], len(interview_ids)


def now_label() -> str:
    return datetime.now().strftime("%Y-%m-%d %H:%M")
