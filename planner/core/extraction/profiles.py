"""Match a sentence against what each competency is about, not only against its exact phrases.

A posting often describes a competency in its own words ("tell the architects designing our next
processor what would make it easier to program") rather than with one of the library's phrases
("pre-silicon", "programmability feedback"). Each competency therefore gets a *profile*: the word
stems of its name, its description and its phrases. A sentence is close to a competency when it
shares several of those stems, and the rarer a stem is across the library, the more it counts (the
inverse document frequency over the profiles: "architect" is said by few entries, "team" by many).

Everything is explainable: a match lists the words it rests on, and the page highlights them. Stems
come from the Snowball (Porter 2) English stemmer, after British spellings are folded to American
ones, so "programming", "programmability" and "program" meet on one stem.
"""

from __future__ import annotations

import math
import threading
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import snowballstemmer

from planner.core.extraction.normalise import americanise, words
from planner.core.library import GAP_MARK, SUPPORTING_MARK, CompetencyDef

#: Weight of a stem that comes only from supporting (~) phrases: common words, weak on their own.
SUPPORTING_WEIGHT = 0.5
#: A stem said by at most this many profiles is *distinctive*; a match needs at least one.
DISTINCTIVE_DF = 4

# Function words and words every posting uses; they say nothing about which competency is meant.
_STOPWORDS = frozenset(
    """
    a about above across after again against all almost also always am among an and any are around
    as at be because been before being below between both but by can could did do does doing done
    down during each either else enough etc even ever every few for from further get gets getting
    give go had has have having he her here hers him his how however i if in into is it its itself
    just least less let like made make makes making many may me might more most much must my near
    need needs new no nor not now of off often on once one only or other others our ours out over
    own per rather really same several she should since so some such than that the their theirs
    them then there these they this those though through to too toward towards under until up upon
    us use used uses using very via want was way ways we well were what when where whether which
    while who whom whose why will with within without would yet you your yours yourself
    role team teams work works working job company year years experience strong good great able
    ability help helps day days plus new across including include includes etc
    """.split()
)


@dataclass(frozen=True, slots=True)
class ProfileMatch:
    """How close one sentence is to one competency's profile, and the words that make it so.

    ``weight`` adds up, over the shared stems, each stem's rarity (IDF) times its weight in the
    profile; ``stems`` are the shared stems, ``spans`` where the sentence says them (text offsets).
    """

    slug: str
    weight: float
    stems: tuple[str, ...]
    distinctive: int
    #: How many shared stems come from the competency's name or the head of its description.
    core: int = 0
    #: Where the sentence says each of its stems (shared by every match of one sentence).
    located: Mapping[str, list[tuple[int, int]]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        """Where the sentence says the shared stems, in text order (worked out only when asked)."""
        return tuple(sorted(span for stem in self.stems for span in self.located.get(stem, ())))


@dataclass(frozen=True, slots=True)
class _Posting:
    slug: str
    weight: float
    core: bool


class ProfileIndex:
    """The profiles of a library, indexed by stem, with each stem's rarity across the library."""

    def __init__(self, library: Sequence[CompetencyDef]) -> None:
        profiles = {c.slug: _profile(c) for c in library}
        frequency: dict[str, int] = defaultdict(int)
        for profile in profiles.values():
            for stem in profile:
                frequency[stem] += 1
        total = max(len(profiles), 1)
        self._frequency = dict(frequency)
        self._rarity = {stem: math.log((total + 1) / (df + 0.5)) for stem, df in frequency.items()}
        self._by_stem: dict[str, list[_Posting]] = defaultdict(list)
        self._core = {c.slug: _core_stems(c) for c in library}
        for competency in library:
            core = self._core[competency.slug]
            for stem, weight in sorted(profiles[competency.slug].items()):
                self._by_stem[stem].append(_Posting(competency.slug, weight, stem in core))

    def core(self, slug: str) -> frozenset[str]:
        """The stems of what a competency is: its name and the head of its description."""
        return self._core.get(slug, frozenset())

    def rarity(self, stem: str) -> float:
        """How much a shared stem counts: high for stems few profiles use."""
        return self._rarity.get(stem, 0.0)

    def matches(self, text: str, offset: int = 0) -> dict[str, ProfileMatch]:
        """Every competency whose profile shares a stem with ``text``, keyed by slug."""
        spans_of: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for word, start, end in words(text, offset):
            stem = concept_stem(word)
            if stem and stem in self._by_stem:
                spans_of[stem].append((start, end))
        weights: dict[str, float] = defaultdict(float)
        stems_of: dict[str, list[str]] = defaultdict(list)
        core: dict[str, int] = defaultdict(int)
        for stem in sorted(spans_of):
            for posting in self._by_stem[stem]:
                weights[posting.slug] += self._rarity[stem] * posting.weight
                stems_of[posting.slug].append(stem)
                core[posting.slug] += posting.core
        result = {}
        for slug, weight in weights.items():
            stems = tuple(stems_of[slug])
            distinctive = sum(1 for stem in stems if self._frequency[stem] <= DISTINCTIVE_DF)
            result[slug] = ProfileMatch(slug, round(weight, 4), stems, distinctive, core[slug], spans_of)
        return result


def _profile(competency: CompetencyDef) -> dict[str, float]:
    """The stems of a competency's name, description and phrases, each with its weight."""
    profile: dict[str, float] = {}
    strong_text = " ".join(
        [competency.name, competency.description, *(p.replace(GAP_MARK, " ") for p in competency.strong_phrases)]
    )
    for stem in _stems(strong_text):
        profile[stem] = 1.0
    for phrase in competency.phrases:
        if phrase.startswith(SUPPORTING_MARK):
            for stem in _stems(phrase[1:].replace(GAP_MARK, " ")):
                profile.setdefault(stem, SUPPORTING_WEIGHT)
    return profile


def _core_stems(competency: CompetencyDef) -> frozenset[str]:
    """The stems of what a competency *is*: its name and the head of its description.

    Descriptions are written "What it is: what it involves", so the head is the text before the
    first colon (the first sentence when there is none).
    """
    head = competency.description.split(":", 1)[0].split(". ", 1)[0]
    return frozenset(_stems(f"{competency.name} {head}"))


def phrase_stems(phrase: str) -> frozenset[str]:
    """The stems of a library phrase (gaps and the supporting mark ignored)."""
    return frozenset(_stems(phrase.removeprefix(SUPPORTING_MARK).replace(GAP_MARK, " ")))


def _stems(text: str) -> list[str]:
    return [stem for word, _start, _end in words(text) if (stem := concept_stem(word))]


_STEMMER = snowballstemmer.stemmer("english")
# A Snowball stemmer object keeps state between calls; the web server may extract on several threads.
_STEMMER_LOCK = threading.Lock()


@lru_cache(maxsize=65536)
def concept_stem(word: str) -> str:
    """The stem a word is compared on, or "" for a word that carries no meaning here.

    Case-folded, British spelling made American, Snowball-stemmed, and a doubled final consonant
    undone ("programm" -> "program"), so "programmability" and "programming" meet on "program".
    """
    word = word.casefold()
    if len(word) < 3 or word in _STOPWORDS or not word.isalpha():
        return ""
    with _STEMMER_LOCK:
        stem = _STEMMER.stemWord(americanise(word))
    if len(stem) > 4 and stem[-1] == stem[-2] and stem[-1] not in "aeiouls":
        stem = stem[:-1]
    return "" if stem in _STOPWORDS else stem
