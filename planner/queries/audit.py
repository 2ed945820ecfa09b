"""Read side of the audit trail: filtered, newest-first pages and exports, with names in a fixed number of queries.

Entries written before the ``loop_id``/``interviewer_id`` columns existed are still found by the loop and
person filters: through their entity (a loop's or an interviewer's own entries) or the loop named in their
details, so no back-fill is needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import and_, func, not_, or_, select
from sqlalchemy.orm import Session

from planner.core.audit.kinds import KINDS, OTHER, Kind, get_kind, kind_of
from planner.core.audit.wording import Entry, LoopName, Names, competency_slugs, describe, who
from planner.models import AuditEntry, Candidate, Competency, Interview, Interviewer, Loop, Posting, User


@dataclass(frozen=True)
class AuditFilter:
    """What the audit page narrows to; None means any. ``start``/``end`` are UTC, end exclusive."""

    loop_id: int | None = None
    interviewer_id: int | None = None
    kind: str | None = None
    start: datetime | None = None
    end: datetime | None = None


@dataclass(frozen=True)
class Link:
    """Something an entry concerns: its id, its name, and whether it still exists (then it is linked)."""

    id: int
    label: str
    exists: bool


@dataclass(frozen=True)
class AuditRow:
    """One entry as the page and the CSV show it."""

    id: int
    at: datetime
    who: str
    what: str
    why: str
    action: str
    kind: str
    loop: Link | None
    person: Link | None
    posting: Link | None


def _kind_condition(kind: Kind):
    parts = [AuditEntry.action.in_(kind.actions)] if kind.actions else []
    parts += [AuditEntry.action.startswith(prefix, autoescape=True) for prefix in kind.prefixes]
    return or_(*parts)


def _conditions(filters: AuditFilter) -> list:
    where = []
    if filters.loop_id is not None:
        old = AuditEntry.loop_id.is_(None)
        where.append(or_(AuditEntry.loop_id == filters.loop_id,
                         and_(old, AuditEntry.entity == "loop", AuditEntry.entity_id == filters.loop_id),
                         and_(old, AuditEntry.details["loop_id"].as_integer() == filters.loop_id)))
    if filters.interviewer_id is not None:
        where.append(or_(AuditEntry.interviewer_id == filters.interviewer_id,
                         and_(AuditEntry.interviewer_id.is_(None), AuditEntry.entity == "interviewer",
                              AuditEntry.entity_id == filters.interviewer_id),
                         # A replacement names the person leaving; the one joining finds it too.
                         and_(AuditEntry.action == "interviewer_replaced",
                              AuditEntry.details["joining"].as_integer() == filters.interviewer_id)))
    if filters.kind == OTHER:
        where.append(not_(or_(*(_kind_condition(kind) for kind in KINDS))))
    elif filters.kind is not None:
        kind = get_kind(filters.kind)
        if kind is not None:
            where.append(_kind_condition(kind))
    if filters.start is not None:
        where.append(AuditEntry.at >= filters.start)
    if filters.end is not None:
        where.append(AuditEntry.at < filters.end)
    return where


def count_entries(session: Session, filters: AuditFilter) -> int:
    """How many entries match."""
    return session.scalar(select(func.count(AuditEntry.id)).where(*_conditions(filters))) or 0


#: The columns read (plain rows, not ORM objects: a long export fills no identity map).
_COLUMNS = (AuditEntry.id, AuditEntry.at, AuditEntry.actor_id, AuditEntry.action, AuditEntry.entity,
            AuditEntry.entity_id, AuditEntry.loop_id, AuditEntry.interviewer_id, AuditEntry.reason,
            AuditEntry.details)


def _newest_first(filters: AuditFilter):
    return select(*_COLUMNS).where(*_conditions(filters)).order_by(AuditEntry.at.desc(), AuditEntry.id.desc())


def list_entries(session: Session, filters: AuditFilter, *, zone: ZoneInfo, limit: int = 50,
                 offset: int = 0) -> list[AuditRow]:
    """One page of matching entries, newest first, in words (the page plus at most six name lookups)."""
    entries = session.execute(_newest_first(filters).limit(limit).offset(offset)).all()
    return rows_for(session, entries, zone)


def iter_entries(session: Session, filters: AuditFilter, *, zone: ZoneInfo, batch: int = 500) -> Iterator[AuditRow]:
    """Every matching entry, newest first, read ``batch`` at a time (keyset pages: memory stays flat)."""
    last: tuple[datetime, int] | None = None
    while True:
        query = _newest_first(filters)
        if last is not None:
            query = query.where(or_(AuditEntry.at < last[0], and_(AuditEntry.at == last[0], AuditEntry.id < last[1])))
        entries = session.execute(query.limit(batch)).all()
        if not entries:
            return
        yield from rows_for(session, entries, zone)
        last = (entries[-1].at, entries[-1].id)


def _view(entry) -> Entry:
    return Entry(action=entry.action, entity=entry.entity, entity_id=entry.entity_id, details=entry.details or {},
                 loop_id=entry.loop_id, interviewer_id=entry.interviewer_id, actor_id=entry.actor_id)


def _ints(values: Iterable) -> set[int]:
    return {v for v in values if isinstance(v, int) and not isinstance(v, bool)}


def _pairs(session: Session, ids: set, id_column, name_column) -> dict:
    """id -> name for the given ids (no query when there are none)."""
    if not ids:
        return {}
    return dict(session.execute(select(id_column, name_column).where(id_column.in_(ids))).all())


def _loops(session: Session, ids: set[int]) -> dict[int, LoopName]:
    if not ids:
        return {}
    query = (select(Loop.id, Candidate.name, Loop.posting_id, Posting.title)
             .join(Candidate, Candidate.id == Loop.candidate_id).join(Posting, Posting.id == Loop.posting_id)
             .where(Loop.id.in_(ids)))
    return {lid: LoopName(name, pid, title) for lid, name, pid, title in session.execute(query)}


def _competencies(session: Session, slugs: set[str], ids: set[int]) -> list[tuple[int, str, str]]:
    if not slugs and not ids:
        return []
    query = select(Competency.id, Competency.slug, Competency.name).where(
        or_(Competency.slug.in_(slugs), Competency.id.in_(ids)))
    return [tuple(row) for row in session.execute(query)]


def load_names(session: Session, views: Sequence[Entry]) -> tuple[Names, dict[int, str]]:
    """The names the entries mention and their actors' names, in at most six queries whatever their number."""
    loops = _loops(session, _ints(v.the_loop for v in views))
    people = _ints([v.the_person for v in views] + [v.details.get(k) for v in views for k in ("leaving", "joining")])
    postings = {n.posting_id: n.posting for n in loops.values()}
    posting_ids = _ints(v.the_posting(Names(loops=loops)) for v in views) - set(postings)
    postings.update(_pairs(session, posting_ids, Posting.id, Posting.title))
    slugs = {slug for v in views for slug in competency_slugs(v)}
    competencies = _competencies(session, slugs, _ints(v.entity_id for v in views if v.entity == "competency"))
    names = Names(
        loops=loops,
        interviews=_pairs(session, _ints(v.the_interview for v in views), Interview.id, Interview.round_name),
        people=_pairs(session, people, Interviewer.id, Interviewer.name),
        postings=postings,
        competencies={slug: name for _id, slug, name in competencies},
        competency_ids={cid: name for cid, _slug, name in competencies},
    )
    return names, _pairs(session, _ints(v.actor_id for v in views), User.id, User.name)


