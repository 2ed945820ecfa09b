"""Property-based tests: extraction never fails and its output is always well formed."""

import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.core.extraction import extract
from planner.core.extraction.sentences import split_sentences
from planner.core.library import default_library

LIBRARY = default_library()
# The worked example posting, as the demo loads it (tests need nothing outside the checkout).
EXAMPLE = Path(__file__).resolve().parents[3] / "planner" / "data" / "demo" / "posting.txt"
POSTING_WORDS = st.sampled_from(
    [
        "compiler",
        "design",
        "mentoring",
        "customer",
        "pre-silicon",
        "feedback",
        "chip",
        "own",
        "end to end",
        "Responsibilities",
        "- ",
        ":-",
        ".",
        ". ",
        "\n",
        "\n\n",
        "Sr.",
        "e.g.",
        "equal opportunity",
        "•",
        "A",
        "hardware teams",
        "before tape-out",
        "coach",
        "engineers",
        "  ",
        "Ph.D.",
        "JAX.Neuron",
        "teamPreferred",
    ]
)


def check_well_formed(text, findings):
    """Findings are ordered, scored at least the default minimum, and evidence slices the text."""
    keys = [(-f.score, f.slug) for f in findings]
    assert keys == sorted(keys)
    for finding in findings:
        assert finding.score >= 1.0
        assert finding.evidence
        for evidence in finding.evidence:
            assert text[evidence.start : evidence.end] == evidence.text
            assert all(0 <= s.start < s.end <= len(evidence.text) for s in evidence.spans)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_returns_well_formed_findings(text):
    """Any unicode text, including empty, gives findings without raising."""
    check_well_formed(text, extract(text, LIBRARY))


@settings(max_examples=200, deadline=None)
@given(st.lists(POSTING_WORDS, max_size=80).map(" ".join))
def test_posting_like_text_returns_well_formed_findings(text):
    """Text built from posting words, bullets and tricky punctuation gives well-formed findings."""
    check_well_formed(text, extract(text, LIBRARY))


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=4000))
def test_binary_looking_text_returns(data):
    """Bytes decoded leniently (control characters, replacement characters) never make extraction fail."""
    text = data.decode("latin-1")
    check_well_formed(text, extract(text, LIBRARY))


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_sentences_are_exact_slices(text):
    """Every sentence is the exact slice of the text at its offsets, and sentences do not overlap."""
    sentences = split_sentences(text)
    previous_end = 0
    for sentence in sentences:
        assert text[sentence.start : sentence.end] == sentence.text
        assert sentence.start >= previous_end
        previous_end = sentence.end


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=50_000, max_value=200_000), st.sampled_from("x.- \n"))
def test_very_long_single_character_runs_return(length, char):
    """Long runs of one character (no words, or only punctuation) return quickly and find nothing."""
    assert extract(char * length, LIBRARY) == []


def test_one_megabyte_posting_is_handled():
    """A 1 MB posting (the example repeated) is processed in a few seconds; the time is printed."""
    text = EXAMPLE.read_text(encoding="utf-8")
    big = (text + "\n\n") * (1_048_576 // (len(text) + 2) + 1)
    started = time.perf_counter()
    findings = extract(big, LIBRARY)
    elapsed = time.perf_counter() - started
    print(f"\n1 MB posting ({len(big.encode()) / 1_048_576:.2f} MB): {elapsed:.2f} s")
    assert {"compiler-design", "customer-ownership", "pre-silicon-feedback", "mentoring"} <= {
        f.slug for f in findings
    }
    assert elapsed < 30
