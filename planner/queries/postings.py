"""Read side of the posting pages: the list, one posting with its competencies, the highlighted text.

Each function issues a fixed number of SQL queries whatever the data size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import case, func, or_, select
from sqlalchemy.orm import Session, selectinload

from planner.core.extraction.priority import sentences_by_offsets, suggest_from_evidence
from planner.core.extraction.sentences import Sentence, display_breaks
from planner.models import (
    Competency,
    Evidence,
    Posting,
    PostingCompetency,
    PostingStatus,
    Priority,
    SelectionState,
)

STATUSES = tuple(s.value for s in PostingStatus)


@dataclass(frozen=True, slots=True)
class PostingRow:
    id: int
    title: str
    team: str
    location: str
    hiring_manager: str
    status: str
    accepted: int
    must_haves: int
    suggested: int
    updated_at: datetime


def _matching(query, search: str, status: str):
    """``query`` narrowed to postings of ``status`` whose title, team, location or manager hold every word."""
    if status in STATUSES:
        query = query.where(Posting.status == PostingStatus(status))
    for word in search.split()[:8]:
        pattern = f"%{word.lower()}%"
        query = query.where(
            or_(
                func.lower(Posting.title).like(pattern),
                func.lower(Posting.team).like(pattern),
                func.lower(Posting.location).like(pattern),
                func.lower(Posting.hiring_manager).like(pattern),
            )
        )
    return query


def count_postings(session: Session, *, search: str = "", status: str = "") -> int:
    """How many postings :func:`list_postings` lists with these filters (one query)."""
    return session.scalar(_matching(select(func.count(Posting.id)), search, status)) or 0


def list_postings(session: Session, *, search: str = "", status: str = "", limit: int | None = None,
                  offset: int = 0) -> list[PostingRow]:
    """Postings newest first, counting accepted, must-have and open suggested competencies (one query);
    with ``limit``, that many from ``offset``."""
    state = PostingCompetency.state
    query = (
        select(
            Posting.id,
            Posting.title,
            Posting.team,
            Posting.location,
            Posting.hiring_manager,
            Posting.status,
            func.count(case((state == SelectionState.ACCEPTED, 1))),
            func.count(
                case(
                    (
                        (state == SelectionState.ACCEPTED)
                        & (PostingCompetency.priority == Priority.MUST_HAVE),
                        1,
                    )
                )
            ),
            func.count(case((state == SelectionState.SUGGESTED, 1))),
            Posting.updated_at,
        )
        .outerjoin(PostingCompetency, PostingCompetency.posting_id == Posting.id)
        .group_by(Posting.id)
        .order_by(Posting.updated_at.desc(), Posting.id.desc())
    )
    query = _matching(query, search, status)
    if limit is not None:
        query = query.limit(limit).offset(max(offset, 0))
    return [
        PostingRow(
            id=r[0],
            title=r[1],
            team=r[2],
            location=r[3],
            hiring_manager=r[4],
            status=r[5].value,
            accepted=r[6],
            must_haves=r[7],
            suggested=r[8],
            updated_at=r[9],
        )
        for r in session.execute(query)
    ]


def count_by_status(session: Session) -> dict[str, int]:
    """How many postings hold each status (every status present, zero when none)."""
    counts = dict.fromkeys(STATUSES, 0)
    for status, count in session.execute(
        select(Posting.status, func.count(Posting.id)).group_by(Posting.status)
    ):
        counts[status.value] = count
    return counts


def get_posting(session: Session, posting_id: int) -> Posting | None:
    """One posting without its competencies (headers and the edit form)."""
    return session.get(Posting, posting_id)


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of text; `phrase` when it is a matched library phrase."""

    text: str
    phrase: bool = False
    break_before: bool = False


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of the posting text; evidence stretches carry their parts and who they justify."""

    parts: tuple[Part, ...]
    evidence: bool = False
    anchor: str = ""
    names: tuple[str, ...] = ()
    break_before: bool = False


@dataclass(frozen=True, slots=True)
class EvidenceView:
    parts: tuple[Part, ...]
    anchor: str
    in_text: bool


@dataclass(slots=True)
class SelectionView:
    id: int
    competency_id: int
    slug: str
    name: str
    category: str
    description: str
    retired: bool
    state: str
    priority: str
    required_coverage: int
    score: float | None
    evidence: list[EvidenceView] = field(default_factory=list)
    #: What the extractor suggests from the evidence ("must-have"/"nice-to-have") and why; None for
    #: competencies added by hand or whose evidence no longer matches the text.
    suggested_priority: str | None = None
    priority_reason: str = ""
    #: The evidence sentence the reason comes from, when it is in the text (links the reason to it).
    priority_anchor: str = ""
    #: The extractor's next-closest competency for this evidence (name, why), offered as a switch;
    #: None when there is none, it is retired, or it is on the posting already.
    runner_up: tuple[str, str] | None = None

    @property
    def manual(self) -> bool:
        return self.score is None


@dataclass(slots=True)
class PostingPage:
    posting: Posting
    suggested: list[SelectionView]
    accepted: list[SelectionView]
    rejected: list[SelectionView]
    segments: list[Segment]
    options: list[Competency]

    @property
    def must_haves(self) -> int:
        return sum(1 for s in self.accepted if s.priority == Priority.MUST_HAVE.value)


def split_parts(text: str, spans) -> tuple[Part, ...]:
    """Cut `text` at the (start, end) spans, marking the spans as phrases; overlapping spans are merged."""
    merged: list[list[int]] = []
    for start, end in sorted((max(0, int(s)), min(len(text), int(e))) for s, e in spans):
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    parts, cursor = [], 0
    for start, end in merged:
        if start > cursor:
            parts.append(Part(text[cursor:start]))
        parts.append(Part(text[start:end], True))
        cursor = end
    if cursor < len(text):
        parts.append(Part(text[cursor:]))
    return tuple(parts)


def _anchor(start: int) -> str:
    return f"ev-{start}"


def highlight(text: str, evidence: list[tuple[Evidence, str]]) -> list[Segment]:
    """The posting text cut into plain and evidence segments (sentences marked, phrases inside emphasised).

    Evidence whose offsets no longer match the text (the text changed since) is left out. Segments and
    parts that start where the text lost a line break (glued headings, bullets) are flagged
    ``break_before`` so the page can show the posting as its author laid it out.
    """
    breaks = set(display_breaks(text))
    sentences: dict[tuple[int, int], tuple[set, list]] = {}
    for item, name in evidence:
        if not (0 <= item.start < item.end <= len(text)) or text[item.start : item.end] != item.sentence:
            continue
        names, spans = sentences.setdefault((item.start, item.end), (set(), []))
        names.add(name)
        spans.extend(item.spans or [])
    segments, cursor = [], 0
    for (start, end), (names, spans) in sorted(sentences.items()):
        if start < cursor:  # overlapping sentences cannot happen with one splitter; keep the first
            continue
        if start > cursor:
            segments.append(Segment(_plain_parts(text, cursor, start, breaks)))
        segments.append(Segment(split_parts(text[start:end], spans), True, _anchor(start), tuple(sorted(names)),
                                break_before=start in breaks))
        cursor = end
    if cursor < len(text):
        segments.append(Segment(_plain_parts(text, cursor, len(text), breaks)))
    return segments


def _plain_parts(text: str, start: int, end: int, breaks: set[int]) -> tuple[Part, ...]:
    """Plain text from ``start`` to ``end``, cut where a line break was lost."""
    cuts = [start, *sorted(b for b in breaks if start < b < end), end]
    return tuple(Part(text[lo:hi], break_before=lo in breaks) for lo, hi in zip(cuts, cuts[1:], strict=False))


def _view(
    pc: PostingCompetency, text: str, sentences: dict[tuple[int, int], Sentence], used: set[int]
) -> SelectionView:
    c = pc.competency
    alternative = pc.runner_up
    runner_up = None
    if alternative is not None and alternative.retired_at is None and alternative.id not in used:
        runner_up = (alternative.name, pc.runner_up_reason)
    suggestion, anchor = None, ""
    if pc.score is not None:
        # Recomputed from the stored evidence and the text, so it always matches the sentences shown.
        suggestion = suggest_from_evidence(sentences, ((e.start, e.end, e.spans or []) for e in pc.evidence))
        if suggestion is not None and suggestion.source is not None:
            anchor = _anchor(pc.evidence[suggestion.source].start)
    return SelectionView(
        id=pc.id,
        competency_id=c.id,
        slug=c.slug,
        name=c.name,
        category=c.category.value,
        description=c.description,
        retired=c.retired_at is not None,
        state=pc.state.value,
        priority=pc.priority.value,
        required_coverage=pc.required_coverage,
        score=pc.score,
        evidence=[
            EvidenceView(
                split_parts(e.sentence, e.spans or []), _anchor(e.start), text[e.start : e.end] == e.sentence
            )
            for e in pc.evidence
        ],
        suggested_priority=suggestion.priority if suggestion else None,
        priority_reason=suggestion.reason if suggestion else "",
        priority_anchor=anchor,
        runner_up=runner_up,
    )


def get_posting_page(session: Session, posting_id: int) -> PostingPage | None:
    """Everything the posting page shows, in five queries."""
    posting = session.scalar(
        select(Posting)
        .where(Posting.id == posting_id)
        .options(
            selectinload(Posting.competencies).selectinload(PostingCompetency.competency),
            selectinload(Posting.competencies).selectinload(PostingCompetency.runner_up),
            selectinload(Posting.competencies).selectinload(PostingCompetency.evidence),
        )
    )
    if posting is None:
        return None
    views = {state: [] for state in SelectionState}
    shown: list[tuple[Evidence, str]] = []
    sentences = sentences_by_offsets(posting.text)
    used = {pc.competency_id for pc in posting.competencies}
    for pc in posting.competencies:
        views[pc.state].append(_view(pc, posting.text, sentences, used))
        if pc.state is not SelectionState.REJECTED:
            shown.extend((e, pc.competency.name) for e in pc.evidence)
    by_strength = lambda v: (-(v.score or 0), v.name.lower())  # noqa: E731
    views[SelectionState.SUGGESTED].sort(key=by_strength)
    views[SelectionState.ACCEPTED].sort(
        key=lambda v: (v.priority != Priority.MUST_HAVE.value, *by_strength(v))
    )
    views[SelectionState.REJECTED].sort(key=lambda v: v.name.lower())
    options = [
        c
        for c in session.scalars(
            select(Competency)
            .where(Competency.retired_at.is_(None))
            .order_by(Competency.category, Competency.name)
        )
        if c.id not in used
    ]
    return PostingPage(
        posting=posting,
        suggested=views[SelectionState.SUGGESTED],
        accepted=views[SelectionState.ACCEPTED],
        rejected=views[SelectionState.REJECTED],
        segments=highlight(posting.text, shown),
        options=options,
    )
