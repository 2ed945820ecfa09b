"""Extraction on the worked example: the Senior ML Compiler Engineer posting."""

from pathlib import Path

import pytest

from planner.core.extraction import extract
from planner.core.extraction.normalise import phrase_keys, tokenise
from planner.core.library import default_library

# The worked example posting, as the demo loads it (tests need nothing outside the checkout).
EXAMPLE = Path(__file__).resolve().parents[3] / "planner" / "data" / "demo" / "posting.txt"

# For each required competency: a sentence that really asks for it (must be evidence).
EXPECTED_EVIDENCE = {
    "compiler-design": "Design and build compiler features for the Neuron compilers.",
    "customer-ownership": "Own customer-critical features end to end: scope the problem, write the design, "
    "ship production code, and provide support to customers.",
    "pre-silicon-feedback": "Contribute to pre-silicon design.",
    "mentoring": "Raise the technical bar by reviewing code and designs, publishing research where it makes "
    "sense, and mentoring engineers.",
}


@pytest.fixture(scope="module")
def text():
    """The example posting text."""
    return EXAMPLE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def findings(text):
    """Findings on the example posting with the shipped library, by slug."""
    return {f.slug: f for f in extract(text, default_library())}


@pytest.mark.parametrize("slug", sorted(EXPECTED_EVIDENCE))
def test_required_competency_is_found_with_the_right_sentence(findings, slug):
    """Each of the four required competencies is found and cites the sentence that asks for it."""
    assert slug in findings
    assert EXPECTED_EVIDENCE[slug] in [e.text for e in findings[slug].evidence]


def test_pre_silicon_feedback_cites_the_programmability_feedback_sentence(findings):
    """The 'feedback before a chip is built' sentence is the strongest pre-silicon evidence."""
    first = findings["pre-silicon-feedback"].evidence[0].text
    assert first.startswith("You give the hardware teams compiler and programmability feedback before a chip")


def test_boilerplate_is_never_evidence(findings):
    """Legal, pay and benefits text (e.g. LA County 'customer service') is not cited as evidence."""
    banned = (
        "equal opportunity",
        "Los Angeles",
        "customer service",
        "benefits",
        "salary",
        "USD",
        "inclusive",
    )
    for finding in findings.values():
        for evidence in finding.evidence:
            assert not any(word in evidence.text for word in banned), (finding.slug, evidence.text)


def test_evidence_offsets_and_spans_point_into_the_posting(text, findings):
    """Evidence offsets slice the posting to the sentence; each span slices the sentence to a phrase part."""
    for finding in findings.values():
        for evidence in finding.evidence:
            assert text[evidence.start : evidence.end] == evidence.text
            assert evidence.spans
            for span in evidence.spans:
                assert 0 <= span.start < span.end <= len(evidence.text)
                fragment_keys = tuple(t.key for t in tokenise(evidence.text[span.start : span.end]))
                parts = span.phrase.lstrip("~").split("...")
                allowed = [keys for part in parts for keys in phrase_keys(part)]
                assert fragment_keys in allowed, (span, evidence.text[span.start : span.end])


def test_findings_are_ordered_by_score_then_slug_and_stable(text):
    """Findings come highest score first (ties by slug), and two runs give the same result."""
    library = default_library()
    first = extract(text, library)
    assert first == extract(text, library)
    keys = [(-f.score, f.slug) for f in first]
    assert keys == sorted(keys)
    assert all(f.score == round(f.score, 2) for f in first)


def test_raising_min_score_keeps_only_the_strongest(text):
    """min_score filters findings; the compiler role's core competencies survive a high bar."""
    library = default_library()
    strict = {f.slug for f in extract(text, library, min_score=2.0)}
    assert {"compiler-design", "pre-silicon-feedback"} <= strict
    assert len(strict) < len(extract(text, library))
