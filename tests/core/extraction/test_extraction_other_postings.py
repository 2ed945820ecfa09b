"""Extraction on postings for other roles: precision (no false competencies) and recall (rephrasings)."""

from pathlib import Path

import pytest

from planner.core.extraction import extract
from planner.core.library import default_library

POSTINGS = Path(__file__).parent / "postings"

# posting file -> (competencies that must be found, competencies that must not be)
EXPECTATIONS = {
    "recruiting-coordinator.txt": (
        {"scheduling-coordination", "candidate-experience", "communication", "attention-to-detail"},
        {
            "compiler-design",
            "pre-silicon-feedback",
            "mentoring",
            "customer-ownership",
            "interaction-design",
            "cloud-infrastructure",
            "people-management",
        },
    ),
    "engineering-manager.txt": (
        {
            "people-management",
            "mentoring",
            "hiring-and-team-building",
            "technical-leadership",
            "project-management",
            "strategic-thinking",
        },
        {"compiler-design", "pre-silicon-feedback", "customer-ownership", "budget-and-resource-planning"},
    ),
    "site-reliability-engineer.txt": (
        {"incident-management", "reliability-engineering", "observability", "cloud-infrastructure"},
        {"compiler-design", "pre-silicon-feedback", "mentoring", "budget-and-resource-planning"},
    ),
    "product-designer.txt": (
        {"interaction-design", "user-research", "accessibility", "mentoring"},
        {"compiler-design", "pre-silicon-feedback", "system-design", "frontend-development"},
    ),
    "data-scientist.txt": (
        {"statistics-and-experimentation", "data-analysis", "machine-learning"},
        {"compiler-design", "pre-silicon-feedback", "mentoring", "research-publication"},
    ),
    "sales-engineer.txt": (
        {"technical-presales", "customer-ownership", "mentoring", "communication"},
        {"compiler-design", "pre-silicon-feedback", "incident-management"},
    ),
    "frontend-engineer.txt": (
        {"frontend-development", "accessibility", "mentoring", "code-quality", "ownership"},
        {"compiler-design", "pre-silicon-feedback", "customer-ownership", "scheduling-coordination"},
    ),
    "ml-performance-engineer.txt": (
        {
            "compiler-design",
            "pre-silicon-feedback",
            "customer-ownership",
            "mentoring",
            "hardware-architecture",
        },
        {"scheduling-coordination", "interaction-design"},
    ),
}


@pytest.fixture(scope="module")
def library():
    """The shipped competency library."""
    return default_library()


@pytest.mark.parametrize("posting", sorted(EXPECTATIONS))
def test_expected_competencies_are_found(library, posting):
    """Recall: every competency the posting plainly asks for is found (rephrased wording included)."""
    found = {f.slug for f in extract((POSTINGS / posting).read_text(encoding="utf-8"), library)}
    missing = EXPECTATIONS[posting][0] - found
    assert not missing, f"{posting}: missing {sorted(missing)}"


@pytest.mark.parametrize("posting", sorted(EXPECTATIONS))
def test_unrelated_competencies_are_not_found(library, posting):
    """Precision: competencies the role does not ask for are not reported."""
    found = {f.slug for f in extract((POSTINGS / posting).read_text(encoding="utf-8"), library)}
    wrong = EXPECTATIONS[posting][1] & found
    assert not wrong, f"{posting}: wrongly found {sorted(wrong)}"


def test_company_blurb_about_compilers_does_not_make_a_recruiter_need_compiler_design(library):
    """The recruiting posting mentions compiler and design teams, yet compiler design is not found."""
    text = (POSTINGS / "recruiting-coordinator.txt").read_text(encoding="utf-8")
    assert "compiler" in text and "design" in text
    assert "compiler-design" not in {f.slug for f in extract(text, library)}


def test_a_single_weak_word_never_reports_a_competency(library):
    """'design', 'customer' or 'feedback' alone in a duty sentence is not enough for any competency."""
    text = "- Design the onboarding day.\n- Greet every customer.\n- Collect feedback from the team."
    slugs = {f.slug for f in extract(text, library)}
    assert not slugs & {"compiler-design", "customer-ownership", "pre-silicon-feedback", "mentoring"}


@pytest.mark.parametrize(
    ("sentence", "slug"),
    [
        ("You will build optimizing compilers and code generators for new accelerators.", "compiler-design"),
        ("You will work on the LLVM backend, writing lowering and optimisation passes.", "compiler-design"),
        (
            "You will take ownership of customer-facing features from scoping to support.",
            "customer-ownership",
        ),
        ("You will own the relationship with our largest customers end to end.", "customer-ownership"),
        (
            "You will influence the hardware roadmap through hardware/software co-design.",
            "pre-silicon-feedback",
        ),
        (
            "You will tell the chip architects, before tapeout, what would make it easier to program.",
            "pre-silicon-feedback",
        ),
        ("You will coach junior engineers and help them grow.", "mentoring"),
        ("You will provide mentorship to new hires on the team.", "mentoring"),
    ],
)
def test_rephrased_requirements_still_match(library, sentence, slug):
    """Recall: rephrased wording (other verb forms, synonyms, spellings) finds the competency."""
    assert slug in {f.slug for f in extract(sentence, library)}
