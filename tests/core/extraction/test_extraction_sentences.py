"""Sentence splitting on pasted posting text."""

from pathlib import Path

import pytest

from planner.core.extraction.sections import Section
from planner.core.extraction.sentences import MAX_SENTENCE_CHARS, split_sentences

# The worked example posting, as the demo loads it (tests need nothing outside the checkout).
EXAMPLE = Path(__file__).resolve().parents[3] / "planner" / "data" / "demo" / "posting.txt"


def texts(text):
    """The sentence texts of ``text``."""
    return [s.text for s in split_sentences(text)]


def test_glued_sentences_split_at_the_period():
    """'...and JAX.Neuron Kernel...' is two sentences even with no space after the period."""
    assert texts("It runs PyTorch and JAX.Neuron Kernel Interface is a language.") == [
        "It runs PyTorch and JAX.",
        "Neuron Kernel Interface is a language.",
    ]


def test_colon_dash_and_word_dash_are_bullets():
    """':-' and 'word- Capital' start new bullet items, and the bullet marks are dropped."""
    text = "Explore NKI:- Neuron is used at scale.Key job responsibilities- Design compilers.- Own features."
    result = split_sentences(text)
    assert [s.text for s in result] == [
        "Explore NKI:",
        "Neuron is used at scale.",
        "Design compilers.",
        "Own features.",
    ]
    assert result[2].bullet and result[3].bullet


def test_glued_headings_are_recognised_and_set_the_section():
    """A heading glued on both sides ('teamPreferred qualification - 5+') starts a preferred section."""
    text = "Experience leading an engineering teamPreferred qualification - 5+ years of testing experience"
    result = split_sentences(text)
    assert [s.text for s in result] == [
        "Experience leading an engineering team",
        "5+ years of testing experience",
    ]
    assert result[1].section is Section.PREFERRED
    assert result[1].heading == "Preferred qualification"


def test_heading_words_inside_a_sentence_are_not_headings():
    """'the duties and responsibilities listed above' stays one sentence."""
    text = "These include the duties and responsibilities listed above, as well as others."
    assert texts(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "As a Sr. ML Compiler Engineer you lead.",
        "A Ph.D. in computer science is a plus.",
        "Use tools, e.g. LLVM and MLIR, daily.",
        "Based in the U.S. and Canada.",
    ],
)
def test_abbreviations_do_not_end_sentences(text):
    """Periods of 'Sr.', 'Ph.D.', 'e.g.' and 'U.S.' do not split a sentence."""
    assert texts(text) == [text]


def test_soft_wrapped_lines_join_and_bullet_lines_split():
    """A line wrapped mid-sentence stays one sentence; each bullet line is its own sentence."""
    text = "You will design and\nbuild compilers.\n\n- Mentor engineers\n- Review code"
    assert texts(text) == ["You will design and\nbuild compilers.", "Mentor engineers", "Review code"]


def test_equal_opportunity_statement_makes_the_rest_boilerplate():
    """After an equal-opportunity statement every later sentence is in the boilerplate section."""
    text = "Build compilers. We are an equal opportunity employer. Ensure exceptional customer service."
    sections = [s.section for s in split_sentences(text)]
    assert sections == [None, Section.BOILERPLATE, Section.BOILERPLATE]


def test_example_posting_sentences_keep_their_offsets():
    """Every sentence of the example posting is the exact slice of the text at its offsets."""
    text = EXAMPLE.read_text(encoding="utf-8")
    sentences = split_sentences(text)
    assert len(sentences) > 40
    for sentence in sentences:
        assert text[sentence.start : sentence.end] == sentence.text
    assert "Contribute to pre-silicon design." in [s.text for s in sentences]
    assert "Design and build compiler features for the Neuron compilers." in [s.text for s in sentences]


def test_very_long_runs_are_cut_into_bounded_sentences():
    """A run with no punctuation is cut into pieces no longer than MAX_SENTENCE_CHARS."""
    text = "word " * 2000
    result = split_sentences(text)
    assert len(result) > 1
    assert all(len(s.text) <= MAX_SENTENCE_CHARS for s in result)
    assert all(text[s.start : s.end] == s.text for s in result)
