"""Panels that cover a round's competencies: shared by coverage (can anyone staff it?) and the scheduler's
explanations (how many people would it take?).

People are grouped by which of the round's competencies they hold (a bitmask) and whether they are outside
the hiring team, so a pool of hundreds is at most 2^k * 2 groups for k competencies, and a search over
(competencies held, seats taken, outsiders) states is exact and small.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

#: (competencies held as a bitmask over the round's list, outside the hiring team) -> people.
Groups = Counter[tuple[int, bool]]


def skill_groups(required: Sequence[str], people: Iterable[tuple[Iterable[str], bool]]) -> Groups:
    """People given as (competencies they are qualified in, outside the hiring team), counted by the bitmask
    of ``required`` they hold; people holding none of them are left out."""
    bits = {slug: 1 << index for index, slug in enumerate(required)}
    groups: Groups = Counter()
    for qualified, outside in people:
        mask = 0
        for slug in qualified:
            mask |= bits.get(slug, 0)
        if mask:
            groups[(mask, outside)] += 1
    return groups


def full_mask(required: Sequence[str]) -> int:
    return (1 << len(required)) - 1


def panel_exists(groups: Mapping[tuple[int, bool], int], full: int, seats: int, outside: int,
                 start: tuple[int, int, int] = (0, 0, 0)) -> bool:
    """Whether ``seats`` people from ``groups`` together hold ``full`` with ``outside`` outsiders.

    States are (mask held, seats taken, outsiders capped at ``outside``); each group adds 0..count people.
    """
    states = {start}
    for (mask, is_out), count in groups.items():
        grown = set(states)
        for held, taken, outs in states:
            for extra in range(1, min(count, seats - taken) + 1):
                grown.add((held | mask, taken + extra, min(outside, outs + (extra if is_out else 0))))
        states = grown
    return (full, seats, outside) in states


def fewest_covering(groups: Mapping[tuple[int, bool], int], full: int) -> int | None:
    """The fewest people of ``groups`` who together hold ``full`` (None: nobody can)."""
    most = min(sum(groups.values()), full.bit_count())
    return next((seats for seats in range(1, most + 1) if panel_exists(groups, full, seats, 0)), None)
