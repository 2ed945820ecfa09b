"""The DESIGN 5.2 scheduling problem built from the database, and the checks run against it.

Ids in the problem: interviewers are ``"p<id>"``, loops ``"loop<id>"``, rounds their plan key.

Which competencies a round lists: only its *primary* focus (secondary when it has no primary). The
contract requires a qualified assessor for every listed competency and every assessor to be
qualified in one of them; listing secondary focus too would demand, for a one-person round, someone
qualified in everything the round touches, which is not how kits are staffed. Secondary competencies
still reach the invite (``Interview.round_detail``) as things to note.

Every function here reads only; none commits.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select, update
from sqlalchemy.orm import Session, selectinload

from planner.core.errors import NotFound, ValidationFailed
from planner.core.scheduling import Problem, ProblemError, load_problem, validate
from planner.models import (
    BusyBlock,
    Competency,
    Interview,
    Interviewer,
    InterviewStatus,
    Loop,
    PlanVersion,
    Qualification,
    Seat,
    SeatStatus,
)
from planner.services.plans import latest_version

SLOT_MINUTES = 15
#: Busy time and existing seats are read this far around the windows, so caps of every local ISO
#: week the windows touch (in any time zone) are counted in full.
HORIZON_MARGIN = timedelta(days=8)


@dataclass
class LoopRounds:
    """A loop's plan version and its rounds (the snapshot), keyed by round key."""

    version: PlanVersion
    rounds: dict[str, dict]


@dataclass
class BuiltProblem:
    """The problem document, its parsed form, and what the shell needs to turn results back into rows."""

    doc: dict
    problem: Problem
    rounds: dict[int, LoopRounds]
    names: dict[str, str]

    def check(self, entries: Sequence[dict]) -> list[str]:
        """Every hard rule the loop entries break, in plain words (empty when they fit)."""
        errors = validate(self.problem, {"loops": list(entries), "stats": {}})
        return [self.humanise(e) for e in errors if not e.startswith("stats.")]

    def humanise(self, text: str) -> str:
        """Replace quoted problem ids by people's, rounds' and competencies' names.

        Ids hold no spaces, so an apostrophe in the sentence ("the candidate's windows") is never
        paired with the opening quote of the next id.
        """
        return re.sub(r"'([^'\s]+)'", lambda m: self.names.get(m.group(1), m.group(0)), text)


def person_key(interviewer_id: int) -> str:
    return f"p{interviewer_id}"


def person_id(key: str) -> int:
    """The interviewer id of a problem key; ValidationFailed for anything else."""
    if not isinstance(key, str) or not re.fullmatch(r"p\d{1,12}", key):
        raise ValidationFailed("The proposal names an unknown interviewer; schedule the loop again.")
    return int(key[1:])


def loop_key(loop_id: int) -> str:
    return f"loop{loop_id}"


