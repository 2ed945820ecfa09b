"""The competency library file and its loader."""

from dataclasses import FrozenInstanceError

import pytest

from planner.core.errors import ValidationFailed
from planner.core.library import CATEGORIES, CompetencyDef, default_library, load_library

REQUIRED_SLUGS = {"compiler-design", "customer-ownership", "pre-silicon-feedback", "mentoring"}

VALID_ENTRY = """
[[competency]]
slug = "{slug}"
name = "Thing"
category = "{category}"
description = "What it is."
rubric_strong = "Good evidence."
rubric_weak = "Poor evidence."
phrases = {phrases}
"""


def entry(slug="thing", category="technical", phrases='["thing", "~stuff"]'):
    """One library entry as TOML text."""
    return VALID_ENTRY.format(slug=slug, category=category, phrases=phrases)


def test_default_library_has_forty_or_more_competencies_in_every_category():
    """The shipped library holds 40+ competencies spread over technical, behavioural and leadership."""
    library = default_library()
    assert len(library) >= 40
    counts = {category: sum(c.category == category for c in library) for category in CATEGORIES}
    assert all(count >= 5 for count in counts.values()), counts


def test_default_library_includes_the_example_postings_competencies():
    """Compiler design, customer ownership, pre-silicon feedback and mentoring are in the library."""
    slugs = {c.slug for c in default_library()}
    assert REQUIRED_SLUGS <= slugs


def test_default_library_entries_are_complete_and_unique():
    """Every shipped entry has all text fields, a unique slug and at least one strong phrase."""
    library = default_library()
    assert len({c.slug for c in library}) == len(library)
    for competency in library:
        assert competency.name and competency.description
        assert competency.rubric_strong and competency.rubric_weak
        assert competency.strong_phrases, competency.slug


def test_competency_defs_are_frozen():
    """Library entries are immutable domain values."""
    competency = default_library()[0]
    with pytest.raises(FrozenInstanceError):
        competency.slug = "other"  # type: ignore[misc]


def test_load_library_splits_strong_and_supporting_phrases():
    """A leading ~ marks a supporting phrase; the mark is removed from the supporting list."""
    [competency] = load_library(entry())
    assert isinstance(competency, CompetencyDef)
    assert competency.strong_phrases == ("thing",)
    assert competency.supporting_phrases == ("stuff",)
    assert competency.phrases == ("thing", "~stuff")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[[competency]\nslug=", "not valid TOML"),
        ("title = 'no entries'", "no [[competency]] entries"),
        (entry().replace('name = "Thing"\n', ""), "'name'"),
        (entry(category="social"), "category 'social'"),
        (entry(slug="Bad Slug"), "slug 'Bad Slug'"),
        (entry() + entry(), "more than once"),
        (entry(phrases='["~only", "~weak"]'), "only supporting"),
        (entry(phrases='["thing", 3]'), "list of non-empty strings"),
        (entry(phrases='["feedback ... "]'), "empty part"),
    ],
)
def test_load_library_rejects_bad_files_with_a_clear_sentence(text, fragment):
    """Malformed library text raises a ValidationFailed naming the problem."""
    with pytest.raises(ValidationFailed, match=None) as caught:
        load_library(text)
    message = str(caught.value)
    assert fragment in message
    assert message.endswith(".")
