"""Word normalisation: case, plurals, verb forms, spelling and hyphens map to one key."""

import pytest

from planner.core.extraction.normalise import normalise_word, phrase_keys, tokenise


@pytest.mark.parametrize(
    "variants",
    [
        ("mentor", "mentors", "mentoring", "mentored", "Mentoring"),
        ("compiler", "compilers", "Compilers"),
        ("optimise", "optimize", "optimising", "optimizing", "optimized"),
        ("technology", "technologies"),
        ("plan", "planning", "planned"),
        ("scale", "scaling", "scaled", "scales"),
        ("behaviour", "behavior"),
        ("build", "building", "built", "builds"),
        ("process", "processes"),
    ],
)
def test_word_variants_share_one_key(variants):
    """Inflected and differently spelled forms of a word normalise to the same key."""
    keys = {normalise_word(word) for word in variants}
    assert len(keys) == 1, keys


def test_different_words_keep_different_keys():
    """Normalisation does not merge unrelated words that a matcher must keep apart."""
    words = ["design", "compiler", "customer", "mentor", "manager", "manage", "c", "c++", "c#"]
    assert len({normalise_word(w) for w in words}) == len(words)


def test_tokenise_keeps_offsets_and_skips_articles():
    """Tokens carry their position in the text; a, an and the are not tokens."""
    text = "Give the hardware team an answer"
    tokens = tokenise(text)
    assert [text[t.start : t.end] for t in tokens] == ["Give", "hardware", "team", "answer"]


def test_hyphenated_phrase_matches_spaced_and_closed_spellings():
    """A phrase written with a hyphen yields keys for 'pre silicon' and 'presilicon'."""
    keys = phrase_keys("pre-silicon")
    assert tuple(t.key for t in tokenise("pre silicon")) in keys
    assert tuple(t.key for t in tokenise("presilicon")) in keys
