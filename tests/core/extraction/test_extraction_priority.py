"""Suggested priority: required vs preferred headings, must and preference cues, and which wins."""

from pathlib import Path

import pytest

from planner.core.extraction import extract
from planner.core.extraction.priority import (
    MUST_HAVE,
    NICE_TO_HAVE,
    Stance,
    sentence_stance,
    sentences_by_offsets,
    suggest_from_evidence,
    suggest_priority,
)
from planner.core.extraction.scoring import sentence_weight
from planner.core.extraction.sections import JOB_SECTIONS, Section, find_headings
from planner.core.extraction.sentences import split_sentences
from planner.core.library import default_library

# The worked example posting, as the demo loads it (tests need nothing outside the checkout).
EXAMPLE = Path(__file__).resolve().parents[3] / "planner" / "data" / "demo" / "posting.txt"


def stance(text: str, phrase: str) -> tuple[Stance, str]:
    """The stance of the last sentence of ``text`` towards ``phrase`` (which must occur in it)."""
    sentence = split_sentences(text)[-1]
    start = sentence.text.index(phrase)
    return sentence_stance(sentence, [(start, start + len(phrase))])


def findings(text: str) -> dict[str, tuple[str, str]]:
    """slug -> (suggested priority, reason) for every competency found in ``text``."""
    return {f.slug: (f.priority, f.priority_reason) for f in extract(text, default_library())}


@pytest.mark.parametrize(
    "heading",
    [
        "Basic qualifications",
        "Minimum qualifications",
        "Required qualifications",
        "Qualifications",
        "Requirements",
        "Required skills",
        "Must haves",
        "What we're looking for",
        "What we are looking for",
        "What you bring",
        "What you'll bring",
        "What you need",
        "Who you are",
        "About you",
        "You have",
    ],
)
def test_required_headings_make_their_items_required(heading):
    """An item under a required-qualifications heading is required, and the reason names the heading."""
    assert stance(f"{heading}:\n- Experience with compilers.", "compilers") == (
        Stance.REQUIRED,
        f"listed under {heading}",
    )


@pytest.mark.parametrize(
    "heading",
    ["Preferred qualifications", "Desired qualifications", "Bonus qualifications", "Nice to have", "Bonus points"],
)
def test_preferred_headings_make_their_items_preferred(heading):
    """An item under a preferred heading is preferred, even with '5+ years' (the heading outweighs it)."""
    assert stance(f"{heading}\n- 5+ years of experience with compilers.", "compilers") == (
        Stance.PREFERRED,
        f"listed under {heading}",
    )


@pytest.mark.parametrize(
    ("sentence", "phrase", "expected"),
    [
        ("You must have shipped a compiler.", "compiler", (Stance.REQUIRED, "says 'must'")),
        ("Compiler experience is a must.", "Compiler", (Stance.REQUIRED, "says 'must'")),
        ("Compiler experience is required.", "Compiler", (Stance.REQUIRED, "says 'required'")),
        ("You are required to own the compiler.", "compiler", (Stance.REQUIRED, "says 'required'")),
        ("Kubernetes experience is mandatory.", "Kubernetes", (Stance.REQUIRED, "says 'mandatory'")),
        ("You'll need deep Linux knowledge.", "Linux", (Stance.REQUIRED, "says 'you'll need'")),
        ("You have 5+ years of Go.", "Go", (Stance.REQUIRED, "says '5+ years'")),
        ("At least 3 years building compilers.", "compilers", (Stance.REQUIRED, "says 'at least 3 years'")),
        ("Proven track record of shipping compilers.", "compilers", (Stance.REQUIRED, "says 'proven track record'")),
        ("You bring strong C++ programming skills.", "C++", (Stance.REQUIRED, "says 'strong'")),
        ("Strong C++ and Python.", "C++", (Stance.REQUIRED, "says 'strong'")),
        ("Rust experience is a plus.", "Rust", (Stance.PREFERRED, "says 'a plus'")),
        ("Rust experience is a strong plus.", "Rust", (Stance.PREFERRED, "says 'a strong plus'")),
        ("Experience with Rust preferred.", "Rust", (Stance.PREFERRED, "says 'preferred'")),
        ("Ideally you have built compilers.", "compilers", (Stance.PREFERRED, "says 'ideally'")),
        ("Kubernetes is nice to have.", "Kubernetes", (Stance.PREFERRED, "says 'nice to have'")),
        ("A CUDA background is a bonus.", "CUDA", (Stance.PREFERRED, "says 'a bonus'")),
        ("Familiarity with SQL.", "SQL", (Stance.PREFERRED, "says 'familiarity with'")),
        ("ML is helpful, but not required.", "ML", (Stance.PREFERRED, "says 'helpful'")),
        ("Compiler experience is not required.", "Compiler", (Stance.PREFERRED, "says 'not required'")),
        # An adjective "required" and "strong" about something else are no cues.
        ("Make the required changes to the compiler.", "compiler", (Stance.NEUTRAL, "")),
        ("Build strong relationships with customers.", "customers", (Stance.NEUTRAL, "")),
    ],
)
def test_cues_in_prose(sentence, phrase, expected):
    """Must and preference cues in a sentence under no heading decide its stance and are quoted."""
    assert stance(sentence, phrase) == expected


def test_preference_cue_outweighs_a_required_heading():
    """A 'plus' item under Requirements is preferred: the sentence speaks for itself, the heading for the list."""
    assert stance("Requirements\n- Kubernetes experience is a plus.", "Kubernetes") == (
        Stance.PREFERRED,
        "says 'a plus'",
    )


