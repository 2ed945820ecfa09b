"""The sentences of gaps and risks: per competency and per round.

Each function returns :class:`Issue` objects; the engine decides the order they are shown in.
"""

from __future__ import annotations

from collections.abc import Sequence

from planner.core.coverage.report import CRITICAL, GAP, NOTICE, OVER, THIN, WARNING, Issue
from planner.core.coverage.types import BenchEntry, CompetencyReq, RoundPlan
from planner.core.coverage.wording import counted, minutes_text, number_word

#: Less time than this per primary competency cannot produce real evidence (issue 4).
MIN_MINUTES_PER_PRIMARY = 15
#: More primary competencies than this turns a round into a checklist.
MAX_PRIMARY_PER_ROUND = 3


def _required_clause(required: int) -> str:
    return f"{number_word(required)} {'is' if required == 1 else 'are'} required"


def _quoted_names(rounds: Sequence[RoundPlan]) -> str:
    return ", ".join(f"'{item.name}'" for item in rounds)


def status_issue(req: CompetencyReq, status: str, assessing: Sequence[RoundPlan]) -> Issue | None:
    """The sentence for a gap, thin or over status; None when the status is ok."""
    # A must-have short of coverage blocks scheduling, so it is critical; a nice-to-have only warns.
    shortfall_severity = CRITICAL if req.is_must_have else WARNING
    count = len(assessing)
    if status == GAP:
        message = f"{req.name} is not assessed by any round; {_required_clause(req.required)}."
        return Issue(shortfall_severity, GAP, message, competency=req.slug)
    if status == THIN:
        message = (f"{req.name} is assessed by {counted(count, 'round')} ({_quoted_names(assessing)}); "
                   f"{_required_clause(req.required)}.")
        return Issue(shortfall_severity, THIN, message, competency=req.slug)
    if status == OVER:
        spare = count - req.required
        message = (f"{req.name} is assessed by {counted(count, 'round')}; {_required_clause(req.required)}, "
                   f"so {number_word(spare)} could assess other competencies instead.")
        return Issue(NOTICE, OVER, message, competency=req.slug)
    return None


def bench_issues(req: CompetencyReq, assessing: Sequence[RoundPlan], bench: BenchEntry) -> list[Issue]:
    """Risks from bench depth: nobody qualified, fewer qualified people than rounds, or no spare.

    Nobody may sit twice in one loop and each round needs one qualified assessor per competency, so a
    loop needs as many distinct qualified people as rounds assessing the competency.
    """
    severity = CRITICAL if req.is_must_have else WARNING
    needed = len(assessing)
    training = f" ({counted(bench.in_training, 'interviewer')} in training)" if bench.in_training else ""
    if bench.qualified == 0:
        message = f"No interviewer is qualified in {req.name}{training}, so no round can assess it yet."
        return [Issue(severity, "no-bench", message, competency=req.slug)]
    if bench.qualified < needed:
        message = (f"Only {counted(bench.qualified, 'interviewer')} {_is_are(bench.qualified)} qualified in "
                   f"{req.name}{training}; its {counted(needed, 'round')} need {number_word(needed)} "
                   f"different people.")
        return [Issue(severity, "thin-bench", message, competency=req.slug)]
    if bench.qualified == needed:
        message = (f"Only {counted(bench.qualified, 'interviewer')} {_is_are(bench.qualified)} qualified in "
                   f"{req.name}{training}, no more than its rounds need; a decline leaves no substitute.")
        return [Issue(NOTICE, "shallow-bench", message, competency=req.slug)]
    return []


def _is_are(count: int) -> str:
    return "is" if count == 1 else "are"


def focus_issue(req: CompetencyReq, assessing: Sequence[RoundPlan]) -> Issue | None:
    """Warn when every round assessing the competency gives it only secondary focus."""
    if not assessing or any(item.focus_of(req.slug) == "primary" for item in assessing):
        return None
    message = (f"{req.name} is only a secondary focus ({_quoted_names(assessing)}); "
               f"make it primary in at least one round.")
    return Issue(WARNING, "secondary-only", message, competency=req.slug)


def round_issues(plan: RoundPlan, known_slugs: set[str]) -> list[Issue]:
    """Warnings about one round: empty, unknown competencies, too many primaries, too little time."""
    issues: list[Issue] = []

    def add(severity: str, code: str, message: str) -> None:
        issues.append(Issue(severity, code, message, round_key=plan.key))

    label = f"Round '{plan.name}'"
    if not plan.competencies:
        add(WARNING, "empty-round", f"{label} assesses no competency.")
    for item in plan.competencies:
        if item.slug not in known_slugs:
            add(WARNING, "unknown-competency",
                f"{label} assesses '{item.slug}', which is not one of the posting's competencies.")
    primaries = len(plan.primary_slugs)
    if primaries > MAX_PRIMARY_PER_ROUND:
        add(WARNING, "overloaded-round",
            f"{label} has {counted(primaries, 'primary competency', 'primary competencies')}; "
            f"keep it to {number_word(MAX_PRIMARY_PER_ROUND)} or fewer.")
    if primaries and plan.minutes / primaries < MIN_MINUTES_PER_PRIMARY:
        share = minutes_text(plan.minutes / primaries)
        target = ("its primary competency" if primaries == 1
                  else f"each of its {counted(primaries, 'primary competency', 'primary competencies')}")
        add(WARNING, "short-round",
            f"{label} gives {share} minutes to {target}; allow at least {MIN_MINUTES_PER_PRIMARY}.")
    if plan.competencies and not primaries:
        add(NOTICE, "no-primary", f"{label} has no primary competency, so interviewers lack a main focus.")
    outside = plan.seat_rules.min_outside_team
    if outside > plan.interviewers:
        add(WARNING, "seat-rules",
            f"{label} asks for {counted(outside, 'interviewer')} from outside the team "
            f"but has {counted(plan.interviewers, 'seat')}.")
    return issues
