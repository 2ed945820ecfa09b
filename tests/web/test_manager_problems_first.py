"""The manager's dashboard: what counts as "every must-have covered", problems first, no false "Covered"."""

from __future__ import annotations

import re

from coverage_builders import add_round, interviewer, posting

from planner.queries.coverage import get_posting_coverage, list_posting_coverage

MUST = ("must-have", 2)
NICE = ("nice-to-have", 1)


def _tile(html: str, label: str) -> int:
    """The number on the summary tile whose text is ``label``."""
    match = re.search(r'<span class="tile-num">(\d+)</span>\s*<span class="muted">' + re.escape(label), html)
    assert match, f"no tile '{label}'"
    return int(match.group(1))


def test_posting_without_competencies_is_not_counted_as_covered(login, db):
    """A posting with no competency accepted has no must-have covered: the tile does not count it."""
    client = login("manager")
    done, comps = posting(db, {"t-a": MUST}, title="Covered engineer")
    add_round(db, done, comps, "One", {"t-a": "primary"})
    add_round(db, done, comps, "Two", {"t-a": "primary"}, position=1)
    interviewer(db, "q1@example.com", {comps["t-a"]: "qualified"})
    interviewer(db, "q2@example.com", {comps["t-a"]: "qualified"})
    posting(db, {}, title="Empty engineer")
    html = client.get("/manager/").get_data(as_text=True)
    assert _tile(html, "with every must-have covered") == 1
    assert "(1 without must-haves yet)" in html


def test_blocking_must_have_shortfall_is_listed_above_a_nice_to_have_gap(db):
    """"Problems first": a must-have short of rounds (blocks scheduling) comes before a nice-to-have gap."""
    short, comps = posting(db, {"t-a": MUST}, title="Aardvark must-short")
    add_round(db, short, comps, "One", {"t-a": "primary"})
    nice, nice_comps = posting(db, {"t-b": MUST, "t-c": NICE}, title="Zebra nice-gap")
    add_round(db, nice, nice_comps, "One", {"t-b": "primary"})
    add_round(db, nice, nice_comps, "Two", {"t-b": "primary"}, position=1)
    for n in range(3):
        interviewer(db, f"p{n}@example.com", {comps["t-a"]: "qualified", nice_comps["t-b"]: "qualified",
                                              nice_comps["t-c"]: "qualified"})
    rows = {row.title: row for row in list_posting_coverage(db)}
    assert rows["Zebra nice-gap"].coverage_status == "gap"
    assert rows["Aardvark must-short"].coverage_status == "thin"
    titles = [row.title for row in list_posting_coverage(db)]
    assert titles.index("Aardvark must-short") < titles.index("Zebra nice-gap")


def test_secondary_focus_with_nobody_qualified_does_not_show_covered(login, db):
    """Assessed only as secondary focus with no qualified interviewer: 'No assessor', never 'Covered'."""
    client = login("manager")
    row, comps = posting(db, {"t-a": MUST, "t-b": NICE}, title="Secondary engineer")
    add_round(db, row, comps, "One", {"t-a": "primary", "t-b": "secondary"})
    add_round(db, row, comps, "Two", {"t-a": "primary"}, position=1)
    interviewer(db, "q1@example.com", {comps["t-a"]: "qualified"})
    interviewer(db, "q2@example.com", {comps["t-a"]: "qualified"})
    view = get_posting_coverage(db, row.id)
    assert view.coverage.competency("t-b").status == "no-assessor"
    html = client.get(f"/manager/postings/{row.id}").get_data(as_text=True)
    t_b_row = html[html.index("T b"):]
    t_b_row = t_b_row[:t_b_row.index("</tr>")]
    assert "Covered" not in t_b_row and "No assessor" in t_b_row
    home = client.get("/manager/").get_data(as_text=True)
    assert ">Covered<" not in home