def test_must_cue_outweighs_a_preferred_heading():
    """A 'must' item under Nice to have is required, by the same rule (the sentence outweighs its heading)."""
    assert stance("Nice to have\n- You must know Python.", "Python") == (Stance.REQUIRED, "says 'must'")


def test_cues_apply_to_their_own_clause():
    """'Python is required; Rust is a plus' requires Python and prefers Rust; Terraform keeps its heading."""
    text = "Python is required; Rust is a plus."
    assert stance(text, "Python") == (Stance.REQUIRED, "says 'required'")
    assert stance(text, "Rust") == (Stance.PREFERRED, "says 'a plus'")
    assert stance("Requirements\n- Terraform; experience with Rust is a plus.", "Terraform") == (
        Stance.REQUIRED,
        "listed under Requirements",
    )


def test_responsibilities_stay_neutral_unless_a_must_cue():
    """A duty is neutral (the coordinator confirms), and required once it says 'must'."""
    assert stance("Key job responsibilities\n- Design compilers.", "compilers") == (
        Stance.NEUTRAL,
        "listed under Key job responsibilities",
    )
    assert stance("Key job responsibilities\n- You must design compilers.", "compilers") == (
        Stance.REQUIRED,
        "says 'must'",
    )


def test_candidate_cues_are_ignored_in_the_company_blurb():
    """'Strong engineering culture' or '20+ years' about the company does not make anything required."""
    text = "About us\nWe have 20+ years of strong engineering experience building compilers."
    assert stance(text, "compilers") == (Stance.NEUTRAL, "listed under About us")


def test_any_required_sentence_makes_a_must_have():
    """One required sentence among duties and preferences makes the competency must-have, with its reason."""
    stances = [
        (Stance.NEUTRAL, "listed under Responsibilities"),
        (Stance.PREFERRED, "says 'a plus'"),
        (Stance.REQUIRED, "listed under Requirements"),
    ]
    assert suggest_priority(stances).priority == MUST_HAVE
    assert suggest_priority(stances).reason == "listed under Requirements"
    nice = suggest_priority(stances[:2])
    assert (nice.priority, nice.reason) == (NICE_TO_HAVE, "says 'a plus'")
    assert suggest_priority([(Stance.NEUTRAL, "")]).reason == "not stated as a requirement"


def test_demo_posting_basic_qualifications_are_must_have_and_preferred_nice_to_have():
    """The worked example: Basic qualifications items are must-have, Preferred ones and duties nice-to-have."""
    found = findings(EXAMPLE.read_text(encoding="utf-8"))
    for slug in ("coding", "technical-leadership", "mentoring", "system-design"):
        assert found[slug] == (MUST_HAVE, "listed under Basic qualifications"), slug
    assert found["code-quality"] == (NICE_TO_HAVE, "listed under Preferred qualification")
    assert found["compiler-design"] == (NICE_TO_HAVE, "listed under Key job responsibilities")
    assert found["machine-learning"] == (NICE_TO_HAVE, "says 'helpful'")


def test_requirements_and_nice_to_have_posting_with_prose_cues():
    """A posting of its own: Requirements and 'must' give must-haves, Nice to have and 'ideally' nice-to-haves."""
    text = (
        "Platform Engineer\n\n"
        "You must be comfortable leading incident response for payment outages. "
        "Ideally you have built CI/CD pipelines before.\n\n"
        "What you'll do\n- Build monitoring and alerting with Prometheus and Grafana.\n\n"
        "Requirements\n- 4+ years operating Kubernetes clusters in production.\n"
        "- Clear written communication.\n\n"
        "Nice to have\n- Familiarity with SQL databases.\n"
    )
    found = findings(text)
    assert found["incident-management"] == (MUST_HAVE, "says 'must'")
    assert found["cloud-infrastructure"] == (MUST_HAVE, "listed under Requirements")
    assert found["communication"] == (MUST_HAVE, "listed under Requirements")
    assert found["ci-cd-automation"] == (NICE_TO_HAVE, "says 'ideally'")
    assert found["observability"] == (NICE_TO_HAVE, "listed under What you'll do")
    assert found["data-analysis"] == (NICE_TO_HAVE, "listed under Nice to have")


def test_stored_evidence_gives_the_same_suggestion_as_extraction():
    """The page's recomputation from stored offsets and spans agrees with extract() on the worked example."""
    text = EXAMPLE.read_text(encoding="utf-8")
    sentences = sentences_by_offsets(text)
    for finding in extract(text, default_library()):
        stored = [(e.start, e.end, [[s.start, s.end] for s in e.spans]) for e in finding.evidence]
        again = suggest_from_evidence(sentences, stored)
        assert (again.priority, again.reason) == (finding.priority, finding.priority_reason), finding.slug
    assert suggest_from_evidence(sentences, [(0, 3, [])]) is None


def test_split_job_sections_weigh_the_same():
    """Required, preferred and duties sections are all job text: a sentence counts fully in each."""
    assert {Section.REQUIRED, Section.PREFERRED, Section.DUTIES} == JOB_SECTIONS
    text = "Requirements\nGo here.\nNice to have\nGo here.\nResponsibilities\nGo here.\nAbout us\nGo here."
    kinds = [kind for _start, _end, kind in find_headings(text)]
    assert kinds == [Section.REQUIRED, Section.PREFERRED, Section.DUTIES, Section.ABOUT]
    weights = [sentence_weight(s) for s in split_sentences(text)]
    assert weights == [1.0, 1.0, 1.0, 0.5]
