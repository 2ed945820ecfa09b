"""The competency library: parse and validate the TOML file that defines every competency.

The library ships as ``planner/data/competencies.toml``. Each ``[[competency]]`` table holds a
slug, name, category, description, a two-part rubric and the phrases that signal it. Phrase
syntax (kept inside one list so it survives a round trip through the database's JSON column):

- ``"code generation"`` -- a strong phrase: on its own it can justify the competency;
- ``"~design"`` -- a supporting phrase: it adds to the score but never justifies on its own;
- ``"feedback ... hardware"`` -- both parts in order, at most a few words apart.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources

from planner.core.errors import ValidationFailed

CATEGORIES = ("technical", "behavioural", "leadership")
SUPPORTING_MARK = "~"
GAP_MARK = "..."

_SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_REQUIRED_TEXT_FIELDS = ("slug", "name", "category", "description", "rubric_strong", "rubric_weak")


class LibraryInvalid(ValidationFailed):
    """The competency library file is malformed; the message names the entry and the field."""


@dataclass(frozen=True, slots=True)
class CompetencyDef:
    """One competency of the library, as coordinators edit it in the TOML file."""

    slug: str
    name: str
    category: str
    description: str
    rubric_strong: str
    rubric_weak: str
    phrases: tuple[str, ...]

    @property
    def strong_phrases(self) -> tuple[str, ...]:
        """Phrases that can justify the competency on their own."""
        return tuple(p for p in self.phrases if not p.startswith(SUPPORTING_MARK))

    @property
    def supporting_phrases(self) -> tuple[str, ...]:
        """Phrases that only add weight to other evidence (written with a leading ``~``)."""
        return tuple(p[1:].strip() for p in self.phrases if p.startswith(SUPPORTING_MARK))


def load_library(text: str) -> list[CompetencyDef]:
    """Parse the library TOML text into competency definitions, in file order.

    :param text: the content of a competencies TOML file.
    :raise LibraryInvalid: the TOML is malformed, a field is missing or empty, a category is unknown,
        a slug is malformed or repeated, or an entry has no strong phrase.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LibraryInvalid(f"The competency library is not valid TOML: {exc}.") from exc
    entries = data.get("competency")
    if not isinstance(entries, list) or not entries:
        raise LibraryInvalid("The competency library has no [[competency]] entries.")
    library: list[CompetencyDef] = []
    seen: set[str] = set()
    for position, entry in enumerate(entries, start=1):
        definition = _parse_entry(entry, position)
        if definition.slug in seen:
            raise LibraryInvalid(f"The competency slug {definition.slug!r} appears more than once.")
        seen.add(definition.slug)
        library.append(definition)
    return library


def default_library() -> list[CompetencyDef]:
    """Load the library shipped with the package (``planner/data/competencies.toml``)."""
    text = resources.files("planner").joinpath("data", "competencies.toml").read_text(encoding="utf-8")
    return load_library(text)


def _parse_entry(entry: object, position: int) -> CompetencyDef:
    """Validate one ``[[competency]]`` table; ``position`` names it in error messages."""
    if not isinstance(entry, dict):
        raise LibraryInvalid(f"Competency entry {position} is not a table.")
    label = f"Competency entry {position} ({entry.get('slug', 'no slug')!s})"
    fields: dict[str, str] = {}
    for name in _REQUIRED_TEXT_FIELDS:
        value = entry.get(name)
        if not isinstance(value, str) or not value.strip():
            raise LibraryInvalid(f"{label} needs a non-empty text field {name!r}.")
        fields[name] = " ".join(value.split())
    if not _SLUG_RE.match(fields["slug"]):
        raise LibraryInvalid(f"{label} has slug {fields['slug']!r}; use lowercase words joined by hyphens.")
    if fields["category"] not in CATEGORIES:
        raise LibraryInvalid(
            f"{label} has category {fields['category']!r}; use one of {', '.join(CATEGORIES)}."
        )
    phrases = entry.get("phrases")
    if not isinstance(phrases, list) or not all(isinstance(p, str) and p.strip() for p in phrases):
        raise LibraryInvalid(f"{label} needs 'phrases', a list of non-empty strings.")
    cleaned = tuple(dict.fromkeys(" ".join(p.split()) for p in phrases))
    for phrase in cleaned:
        _check_phrase(phrase, label)
    if all(p.startswith(SUPPORTING_MARK) for p in cleaned):
        raise LibraryInvalid(f"{label} has only supporting (~) phrases; add at least one strong phrase.")
    return CompetencyDef(phrases=cleaned, **fields)


def _check_phrase(phrase: str, label: str) -> None:
    """Reject phrases the matcher could never match, so a typo fails loudly instead of silently."""
    body = phrase.removeprefix(SUPPORTING_MARK).strip()
    parts = [part.strip() for part in body.split(GAP_MARK)]
    if not all(re.search(r"\w", part) for part in parts):
        raise LibraryInvalid(f"{label} has phrase {phrase!r} with an empty part; write words on both sides.")
