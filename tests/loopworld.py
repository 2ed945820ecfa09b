"""A small scheduling world for loop and scheduling tests: a posting, a published plan, a pool, loops.

Dates are fixed in March 2030: NOW is Monday 4 March 12:00 UTC; the default window is Wednesday 6 March
14:00-22:00 UTC (09:00-17:00 in New York, 06:00-14:00 in Los Angeles, 15:00-23:00 in Berlin).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select

from planner.core.scheduling import load_problem, validate
from planner.models import (
    Candidate,
    Competency,
    CompetencyCategory,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    LoopStatus,
    LoopWindow,
    PlanVersion,
    Posting,
    PostingCompetency,
    Priority,
    Qualification,
    Seat,
    SeatRole,
    SelectionState,
    TrainingLevel,
)
from planner.services import scheduling
from planner.services.invites import MailSettings

NOW = datetime(2030, 3, 4, 12, 0, tzinfo=UTC)
WINDOW = (datetime(2030, 3, 6, 14, 0, tzinfo=UTC), datetime(2030, 3, 6, 22, 0, tzinfo=UTC))
SETTINGS = MailSettings("recruiting@hire.example", "Recruiting", "https://planner.example", "hire.example")

ROUNDS = [
    {"key": "tech", "name": "Compiler deep-dive", "kind": "technical", "minutes": 60, "interviewers": 1,
     "focus_questions": ["Walk through a pass you designed."], "min_outside_team": 0, "max_trainees": 1,
     "competencies": [{"slug": "compiler-design", "focus": "primary"},
                      {"slug": "mentoring", "focus": "secondary"}]},
    {"key": "mentor", "name": "Mentoring", "kind": "behavioural", "minutes": 45, "interviewers": 1,
     "focus_questions": [], "min_outside_team": 0, "max_trainees": 0,
     "competencies": [{"slug": "mentoring", "focus": "primary"}]},
]


def row_count(db, model) -> int:
    return db.scalar(select(func.count()).select_from(model))


def proposal_errors(db, loop_id: int, interviews) -> list[str]:
    """The scheduler validator's complaints about a proposal of one loop (its stats aside)."""
    problem = load_problem(scheduling.problem_for(db, [loop_id], now=NOW))
    errors = validate(problem, {"loops": [{"id": f"loop{loop_id}", "status": "scheduled",
                                           "interviews": interviews}], "stats": {}})
    return [e for e in errors if not e.startswith("stats.")]


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


class World:
    """Builds rows in a session; every method flushes so ids exist."""

    def __init__(self, session, *, uncovered: bool = False) -> None:
        self.session = session
        self.competencies = {}
        for slug, name in (("compiler-design", "Compiler design"), ("mentoring", "Mentoring"),
                           ("pre-silicon-feedback", "Pre-silicon feedback")):
            competency = Competency(slug=f"{slug}", name=name, category=CompetencyCategory.TECHNICAL)
            session.add(competency)
            self.competencies[slug] = competency
        session.flush()
        self.posting = Posting(title="Compiler Engineer", team="Neuron Compiler")
        musts = ["compiler-design", "mentoring"] + (["pre-silicon-feedback"] if uncovered else [])
        for slug in musts:
            self.posting.competencies.append(PostingCompetency(
                competency_id=self.competencies[slug].id, state=SelectionState.ACCEPTED,
                priority=Priority.MUST_HAVE, required_coverage=1))
        session.add(self.posting)
        session.flush()
        self.version = PlanVersion(posting_id=self.posting.id, number=1, snapshot=ROUNDS)
        session.add(self.version)
        session.flush()

    def person(self, name: str, tz: str, skills: dict[str, str], *, team: str = "neuron-compiler",
               hours=("09:00", "17:00"), caps=(2, 5), days="mon tue wed thu fri", active=True) -> Interviewer:
        person = Interviewer(name=name, email=f"{name.lower()}@hire.example", team=team, timezone=tz,
                             work_start=hours[0], work_end=hours[1], work_days=days, max_per_day=caps[0],
                             max_per_week=caps[1], active=active, feed_token=secrets.token_urlsafe(16))
        person.qualifications = [
            Qualification(competency_id=self.competencies[s].id, level=TrainingLevel(level))
            for s, level in skills.items()]
        self.session.add(person)
        self.session.flush()
        return person

    def loop(self, name: str = "Kim Lee", tz: str = "America/New_York", windows=(WINDOW,), *,
             version: bool = True, max_gap: int | None = 60) -> Loop:
        candidate = Candidate(name=name, email=f"{name.split()[0].lower()}@cand.example", timezone=tz)
        loop = Loop(posting_id=self.posting.id, candidate=candidate, hiring_team="neuron-compiler",
                    plan_version_id=self.version.id if version else None, max_gap_minutes=max_gap)
        loop.windows = [LoopWindow(start=s, end=e) for s, e in windows]
        self.session.add(loop)
        self.session.flush()
        return loop

    def booked(self, person: Interviewer, start: datetime, end: datetime, *,
               status: InterviewStatus = InterviewStatus.SCHEDULED) -> Interview:
        """An interview of another loop holding ``person``'s seat (what ``existing`` is made of)."""
        other = self.loop(name=f"Other {secrets.token_hex(3)}")
        interview = Interview(loop_id=other.id, round_key="tech", round_name="Compiler deep-dive",
                              start=start, end=end, uid=f"test-{secrets.token_hex(8)}@hire.example",
                              status=status)
        interview.seats.append(Seat(interviewer_id=person.id, role=SeatRole.ASSESSOR))
        self.session.add(interview)
        self.session.flush()
        return interview

    def basic_pool(self) -> dict[str, Interviewer]:
        """Ana (LA) the only compiler assessor, Cleo (NY) mentoring, Dev (NY) a compiler shadow."""
        return {
            "ana": self.person("Ana", "America/Los_Angeles", {"compiler-design": "qualified"},
                               hours=("06:00", "14:00"), caps=(1, 2)),
            "cleo": self.person("Cleo", "America/New_York", {"mentoring": "qualified"}, team="bar-raisers"),
            "dev": self.person("Dev", "America/New_York", {"compiler-design": "shadow"}),
        }


def book(db, world: World, loop, key: str, start, assessors, trainees=(), *, status=InterviewStatus.SCHEDULED):
    """An interview of the world's plan round ``key`` with the given assessor and trainee seats."""
    rnd = next(r for r in ROUNDS if r["key"] == key)
    detail = {"kind": rnd["kind"], "minutes": rnd["minutes"], "focus_questions": rnd["focus_questions"],
              "competencies": [{"slug": c["slug"], "name": world.competencies[c["slug"]].name, "focus": c["focus"]}
                               for c in rnd["competencies"]]}
    interview = Interview(loop_id=loop.id, round_key=key, round_name=rnd["name"], round_detail=detail, start=start,
                          end=start + timedelta(minutes=rnd["minutes"]), uid=f"t-{secrets.token_hex(8)}@x",
                          status=status)
    interview.seats = [Seat(interviewer_id=p.id, role=SeatRole.ASSESSOR) for p in assessors] + [
        Seat(interviewer_id=p.id, role=SeatRole.TRAINEE, training_level="shadow") for p in trainees]
    db.add(interview)
    loop.status = LoopStatus.SCHEDULED
    db.flush()
    return interview
