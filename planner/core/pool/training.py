"""Training levels per competency and progress towards the next level.

shadow -> reverse-shadow -> qualified. Only "qualified" counts as an assessor; the other two ride
along as trainee seats. Progress is measured in completed interviews at the current level, counted
by the service from interview records; the thresholds are a policy so a team can change them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from planner.core.errors import ValidationFailed


class TrainingLevel(StrEnum):
    """The training ladder, in order."""

    SHADOW = "shadow"
    REVERSE_SHADOW = "reverse-shadow"
    QUALIFIED = "qualified"


LADDER: tuple[TrainingLevel, ...] = tuple(TrainingLevel)


class UnknownTrainingLevel(ValidationFailed):
    """A training level name that is not on the ladder."""


class NotReadyForPromotion(ValidationFailed):
    """A promotion asked for before the policy's interviews are done."""


class InvalidTrainingPolicy(ValidationFailed):
    """Thresholds that are not whole numbers >= 0."""


def parse_level(text: str | TrainingLevel) -> TrainingLevel:
    """The TrainingLevel named ``text`` ("shadow", "reverse-shadow", "qualified")."""
    try:
        return TrainingLevel(text)
    except ValueError:
        raise UnknownTrainingLevel(
            f"'{text}' is not a training level; use shadow, reverse-shadow or qualified."
        ) from None


def next_level(level: str | TrainingLevel) -> TrainingLevel | None:
    """The level after ``level``, or None for qualified (the top)."""
    index = LADDER.index(parse_level(level))
    return LADDER[index + 1] if index + 1 < len(LADDER) else None


def counts_as_assessor(level: str | TrainingLevel) -> bool:
    """Only qualified interviewers assess; shadow and reverse-shadow are trainee seats."""
    return parse_level(level) is TrainingLevel.QUALIFIED


@dataclass(frozen=True)
class TrainingPolicy:
    """Completed interviews needed at each trainee level before moving up."""

    shadows_for_reverse_shadow: int = 2
    reverse_shadows_for_qualified: int = 1

    def __post_init__(self) -> None:
        for value in (self.shadows_for_reverse_shadow, self.reverse_shadows_for_qualified):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidTrainingPolicy(
                    f"Training thresholds must be whole numbers of interviews, 0 or more (got {value!r})."
                )

    def needed_at(self, level: TrainingLevel) -> int:
        """Completed interviews needed at ``level`` to be ready for the next one (0 at the top)."""
        return {
            TrainingLevel.SHADOW: self.shadows_for_reverse_shadow,
            TrainingLevel.REVERSE_SHADOW: self.reverse_shadows_for_qualified,
            TrainingLevel.QUALIFIED: 0,
        }[level]


DEFAULT_POLICY = TrainingPolicy()

_NOUN = {TrainingLevel.SHADOW: "shadow interview", TrainingLevel.REVERSE_SHADOW: "reverse-shadow interview"}


@dataclass(frozen=True)
class Progress:
    """Where an interviewer stands on one competency's ladder."""

    level: TrainingLevel
    next_level: TrainingLevel | None
    done: int
    needed: int
    ready: bool
    sentence: str


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def training_progress(
    level: str | TrainingLevel,
    completed_shadow: int,
    completed_reverse: int,
    policy: TrainingPolicy = DEFAULT_POLICY,
) -> Progress:
    """Progress at ``level`` from completed shadow and reverse-shadow interviews under ``policy``.

    Only the interviews of the current level count: shadows do not advance a reverse-shadow.
    """
    current = parse_level(level)
    if min(completed_shadow, completed_reverse) < 0:
        raise ValidationFailed("Completed interview counts cannot be negative.")
    upcoming = next_level(current)
    if upcoming is None:
        return Progress(current, None, 0, 0, False, "Qualified: counts as an assessor.")
    done = completed_shadow if current is TrainingLevel.SHADOW else completed_reverse
    needed = policy.needed_at(current)
    ready = done >= needed
    if ready:
        sentence = f"Ready to move up to {upcoming}: {_plural(done, _NOUN[current])} completed."
    else:
        sentence = (
            f"{done} of {_plural(needed, _NOUN[current])} completed; {needed - done} more before {upcoming}."
        )
    return Progress(current, upcoming, done, needed, ready, sentence)


def promote(
    level: str | TrainingLevel,
    completed_shadow: int,
    completed_reverse: int,
    policy: TrainingPolicy = DEFAULT_POLICY,
) -> TrainingLevel:
    """The next level when the interviewer is ready; raises NotReadyForPromotion otherwise."""
    progress = training_progress(level, completed_shadow, completed_reverse, policy)
    if progress.next_level is None:
        raise NotReadyForPromotion("Already qualified; there is no higher level.")
    if not progress.ready:
        raise NotReadyForPromotion(f"Not ready for {progress.next_level} yet: {progress.sentence}")
    return progress.next_level