def iso_z(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_z(text: str) -> datetime:
    """An aware UTC datetime from a result's RFC 3339 text; ValidationFailed when malformed."""
    try:
        moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        raise ValidationFailed("The proposal has a malformed time; schedule the loop again.") from None
    if moment.tzinfo is None:
        raise ValidationFailed("The proposal has a time without a zone; schedule the loop again.")
    return moment.astimezone(UTC)


def loop_rounds(session: Session, loop: Loop) -> LoopRounds:
    """The plan version the loop is scheduled with: its own, else the posting's latest published one.

    :raise ValidationFailed: when the posting has no published plan, or a round assesses nothing.
    """
    version = session.get(PlanVersion, loop.plan_version_id) if loop.plan_version_id else None
    version = version or latest_version(session, loop.posting_id)
    if version is None:
        raise ValidationFailed("The posting has no published loop plan yet; publish the plan on the "
                               "posting's 'Loop plan' tab, then schedule this loop.")
    rounds: dict[str, dict] = {}
    for item in version.snapshot:
        if not item.get("competencies"):
            raise ValidationFailed(f"Round '{item.get('name')}' of plan version {version.number} assesses no "
                                   "competency; fix the plan and publish a new version.")
        rounds[item["key"]] = item
    return LoopRounds(version, rounds)


def round_slugs(item: dict) -> list[str]:
    """The competencies a round lists in the problem: primary focus, or secondary when it has none."""
    primary = [c["slug"] for c in item["competencies"] if c.get("focus") == "primary"]
    return primary or [c["slug"] for c in item["competencies"]]


def takes_trainee(item: dict) -> bool:
    """Whether a plan round (snapshot item) has a trainee seat (the problem's ``trainee: true``)."""
    return int(item.get("max_trainees") or 0) > 0


#: UTC (start, end) spans standing in for a loop's own windows (times offered to the candidate).
Spans = Sequence[tuple[datetime, datetime]]


def _windows(spans: Spans, now: datetime) -> list[dict]:
    # Nothing is proposed in the past: windows are cut at the next slot from now.
    minute = (int(now.timestamp()) + 59) // 60
    first = datetime.fromtimestamp(-(-minute // SLOT_MINUTES) * SLOT_MINUTES * 60, UTC)
    cut = []
    for start, end in spans:
        start = max(start, first)
        if end > start:
            cut.append({"start": iso_z(start), "end": iso_z(end)})
    return cut


def _spans(loop: Loop, windows: Mapping[int, Spans] | None) -> Spans:
    if windows is not None and loop.id in windows:
        return windows[loop.id]
    return [(w.start, w.end) for w in loop.windows]


def _loop_doc(loop: Loop, plan: LoopRounds, now: datetime, spans: Spans,
              round_keys: Collection[str] | None = None) -> dict:
    rounds = []
    for key, item in plan.rounds.items():
        if round_keys is not None and key not in round_keys:
            continue
        entry = {"id": key, "minutes": item["minutes"], "competencies": round_slugs(item),
                 "interviewers": item["interviewers"], "trainee": takes_trainee(item)}
        if item.get("min_outside_team"):
            entry["outside_hiring_team"] = item["min_outside_team"]
        rounds.append(entry)
    doc = {"id": loop_key(loop.id),
           "candidate": {"name": loop.candidate.name, "email": loop.candidate.email,
                         "timezone": loop.candidate.timezone},
           "windows": _windows(spans, now), "rounds": rounds}
    if loop.hiring_team:
        doc["hiring_team"] = loop.hiring_team
    if loop.max_gap_minutes is not None:
        doc["max_gap_minutes"] = loop.max_gap_minutes
    if not loop.rounds_any_order:
        doc["ordered"] = True  # the rounds keep the plan's order unless the coordinator allows any order
    return doc


def _horizon(spans: Sequence[Spans], now: datetime) -> tuple[datetime, datetime]:
    starts = [start for each in spans for start, _end in each] or [now]
    ends = [end for each in spans for _start, end in each] or [now]
    return min(min(starts), now) - HORIZON_MARGIN, max(ends) + HORIZON_MARGIN


def get_loops(session: Session, loop_ids: Sequence[int], *, lock: bool = False) -> list[Loop]:
    """Loops by id (id order) with candidate and windows loaded; NotFound names a missing one."""
    query = (select(Loop).where(Loop.id.in_(list(loop_ids))).order_by(Loop.id)
             .options(selectinload(Loop.candidate), selectinload(Loop.windows))
             .execution_options(populate_existing=True))
    if lock:
        query = query.with_for_update(of=Loop)
    loops = list(session.scalars(query))
    missing = sorted(set(loop_ids) - {loop.id for loop in loops})
    if missing:
        raise NotFound(f"There is no loop #{missing[0]}.")
    return loops


def lock_loops_and_people(session: Session, loop_ids: Sequence[int], people: Iterable[int],
                          now: datetime) -> list[Loop]:
    """Lock the loops, then the interviewers, in id order, before a change is re-checked and written.

    PostgreSQL: ``SELECT ... FOR UPDATE`` (always in id order, so two changes never deadlock). SQLite
    has one writer: writing first takes the write lock, so the checks that follow run alone.
    """
    if session.get_bind().dialect.name == "sqlite":
        session.execute(update(Loop).where(Loop.id.in_(list(loop_ids))).values(updated_at=now))
    loops = get_loops(session, loop_ids, lock=True)
    ids = sorted(set(people))
    if ids:
        session.execute(select(Interviewer.id).where(Interviewer.id.in_(ids)).order_by(Interviewer.id)
                        .with_for_update())
    return loops


def build_problem(session: Session, loops: Sequence[Loop], *, now: datetime,
                  windows: Mapping[int, Spans] | None = None,
                  round_keys: Mapping[int, Collection[str]] | None = None) -> BuiltProblem:
    """The problem for ``loops`` against every active interviewer, in a bounded number of queries.

    ``existing`` holds each interviewer's active seats in interviews of *other* loops that are not
    cancelled (assessor and trainee seats alike: both count toward caps).

    :param windows: UTC spans used instead of a loop's own windows (by loop id).
    :param round_keys: only these rounds of a loop's plan (by loop id), e.g. the rounds still to be held.
    :raise ValidationFailed: when a loop has no windows or no published plan, or the plan cannot form a problem.
    """
    plans = {loop.id: loop_rounds(session, loop) for loop in loops}
    spans = {loop.id: _spans(loop, windows) for loop in loops}
    for loop in loops:
        if not spans[loop.id]:
            raise ValidationFailed(f"The loop of {loop.candidate.name} has no availability windows yet: add "
                                   "windows, or send the candidate a link to pick a time.")
    lo, hi = _horizon(list(spans.values()), now)
    loop_ids = [loop.id for loop in loops]
    people = list(session.scalars(
        select(Interviewer).where(Interviewer.active.is_(True)).order_by(Interviewer.id)
        .options(selectinload(Interviewer.qualifications))))
    competencies = session.execute(select(Competency.id, Competency.slug, Competency.name)).all()
    slug_of = {cid: slug for cid, slug, _name in competencies}
    busy: dict[int, list[dict]] = defaultdict(list)
    # Columns, not objects: a pool's busy time runs to thousands of rows.
    for interviewer_id, start, end in session.execute(
            select(BusyBlock.interviewer_id, BusyBlock.start, BusyBlock.end)
            .where(BusyBlock.end > lo, BusyBlock.start < hi).order_by(BusyBlock.start)):
        busy[interviewer_id].append({"start": iso_z(start), "end": iso_z(end)})
    existing: dict[int, list[dict]] = defaultdict(list)
    rows = session.execute(
        select(Seat.interviewer_id, Interview.start, Interview.end)
        .join(Interview, Interview.id == Seat.interview_id)
        .where(Seat.status == SeatStatus.ACTIVE, Interview.status != InterviewStatus.CANCELLED,
               Interview.loop_id.not_in(loop_ids), Interview.end > lo, Interview.start < hi)
        .order_by(Interview.start))
    for interviewer_id, start, end in rows:
        existing[interviewer_id].append({"start": iso_z(start), "end": iso_z(end)})
    interviewers = []
    for person in people:
        interviewers.append({
            "id": person_key(person.id), "name": person.name, "email": person.email,
            "timezone": person.timezone,
            "working_hours": {"start": person.work_start, "end": person.work_end,
                              "days": person.work_days.split()},
            "busy": busy.get(person.id, []), "existing": existing.get(person.id, []),
            "max_per_day": person.max_per_day, "max_per_week": person.max_per_week,
            "team": person.team,
            "skills": {slug_of[q.competency_id]: q.level.value for q in person.qualifications
                       if q.competency_id in slug_of},
        })
    doc = {"slot_minutes": SLOT_MINUTES, "interviewers": interviewers,
           "loops": [_loop_doc(loop, plans[loop.id], now, spans[loop.id], (round_keys or {}).get(loop.id))
                     for loop in loops]}
    try:
        problem = load_problem(doc)
    except ProblemError as exc:
        raise ValidationFailed(f"The loop cannot be turned into a scheduling problem: {exc}.") from None
    # Competencies first: a person's, round's or loop's own key wins should one ever read like a slug.
    names = {slug: name for _cid, slug, name in competencies}
    names.update({person_key(p.id): p.name for p in people})
    for plan in plans.values():
        names.update({key: item["name"] for key, item in plan.rounds.items()})
    names.update({loop_key(loop.id): loop.candidate.name for loop in loops})
    return BuiltProblem(doc=doc, problem=problem, rounds=plans, names=names)


def qualification_levels(session: Session, interviewer_ids: Sequence[int]) -> dict[tuple[int, str], str]:
    """(interviewer id, competency slug) -> training level, for the given people (one query)."""
    rows = session.execute(
        select(Qualification.interviewer_id, Competency.slug, Qualification.level)
        .join(Competency, Competency.id == Qualification.competency_id)
        .where(Qualification.interviewer_id.in_(list(interviewer_ids))))
    return {(pid, slug): level.value for pid, slug, level in rows}


def load_near(person, start: datetime) -> tuple[int, int]:
    """Seats the person already holds in the local ISO week and day of ``start``."""
    zone = ZoneInfo(person.timezone)
    day = start.astimezone(zone).date()
    week = day.isocalendar()[:2]
    days = [datetime.fromtimestamp(s.start * 60, UTC).astimezone(zone).date() for s in person.existing]
    return sum(1 for d in days if d.isocalendar()[:2] == week), sum(1 for d in days if d == day)
