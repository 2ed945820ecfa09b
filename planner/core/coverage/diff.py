"""What changed between two versions of a loop plan, as plain sentences for the manager.

Rounds are matched by their stable ``key``, so a renamed round is reported as renamed (not removed and
added), and a round that only moved is reported as moved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from planner.core.coverage.types import RoundPlan
from planner.core.coverage.wording import counted
from planner.core.errors import ValidationFailed


@dataclass(frozen=True)
class Change:
    """One difference between plan versions.

    ``kind`` is one of: added, removed, renamed, kind, duration, interviewers, competency-added,
    competency-removed, focus, questions, seat-rules, moved.
    """

    kind: str
    round_key: str
    message: str

    def __str__(self) -> str:
        return self.message


def diff_plans(
    old_rounds: Sequence[RoundPlan],
    new_rounds: Sequence[RoundPlan],
    *,
    names: Mapping[str, str] | None = None,
) -> list[Change]:
    """List the changes from ``old_rounds`` to ``new_rounds``; empty when the plans are the same.

    Removed rounds come first (old order), then, in new order, each round's additions and edits, then
    rounds whose position relative to the others changed.

    :param names: competency display names by slug; slugs are shown where a name is missing.
    :raise ValidationFailed: when a version repeats a round key, since rounds could not be matched.
    """
    for version, rounds in (("old", old_rounds), ("new", new_rounds)):
        keys = [item.key for item in rounds]
        if len(set(keys)) != len(keys):
            raise ValidationFailed(f"The {version} plan repeats a round key, so versions cannot be compared.")
    label = dict(names or {})
    old_by_key = {item.key: item for item in old_rounds}
    new_keys = {item.key for item in new_rounds}

    changes = [
        Change("removed", item.key, f"Round '{item.name}' removed")
        for item in old_rounds
        if item.key not in new_keys
    ]
    for item in new_rounds:
        before = old_by_key.get(item.key)
        if before is None:
            changes.append(Change("added", item.key, f"Round '{item.name}' added ({item.minutes} min)"))
        else:
            changes.extend(_round_changes(before, item, label))
    changes.extend(_moves(old_rounds, new_rounds))
    return changes


def _round_changes(old: RoundPlan, new: RoundPlan, label: dict[str, str]) -> list[Change]:
    changes: list[Change] = []

    def add(kind: str, message: str) -> None:
        changes.append(Change(kind, new.key, message))

    if old.name != new.name:
        add("renamed", f"Round '{old.name}' renamed to '{new.name}'")
    title = f"Round '{new.name}'"
    if old.kind != new.kind:
        add("kind", f"{title} kind {old.kind} -> {new.kind}")
    if old.minutes != new.minutes:
        add("duration", f"{title} duration {old.minutes} -> {new.minutes} min")
    if old.interviewers != new.interviewers:
        add("interviewers", f"{title} interviewers {old.interviewers} -> {new.interviewers}")
    for item in new.competencies:
        name = label.get(item.slug, item.slug)
        was = old.focus_of(item.slug)
        if was is None:
            add("competency-added", f"{name} added to '{new.name}' as {item.focus} focus")
        elif was != item.focus:
            add("focus", f"{name} moved from {was} to {item.focus} in '{new.name}'")
    for item in old.competencies:
        if new.focus_of(item.slug) is None:
            add("competency-removed", f"{label.get(item.slug, item.slug)} removed from '{new.name}'")
    added = [q for q in new.focus_questions if q not in old.focus_questions]
    dropped = [q for q in old.focus_questions if q not in new.focus_questions]
    if added or dropped:
        add("questions", f"{title} focus questions changed ({counted(len(added), 'added', 'added')}, "
                         f"{counted(len(dropped), 'removed', 'removed')})")
    if old.seat_rules.min_outside_team != new.seat_rules.min_outside_team:
        add("seat-rules", f"{title} interviewers from outside the team "
                          f"{old.seat_rules.min_outside_team} -> {new.seat_rules.min_outside_team}")
    if old.seat_rules.max_trainees != new.seat_rules.max_trainees:
        add("seat-rules", f"{title} trainee seats {old.seat_rules.max_trainees} -> "
                          f"{new.seat_rules.max_trainees}")
    return changes


def _moves(old_rounds: Sequence[RoundPlan], new_rounds: Sequence[RoundPlan]) -> list[Change]:
    """Rounds outside the longest common order of the kept rounds are the ones that moved.

    Comparing raw positions would call every round after an insertion "moved"; the longest common
    subsequence names only the rounds the editor actually dragged.
    """
    kept = {item.key for item in old_rounds} & {item.key for item in new_rounds}
    old_order = [item.key for item in old_rounds if item.key in kept]
    new_order = [item.key for item in new_rounds if item.key in kept]
    stayed = _longest_common_subsequence(old_order, new_order)
    old_position = {item.key: index + 1 for index, item in enumerate(old_rounds)}
    return [
        Change("moved", item.key,
               f"Round '{item.name}' moved from position {old_position[item.key]} to {index + 1}")
        for index, item in enumerate(new_rounds)
        if item.key in kept and item.key not in stayed
    ]


def _longest_common_subsequence(first: list[str], second: list[str]) -> set[str]:
    lengths = [[0] * (len(second) + 1) for _ in range(len(first) + 1)]
    for i in range(len(first) - 1, -1, -1):
        for j in range(len(second) - 1, -1, -1):
            lengths[i][j] = (lengths[i + 1][j + 1] + 1 if first[i] == second[j]
                             else max(lengths[i + 1][j], lengths[i][j + 1]))
    common: set[str] = set()
    i = j = 0
    while i < len(first) and j < len(second):
        if first[i] == second[j]:
            common.add(first[i])
            i, j = i + 1, j + 1
        elif lengths[i + 1][j] >= lengths[i][j + 1]:
            i += 1
        else:
            j += 1
    return common
