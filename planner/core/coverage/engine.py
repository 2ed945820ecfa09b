"""The coverage engine: how a loop plan covers a posting's competencies, and what is at risk.

Status of a competency, with ``count`` the number of rounds assessing it (primary or secondary):

- ``gap``: no round assesses it (count == 0);
- ``thin``: some rounds, fewer than required (0 < count < required);
- ``ok``: required, or one more as a deliberate safety margin (required <= count <= required + 1);
- ``over``: more than one round beyond what is required (count > required + 1), time that could
  assess something else;
- ``no-assessor``: enough rounds (``ok`` or ``over`` by count), but nobody in the pool is qualified in
  it, so none of them can produce evidence (only when the bench is known). A plan like that is not
  "covered", whether the rounds give it primary or only secondary focus.

Otherwise bench depth never changes a status; it raises separate risks (``no-bench``, ``thin-bench``,
``shallow-bench``) so a manager can tell "the plan is wrong" from "the people are missing". A must-have
short of rounds stays ``gap`` or ``thin`` whatever the bench: that is what blocks scheduling.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from planner.core.coverage.report import (
    GAP,
    NO_ASSESSOR,
    OK,
    OVER,
    SEVERITY_ORDER,
    STATUS_ORDER,
    THIN,
    CompetencyCoverage,
    Coverage,
    Issue,
    RoundCheck,
)
from planner.core.coverage.risks import bench_issues, focus_issue, round_issues, status_issue
from planner.core.coverage.staffing import PoolMember, Staffing, check_round, staffing_issue
from planner.core.coverage.types import PRIMARY, BenchEntry, CompetencyReq, RoundPlan
from planner.core.errors import ValidationFailed

#: Rounds beyond the required number that still count as ``ok`` (one spare absorbs a weak interview).
OK_MARGIN = 1


def coverage_status(count: int, required: int) -> str:
    """The status for ``count`` assessing rounds against ``required`` (see the module docstring)."""
    if count == 0:
        return GAP
    if count < required:
        return THIN
    if count <= required + OK_MARGIN:
        return OK
    return OVER


def bench_status(status: str, entry: BenchEntry | None) -> str:
    """``no-assessor`` for a status that counts enough rounds when nobody is qualified to assess it."""
    if entry is not None and entry.qualified == 0 and status in (OK, OVER):
        return NO_ASSESSOR
    return status


def worst_status(statuses: Sequence[str]) -> str:
    """The worst of several statuses (gap, no-assessor, thin, over, then ok); ok for none."""
    return min(statuses, key=STATUS_ORDER.index, default=OK)


def compute_coverage(
    competencies: Sequence[CompetencyReq],
    rounds: Sequence[RoundPlan],
    bench: Mapping[str, BenchEntry] | None = None,
    *,
    pool: Sequence[PoolMember] | None = None,
    hiring_team: str | None = None,
) -> Coverage:
    """Compute the competency x round matrix, statuses, round warnings and the ordered gaps and risks.

    :param competencies: the posting's competencies, in the order rows should appear.
    :param rounds: the plan's rounds, in loop order (the matrix columns).
    :param bench: bench depth per competency slug; None when unknown (no bench risks are raised then),
        a missing slug counts as nobody qualified.
    :param pool: the active interviewers' qualifications; when given, each round is checked for a
        panel that can hold all its competencies together (see :mod:`.staffing`), else not at all.
    :param hiring_team: the team key whose members are not "outside the hiring team" for seat rules.
    :raise ValidationFailed: when two competencies share a slug or two rounds share a key.
    """
    _reject_duplicates([item.slug for item in competencies], "competency")
    _reject_duplicates([item.key for item in rounds], "round key")
    known = {req.slug for req in competencies}
    rows: list[CompetencyCoverage] = []
    issues: list[tuple[int, Issue]] = []
    # Each round's focus by slug, read once: every competency looks every round up.
    focus = [{item.slug: item.focus for item in plan.competencies} for plan in rounds]
    for req in competencies:
        cells = tuple(held.get(req.slug) for held in focus)
        assessing = [plan for plan, cell in zip(rounds, cells, strict=True) if cell is not None]
        entry = _bench_entry(req.slug, bench)
        status = bench_status(coverage_status(len(assessing), req.required), entry)
        found = _competency_issues(req, status, assessing, entry)
        rows.append(_competency_row(req, status, assessing, cells, entry, found))
        group = 0 if req.is_must_have else 1
        issues.extend((group, issue) for issue in found)
    names = {req.slug: req.name for req in competencies}
    checks: list[RoundCheck] = []
    for plan in rounds:
        found = round_issues(plan, known)
        staffing = None
        if pool is not None:
            staffing = check_round(plan, pool, hiring_team)
            unstaffed = staffing_issue(plan, staffing, pool, names, hiring_team)
            found = [unstaffed, *found] if unstaffed else found
        issues.extend((2, issue) for issue in found)
        checks.append(_round_check(plan, found, staffing))
    # Stable sort: severity first, then must-haves, nice-to-haves, rounds; plan order within each.
    ordered = sorted(issues, key=lambda pair: (SEVERITY_ORDER.index(pair[1].severity), pair[0]))
    return Coverage(
        competencies=tuple(rows),
        rounds=tuple(checks),
        status=worst_status([row.status for row in rows]),
        issues=tuple(issue for _, issue in ordered),
    )


def _reject_duplicates(values: list[str], what: str) -> None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise ValidationFailed(f"The {what} '{value}' appears more than once.")
        seen.add(value)


def _bench_entry(slug: str, bench: Mapping[str, BenchEntry] | None) -> BenchEntry | None:
    if bench is None:
        return None
    return bench.get(slug) or BenchEntry(slug)


def _competency_issues(
    req: CompetencyReq, status: str, assessing: list[RoundPlan], entry: BenchEntry | None
) -> list[Issue]:
    found = [status_issue(req, status, assessing), focus_issue(req, assessing)]
    issues = [issue for issue in found if issue is not None]
    if entry is not None:
        issues.extend(bench_issues(req, assessing, entry))
    return issues


def _competency_row(
    req: CompetencyReq,
    status: str,
    assessing: list[RoundPlan],
    cells: tuple[str | None, ...],
    entry: BenchEntry | None,
    issues: list[Issue],
) -> CompetencyCoverage:
    return CompetencyCoverage(
        slug=req.slug,
        name=req.name,
        category=req.category,
        priority=req.priority,
        required=req.required,
        cells=cells,
        round_keys=tuple(plan.key for plan in assessing),
        round_names=tuple(plan.name for plan in assessing),
        primary_count=cells.count(PRIMARY),
        status=status,
        bench_qualified=entry.qualified if entry else None,
        bench_in_training=entry.in_training if entry else None,
        # The status already says gap/thin/over; risks are the other flags (bench, focus).
        risks=tuple(issue.code for issue in issues if issue.code != status),
    )


def _round_check(plan: RoundPlan, warnings: list[Issue], staffing: Staffing | None) -> RoundCheck:
    primaries = len(plan.primary_slugs)
    return RoundCheck(
        key=plan.key,
        name=plan.name,
        kind=plan.kind,
        minutes=plan.minutes,
        interviewers=plan.interviewers,
        primary_count=primaries,
        minutes_per_primary=plan.minutes / primaries if primaries else None,
        warnings=tuple(issue.message for issue in warnings),
        warning_codes=tuple(issue.code for issue in warnings),
        staffable=staffing.staffable if staffing else None,
        panelists=staffing.panelists if staffing else None,
    )