def rows_for(session: Session, entries: Sequence, zone: ZoneInfo) -> list[AuditRow]:
    """Audit entries (rows of ``_COLUMNS`` or ``AuditEntry`` objects) in words, with links to what still exists."""
    views = [_view(e) for e in entries]
    names, actors = load_names(session, views)
    rows = []
    for entry, view in zip(entries, views, strict=True):
        loop, person, posting = view.the_loop, view.the_person, view.the_posting(names)
        rows.append(AuditRow(
            id=entry.id, at=entry.at, who=who(view, actors.get(entry.actor_id)), what=describe(view, names, zone),
            why=entry.reason or "", action=entry.action, kind=kind_of(entry.action),
            loop=Link(loop, names.loops[loop].candidate if loop in names.loops
                      else str(view.details.get("candidate") or f"loop #{loop}"), loop in names.loops)
            if loop else None,
            person=Link(person, names.people.get(person, f"interviewer #{person}"), person in names.people)
            if person else None,
            posting=Link(posting, names.postings.get(posting, f"posting #{posting}"), posting in names.postings)
            if posting else None,
        ))
    return rows


@dataclass(frozen=True)
class Choice:
    id: int
    label: str


def loop_choices(session: Session) -> list[Choice]:
    """Every loop, by candidate name then newest first, labelled with its posting (one query)."""
    query = (select(Loop.id, Candidate.name, Posting.title).join(Candidate, Candidate.id == Loop.candidate_id)
             .join(Posting, Posting.id == Loop.posting_id).order_by(Candidate.name, Loop.id.desc()))
    return [Choice(lid, f"{name} — {title}") for lid, name, title in session.execute(query)]


def person_choices(session: Session) -> list[Choice]:
    """Every interviewer, active or not, by name (one query)."""
    query = select(Interviewer.id, Interviewer.name, Interviewer.active).order_by(Interviewer.name, Interviewer.id)
    return [Choice(pid, name if active else f"{name} (inactive)") for pid, name, active in session.execute(query)]
