"""Value types of the coverage engine: what a posting asks for, what a plan offers, who can assess.

Everything here is a frozen dataclass that checks itself on construction, so the engine, the
suggester and the diff can trust their input and report problems in plain words instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from planner.core.errors import ValidationFailed

CATEGORIES = ("technical", "behavioural", "leadership")
MUST_HAVE = "must-have"
NICE_TO_HAVE = "nice-to-have"
PRIORITIES = (MUST_HAVE, NICE_TO_HAVE)
ROUND_KINDS = ("screen", "technical", "design", "behavioural", "bar-raiser", "hiring-manager")
PRIMARY = "primary"
SECONDARY = "secondary"
FOCUSES = (PRIMARY, SECONDARY)
#: Training levels of an interviewer's qualification; only the last one counts as an assessor.
TRAINING_LEVELS = ("shadow", "reverse-shadow", "qualified")
QUALIFIED = "qualified"

#: Default required coverage (number of distinct rounds) per priority, from the design.
DEFAULT_REQUIRED = {MUST_HAVE: 2, NICE_TO_HAVE: 1}


def _require(condition: bool, sentence: str) -> None:
    if not condition:
        raise ValidationFailed(sentence)


@dataclass(frozen=True)
class CompetencyReq:
    """A competency the posting asks for, with how many rounds must assess it.

    ``required`` left as ``None`` takes the default for the priority (2 must-have, 1 nice-to-have).
    """

    slug: str
    name: str
    category: str
    priority: str = MUST_HAVE
    required: int | None = None

    def __post_init__(self) -> None:
        _require(bool(self.slug.strip()), "A competency needs a slug.")
        _require(bool(self.name.strip()), f"Competency '{self.slug}' needs a name.")
        _require(self.category in CATEGORIES,
                 f"Competency '{self.slug}' has category '{self.category}'; "
                 f"use one of {', '.join(CATEGORIES)}.")
        _require(self.priority in PRIORITIES,
                 f"Competency '{self.slug}' has priority '{self.priority}'; "
                 f"use one of {', '.join(PRIORITIES)}.")
        if self.required is None:
            # Frozen, so the resolved default is written once here rather than computed on every read.
            object.__setattr__(self, "required", DEFAULT_REQUIRED[self.priority])
        _require(isinstance(self.required, int) and self.required >= 1,
                 f"Competency '{self.slug}' must require at least one round.")

    @property
    def is_must_have(self) -> bool:
        """True for a must-have competency."""
        return self.priority == MUST_HAVE


@dataclass(frozen=True)
class RoundCompetency:
    """One competency a round assesses, as its primary or secondary focus."""

    slug: str
    focus: str = PRIMARY

    def __post_init__(self) -> None:
        _require(bool(self.slug.strip()), "A round competency needs a slug.")
        _require(self.focus in FOCUSES,
                 f"Focus '{self.focus}' on '{self.slug}' is not one of {', '.join(FOCUSES)}.")


@dataclass(frozen=True)
class SeatRules:
    """Who may sit in a round: assessors from outside the hiring team, and trainee seats allowed."""

    min_outside_team: int = 0
    max_trainees: int = 1

    def __post_init__(self) -> None:
        _require(self.min_outside_team >= 0, "Interviewers from outside the team cannot be negative.")
        _require(self.max_trainees >= 0, "Trainee seats cannot be negative.")


@dataclass(frozen=True)
class RoundPlan:
    """One round of a loop plan. ``key`` is stable across plan versions; ``name`` may change."""

    key: str
    name: str
    kind: str
    minutes: int
    interviewers: int = 1
    competencies: tuple[RoundCompetency, ...] = ()
    focus_questions: tuple[str, ...] = ()
    seat_rules: SeatRules = field(default_factory=SeatRules)

    def __post_init__(self) -> None:
        # Lists are accepted for convenience but stored as tuples so the plan stays immutable.
        object.__setattr__(self, "competencies", tuple(self.competencies))
        object.__setattr__(self, "focus_questions", tuple(self.focus_questions))
        label = self.name or self.key
        _require(bool(self.key.strip()), "A round needs a key.")
        _require(bool(self.name.strip()), f"Round '{self.key}' needs a name.")
        _require(self.kind in ROUND_KINDS,
                 f"Round '{label}' has kind '{self.kind}'; use one of {', '.join(ROUND_KINDS)}.")
        _require(isinstance(self.minutes, int) and self.minutes > 0,
                 f"Round '{label}' needs a positive duration in minutes.")
        _require(isinstance(self.interviewers, int) and self.interviewers >= 1,
                 f"Round '{label}' needs at least one interviewer.")
        slugs = [item.slug for item in self.competencies]
        duplicates = sorted({slug for slug in slugs if slugs.count(slug) > 1})
        _require(not duplicates, f"Round '{label}' lists {', '.join(duplicates)} more than once.")

    @property
    def primary_slugs(self) -> tuple[str, ...]:
        """Slugs assessed as the primary focus, in plan order."""
        return tuple(item.slug for item in self.competencies if item.focus == PRIMARY)

    def focus_of(self, slug: str) -> str | None:
        """The focus this round gives to ``slug``, or None when it does not assess it."""
        for item in self.competencies:
            if item.slug == slug:
                return item.focus
        return None


@dataclass(frozen=True)
class BenchEntry:
    """How many active interviewers are qualified in a competency, and how many are training in it."""

    slug: str
    qualified: int = 0
    in_training: int = 0


Bench = Mapping[str, BenchEntry]


def build_bench(skill_sets: Iterable[Mapping[str, str]]) -> dict[str, BenchEntry]:
    """Count bench depth per competency from interviewers' qualifications.

    :param skill_sets: one mapping slug -> training level per *active* interviewer (the caller leaves
        inactive people out, because they cannot be booked).
    :raise ValidationFailed: for a level other than shadow, reverse-shadow or qualified.
    """
    qualified: dict[str, int] = {}
    training: dict[str, int] = {}
    for skills in skill_sets:
        for slug, level in skills.items():
            _require(level in TRAINING_LEVELS,
                     f"Level '{level}' for '{slug}' is not one of {', '.join(TRAINING_LEVELS)}.")
            counter = qualified if level == QUALIFIED else training
            counter[slug] = counter.get(slug, 0) + 1
    return {
        slug: BenchEntry(slug, qualified.get(slug, 0), training.get(slug, 0))
        for slug in sorted(qualified.keys() | training.keys())
    }
