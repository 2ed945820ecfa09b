"""Word normalisation shared by posting text and library phrases.

Both sides go through the same functions, so a rule only has to map variants of one word to the
same key; it never has to produce a real English stem. That is why the rules can be blunt
("drop a final e", "ise -> ize"): a collision between two unrelated words is rare and harmless,
while a missed variant (``mentoring`` vs ``mentor``) would cost recall.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# Words joined by hyphens or slashes split into separate tokens ("pre-silicon" -> pre, silicon);
# "C++" and "C#" keep their symbols because they are different languages from "C".
_TOKEN_RE = re.compile(r"[^\W_]+[+#]*")
# Articles carry no meaning for matching and vary freely ("before a chip" / "before the chip").
_SKIPPED_WORDS = frozenset({"a", "an", "the"})
_IRREGULAR = {
    "built": "build",
    "led": "lead",
    "wrote": "writ",
    "written": "writ",
    "ran": "run",
    "grew": "grow",
    "grown": "grow",
    "taught": "teach",
    "thought": "think",
    "made": "mak",
    "children": "child",
    "people": "person",
    "analyses": "analysi",
    "data": "data",
}
_NO_UNDOUBLE = frozenset("lsz")
_ISE_RE = re.compile(r"is(e|es|ed|ing|ation|ations|er|ers)$")
_DOUBLE_L_RE = re.compile(r"(mode|labe|trave|cance|signa)ll(ing|ed|er)$")
_VOWELS = frozenset("aeiouy")


@dataclass(frozen=True, slots=True)
class Token:
    """One normalised word and where it sits in the text it came from."""

    key: str
    start: int
    end: int


@lru_cache(maxsize=65536)
def normalise_word(word: str) -> str:
    """Map a word to its matching key: case-folded, British spelling to American, light stemming."""
    word = word.casefold()
    if not word.isalpha():
        return word
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    word = americanise(word)
    word = _strip_inflection(word)
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def tokenise(text: str, offset: int = 0) -> list[Token]:
    """Split text into normalised tokens with character offsets (plus ``offset``), skipping articles."""
    tokens = []
    for match in _TOKEN_RE.finditer(text):
        key = normalise_word(match.group())
        if key in _SKIPPED_WORDS:
            continue
        tokens.append(Token(key, match.start() + offset, match.end() + offset))
    return tokens


def words(text: str, offset: int = 0) -> list[tuple[str, int, int]]:
    """The words of ``text`` as written, with their offsets (plus ``offset``); articles included."""
    return [(m.group(), m.start() + offset, m.end() + offset) for m in _TOKEN_RE.finditer(text)]


def phrase_keys(phrase: str) -> list[tuple[str, ...]]:
    """The token-key sequences a library phrase matches: as written, and with hyphens closed up.

    ``"pre-silicon"`` matches "pre-silicon", "pre silicon" and "presilicon"; the text side only
    ever splits on hyphens, so the closed-up spelling has to come from the phrase side.
    """
    variants = [tuple(t.key for t in tokenise(phrase))]
    if "-" in phrase:
        joined = re.sub(r"(?<=\w)-(?=\w)", "", phrase)
        variants.append(tuple(t.key for t in tokenise(joined)))
    return [v for v in dict.fromkeys(variants) if v]


def americanise(word: str) -> str:
    """Fold British spellings onto American ones (optimise, behaviour, organisation, modelling)."""
    if "our" in word and word.startswith(("behav", "colo", "favo", "hono", "labo")):
        word = word.replace("our", "or", 1)
    word = _ISE_RE.sub(r"iz\1", word)
    word = _DOUBLE_L_RE.sub(r"\1l\2", word)
    return word


def _strip_inflection(word: str) -> str:
    """Remove plural and verb endings: engineers, mentoring, owned, technologies, processes."""
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("ied") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            if len(stem) >= 3 and any(ch in _VOWELS for ch in stem):
                return _undouble(stem)
    return word


def _undouble(stem: str) -> str:
    """Undo consonant doubling before a suffix: planning -> plan, shipped -> ship (but not fall)."""
    if len(stem) >= 4 and stem[-1] == stem[-2] and stem[-1] not in _VOWELS | _NO_UNDOUBLE:
        return stem[:-1]
    return stem
