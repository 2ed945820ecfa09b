"""`planner coverage POSTING_ID [--json]` on the demo, as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from sqlalchemy import select

from planner.db import make_session_factory, utcnow
from planner.models import Posting
from planner.services.demo import load_demo


def _run(*args: str, url: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLANNER_")}
    env["PLANNER_DATABASE_URL"] = url
    return subprocess.run([sys.executable, "-m", "planner.cli", "coverage", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def _demo_posting(committed_db) -> int:
    with make_session_factory(committed_db)() as session:
        load_demo(session, now=utcnow())
        return session.scalar(select(Posting.id))


def test_json_follows_the_contract(database_url, committed_db):
    """--json prints the posting, competencies (rounds, bench, status) and rounds (minutes, warnings)."""
    posting_id = _demo_posting(committed_db)
    result = _run(str(posting_id), "--json", url=database_url)
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["posting"]["id"] == posting_id and payload["posting"]["version"] == 1
    by_slug = {item["slug"]: item for item in payload["competencies"]}
    for slug in ("compiler-design", "customer-ownership", "pre-silicon-feedback", "mentoring"):
        item = by_slug[slug]
        assert set(item) >= {"slug", "name", "priority", "required", "rounds", "qualified_interviewers",
                             "status"}
        assert (item["priority"], item["required"], item["status"]) == ("must-have", 2, "ok")
        assert len(item["rounds"]) == 2 and item["qualified_interviewers"] >= 2
    assert by_slug["mentoring"]["rounds"] == ["Bar raiser", "Hiring manager"]
    bar = next(item for item in payload["rounds"] if item["name"] == "Bar raiser")
    assert bar["minutes"] == 60
    assert set(bar["competencies"]) == {"customer-ownership", "mentoring"}
    assert isinstance(bar["warnings"], list)


def test_text_report_lists_competencies_and_rounds(database_url, committed_db):
    """Without --json the report is a readable table with statuses and the rounds in order."""
    posting_id = _demo_posting(committed_db)
    result = _run(str(posting_id), url=database_url)
    assert result.returncode == 0, result.stderr
    assert "Senior ML Compiler Engineer" in result.stdout
    assert "1. Compiler design deep-dive (technical, 60 min)" in result.stdout
    mentoring = next(line for line in result.stdout.splitlines() if line.startswith("Mentoring"))
    assert " 2/2 " in mentoring and " ok " in mentoring


def test_unknown_posting_is_one_sentence(database_url, committed_db):
    """A posting id that does not exist exits 2 with one sentence on stderr and no traceback."""
    result = _run("424242", url=database_url)
    assert result.returncode == 2
    assert result.stderr.strip() == "Error: There is no posting #424242."
    bad = _run("abc", url=database_url)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_posting_id_beyond_any_database_id_is_one_sentence(database_url):
    """An id larger than a 64-bit integer is not sent to the database (SQLite would raise OverflowError)."""
    result = _run(str(2**63), url=database_url)
    assert result.returncode == 2
    assert result.stderr.strip() == f"Error: There is no posting #{2**63}."


def test_database_without_tables_says_to_upgrade(tmp_path):
    """A database that was never migrated is named as such, with the command that sets it up."""
    result = _run("1", url=f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "has no tables yet" in result.stderr and "planner db upgrade" in result.stderr


def test_round_nobody_can_staff_is_reported(database_url, committed_db):
    """Without Priya (the only one qualified in compiler design and pre-silicon feedback together), the
    one-interviewer 'Accelerator architecture' round cannot be staffed: JSON and text both say so."""
    from planner.models import Interviewer

    posting_id = _demo_posting(committed_db)
    payload = json.loads(_run(str(posting_id), "--json", url=database_url).stdout)
    assert payload["posting"]["unstaffable_rounds"] == []
    assert all(item["staffable"] and item["panelists"] >= 1 for item in payload["rounds"])
    with make_session_factory(committed_db)() as session:
        session.scalar(select(Interviewer).where(Interviewer.name == "Priya Raman")).active = False
        session.commit()
    payload = json.loads(_run(str(posting_id), "--json", url=database_url).stdout)
    arch = next(item for item in payload["rounds"] if item["name"] == "Accelerator architecture")
    assert (arch["staffable"], arch["panelists"]) == (False, 0)
    assert payload["posting"]["unstaffable_rounds"] == [arch["key"]]
    text = _run(str(posting_id), url=database_url).stdout
    assert "Accelerator architecture (design, 60 min) - NOBODY CAN STAFF IT" in text
    assert "Rounds nobody can staff: Accelerator architecture" in text
    assert "no one is qualified in Compiler design and Pre-silicon feedback" in text
