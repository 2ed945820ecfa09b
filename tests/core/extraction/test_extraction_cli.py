"""`planner extract FILE [--json]` through click's test runner."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from planner.cli.extract import extract_command

# The worked example posting, as the demo loads it (tests need nothing outside the checkout).
EXAMPLE = Path(__file__).resolve().parents[3] / "planner" / "data" / "demo" / "posting.txt"
REQUIRED = {"compiler-design", "customer-ownership", "pre-silicon-feedback", "mentoring"}


@pytest.fixture
def runner():
    """A click runner keeping stdout and stderr apart."""
    return CliRunner()


def test_human_output_lists_competencies_with_evidence(runner):
    """The readable listing names each required competency and quotes its evidence sentence."""
    result = runner.invoke(extract_command, [str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    assert "Compiler design [compiler-design, technical]" in result.stdout
    assert '"Contribute to pre-silicon design."' in result.stdout
    assert "Mentoring [mentoring, leadership]" in result.stdout
    assert result.stderr == ""


def test_json_output_is_ordered_by_score_with_evidence(runner):
    """--json prints {"competencies": [...]} with slug, name, score and evidence, highest score first."""
    result = runner.invoke(extract_command, [str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    competencies = json.loads(result.stdout)["competencies"]
    assert REQUIRED <= {c["slug"] for c in competencies}
    scores = [c["score"] for c in competencies]
    assert scores == sorted(scores, reverse=True)
    mentoring = next(c for c in competencies if c["slug"] == "mentoring")
    assert mentoring["name"] == "Mentoring"
    assert all(isinstance(sentence, str) for sentence in mentoring["evidence"])
    detail = mentoring["evidence_detail"][0]
    assert detail["text"] == mentoring["evidence"][0]
    highlighted = [detail["text"][s["start"] : s["end"]].lower() for s in detail["spans"] if s["strong"]]
    assert any(fragment.startswith("mentor") for fragment in highlighted)


def test_posting_with_nothing_recognisable_says_so(runner, tmp_path):
    """A readable posting with no competency gives a clear 'none found' line and exit 0."""
    path = tmp_path / "lunch.txt"
    path.write_text("Lunch is at noon on Fridays.", encoding="utf-8")
    result = runner.invoke(extract_command, [str(path)])
    assert result.exit_code == 0
    assert "No competencies found" in result.stdout


@pytest.mark.parametrize(
    ("content", "fragment"),
    [(None, "There is no file at"), (b"", "is empty"), (b"\xff\xfeJob", "not UTF-8")],
)
def test_bad_input_exits_2_with_one_sentence_on_stderr(runner, tmp_path, content, fragment):
    """Missing, empty and non-UTF-8 files exit with status 2 and one error line, no traceback."""
    path = tmp_path / "posting.txt"
    if content is not None:
        path.write_bytes(content)
    result = runner.invoke(extract_command, [str(path), "--json"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert fragment in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    if content is not None:
        assert path.read_bytes() == content


PARAPHRASED = Path(__file__).parent / "postings" / "paraphrased-inference-engineer.txt"


def test_json_names_each_runner_up_and_how_it_was_found(runner):
    """--json adds runner_up (slug, name, reason, or null) and matched_by to every competency."""
    result = runner.invoke(extract_command, [str(PARAPHRASED), "--json"])
    assert result.exit_code == 0, result.output
    competencies = {c["slug"]: c for c in json.loads(result.stdout)["competencies"]}
    assert all("runner_up" in c and "matched_by" in c for c in competencies.values())
    assert competencies["customer-ownership"]["runner_up"]["slug"] == "ownership"
    assert set(competencies["customer-ownership"]["runner_up"]) == {"slug", "name", "reason"}
    assert competencies["pre-silicon-feedback"]["matched_by"] == "description"
    assert "ownership" not in competencies


def test_human_output_shows_the_runner_up(runner):
    """The readable listing says what else is close and which findings came from the description."""
    result = runner.invoke(extract_command, [str(PARAPHRASED)])
    assert result.exit_code == 0, result.output
    assert "also close: Ownership and accountability [ownership]" in result.stdout
    assert "found by description" in result.stdout
