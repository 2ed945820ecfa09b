"""Result types of the coverage engine: the matrix, per-competency and per-round findings, and issues."""

from __future__ import annotations

from dataclasses import asdict, dataclass

GAP = "gap"
#: Rounds assess it, but nobody in the pool is qualified to: no round can produce evidence yet.
NO_ASSESSOR = "no-assessor"
THIN = "thin"
OK = "ok"
OVER = "over"
#: Statuses from worst to best; the plan's overall status is the worst of its competencies.
STATUS_ORDER = (GAP, NO_ASSESSOR, THIN, OVER, OK)

CRITICAL = "critical"
WARNING = "warning"
NOTICE = "notice"
SEVERITY_ORDER = (CRITICAL, WARNING, NOTICE)


@dataclass(frozen=True)
class Issue:
    """One gap or risk in plain words, for the manager's dashboard.

    ``code`` is a stable machine name (``gap``, ``thin-bench``, ``short-round`` ...) for filtering and
    styling; ``message`` is the sentence to show.
    """

    severity: str
    code: str
    message: str
    competency: str | None = None
    round_key: str | None = None

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class CompetencyCoverage:
    """How a plan covers one competency.

    ``cells`` line up with ``Coverage.rounds``: None, "primary" or "secondary" per round.
    ``bench_qualified`` / ``bench_in_training`` are None when no bench was given.
    """

    slug: str
    name: str
    category: str
    priority: str
    required: int
    cells: tuple[str | None, ...]
    round_keys: tuple[str, ...]
    round_names: tuple[str, ...]
    primary_count: int
    status: str
    bench_qualified: int | None
    bench_in_training: int | None
    risks: tuple[str, ...]

    @property
    def count(self) -> int:
        """How many rounds assess this competency (as primary or secondary focus)."""
        return len(self.round_keys)


@dataclass(frozen=True)
class RoundCheck:
    """Per-round findings: time per primary competency and warnings as plain sentences.

    ``staffable`` says whether some panel of the active pool can hold every competency of the round
    together, and ``panelists`` how many people could sit in such a panel; both are None when the pool
    was not given.
    """

    key: str
    name: str
    kind: str
    minutes: int
    interviewers: int
    primary_count: int
    minutes_per_primary: float | None
    warnings: tuple[str, ...]
    warning_codes: tuple[str, ...]
    staffable: bool | None = None
    panelists: int | None = None


@dataclass(frozen=True)
class MatrixRow:
    """One competency row of the competency x round matrix."""

    slug: str
    name: str
    cells: tuple[str | None, ...]


@dataclass(frozen=True)
class Coverage:
    """The coverage of one plan against one posting's competencies."""

    competencies: tuple[CompetencyCoverage, ...]
    rounds: tuple[RoundCheck, ...]
    status: str
    issues: tuple[Issue, ...]

    @property
    def matrix(self) -> tuple[MatrixRow, ...]:
        """Competency x round matrix; each cell is None, "primary" or "secondary"."""
        return tuple(MatrixRow(item.slug, item.name, item.cells) for item in self.competencies)

    @property
    def gaps_and_risks(self) -> tuple[Issue, ...]:
        """Issues ordered by severity, must-haves before nice-to-haves before round-level warnings."""
        return self.issues

    @property
    def unstaffable_rounds(self) -> tuple[RoundCheck, ...]:
        """Rounds no panel of the active pool can staff (empty when the pool was not given)."""
        return tuple(item for item in self.rounds if item.staffable is False)

    @property
    def total_minutes(self) -> int:
        """The plan's total interview time."""
        return sum(item.minutes for item in self.rounds)

    def competency(self, slug: str) -> CompetencyCoverage:
        """The coverage of one competency by slug.

        :raise KeyError: when the posting does not list ``slug``.
        """
        for item in self.competencies:
            if item.slug == slug:
                return item
        raise KeyError(slug)

    def round(self, key: str) -> RoundCheck:
        """The findings of one round by key.

        :raise KeyError: when the plan has no round ``key``.
        """
        for item in self.rounds:
            if item.key == key:
                return item
        raise KeyError(key)

    def as_dict(self) -> dict:
        """A JSON-ready dict (for ``planner coverage --json`` and API responses)."""
        return {
            "status": self.status,
            "unstaffable_rounds": [item.key for item in self.unstaffable_rounds],
            "total_minutes": self.total_minutes,
            "rounds": [asdict(item) for item in self.rounds],
            "competencies": [dict(asdict(item), count=item.count) for item in self.competencies],
            "gaps_and_risks": [asdict(item) for item in self.issues],
        }
