"""Long lists a page at a time: the coordinator's postings and loops, the manager's coverage.

Each shows its first page, a next link that keeps the filters, the rest on the next page, and the last
page for a page number past the end.
"""

from __future__ import annotations

import re

from coverage_builders import posting

from planner.models import Candidate, Loop, LoopStatus, Posting


def _next(html: str) -> str:
    return re.search(r'rel="next" href="([^"]+)"', html).group(1).replace("&amp;", "&")


def test_postings_list_pages_and_keeps_the_search(app, login, db):
    app.config["POSTINGS_PAGE_SIZE"] = 2
    for name in ("Alder", "Birch", "Cedar", "Damson", "Elm"):
        db.add(Posting(title=f"{name} compiler engineer", team="core"))
    db.add(Posting(title="Recruiter", team="people"))
    db.flush()
    client = login("coordinator")
    first = client.get("/coordinator/postings?q=compiler").get_data(as_text=True)
    assert "1&ndash;2 of 5" in first and "page 1 of 3" in first
    link = _next(first)
    assert "q=compiler" in link and "page=2" in link
    second = client.get(link).get_data(as_text=True)
    shown = set(re.findall(r"(\w+) compiler engineer</a>", first + second))
    assert len(shown) == 4 and "Recruiter" not in second and 'rel="prev"' in second
    last = client.get("/coordinator/postings?q=compiler&page=99").get_data(as_text=True)
    assert "page 3 of 3" in last and len(re.findall(r"compiler engineer</a>", last)) == 1
    everything = client.get("/coordinator/postings").get_data(as_text=True)
    assert "of 6" in everything


def test_loops_list_pages_and_keeps_the_status_and_posting(app, login, db):
    app.config["LOOPS_PAGE_SIZE"] = 2
    role, other = Posting(title="Role"), Posting(title="Other role")
    db.add_all([role, other])
    db.flush()
    names = ["Ana", "Ben", "Cleo", "Dev", "Eli"]
    for index, name in enumerate(names):
        db.add(Loop(candidate=Candidate(name=f"{name} Candidate", email=f"{name}@example.com"),
                    posting_id=role.id, status=LoopStatus.DRAFT if index < 3 else LoopStatus.SCHEDULED))
    db.add(Loop(candidate=Candidate(name="Zed Candidate", email="zed@example.com"), posting_id=other.id))
    db.flush()
    client = login("coordinator")
    first = client.get(f"/coordinator/loops?status=draft&posting={role.id}").get_data(as_text=True)
    assert "1&ndash;2 of 3" in first and "Cleo Candidate" in first and "Ana Candidate" not in first  # newest first
    link = _next(first)
    assert "status=draft" in link and f"posting={role.id}" in link
    second = client.get(link).get_data(as_text=True)
    assert "Ana Candidate" in second and "Cleo Candidate" not in second and "Dev Candidate" not in second
    assert "Zed Candidate" not in second and 'rel="next"' not in second
    everything = client.get("/coordinator/loops").get_data(as_text=True)
    assert "of 6" in everything and "page 1 of 3" in everything
    beyond = client.get("/coordinator/loops?page=99").get_data(as_text=True)
    assert "page 3 of 3" in beyond and "Ana Candidate" in beyond


def test_manager_coverage_pages_the_table_and_counts_every_posting(app, login, db):
    app.config["COVERAGE_PAGE_SIZE"] = 2
    for name in ("Alder", "Birch", "Cedar"):
        posting(db, {}, title=f"{name} role")
    client = login("manager")
    first = client.get("/manager/").get_data(as_text=True)
    assert re.search(r'<span class="tile-num">3</span>', first)  # the tiles count all three
    assert "1&ndash;2 of 3" in first and first.count(" role</strong>") == 2
    second = client.get(_next(first)).get_data(as_text=True)
    assert second.count(" role</strong>") == 1 and 'rel="prev"' in second
    shown = set(re.findall(r"(\w+) role</strong>", first + second))
    assert shown == {"Alder", "Birch", "Cedar"}
