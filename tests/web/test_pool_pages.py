"""The pool list is shown a page at a time: counts, previous/next links, filters kept, past-the-end pages."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from poolutil import book, competency, interviewer

from planner.services import pool


def test_pool_list_pages(app, login, db):
    """Five people, two a page: three pages, links keep the filters, a page past the end shows the last."""
    app.config["POOL_PAGE_SIZE"] = 2
    for name in ("Ana", "Ben", "Cleo", "Dev", "Eli"):
        interviewer(db, name, email=f"{name.lower()}@hire.example")
    client = login("coordinator")
    first = client.get("/coordinator/interviewers").get_data(as_text=True)
    assert "5 interviewers" in first and "1&ndash;2 of 5" in first and "page 1 of 3" in first
    assert ">Ana<" in first or "Ana</a>" in first
    assert "Cleo" not in first
    next_link = re.search(r'rel="next" href="([^"]+)"', first).group(1)
    second = client.get(next_link.replace("&amp;", "&")).get_data(as_text=True)
    assert "Cleo" in second and "Ana" not in second and 'rel="prev"' in second
    filtered = client.get("/coordinator/interviewers?q=e&page=1").get_data(as_text=True)
    assert re.search(r'rel="next" href="[^"]*q=e', filtered)
    beyond = client.get("/coordinator/interviewers?page=99").get_data(as_text=True)
    assert "Eli" in beyond and "page 3 of 3" in beyond


def test_ready_panel_shows_twenty_then_all_on_request(login, db):
    """21 trainees ready: the pool list shows 20 with a link to all, the overview 10 with a link to the list."""
    comp = competency(db, "compiler-design")
    now = datetime.now(UTC)
    for index in range(21):
        person = interviewer(db, f"Trainee {index:02d}", email=f"t{index}@hire.example")
        pool.set_qualification(db, person.id, comp.id, "shadow", actor_id=None, now=now)
        for days in (3, 2):
            book(db, person, now - timedelta(days=days, minutes=index), role="trainee", level="shadow",
                 competencies=("compiler-design",))
    client = login("coordinator")
    first = client.get("/coordinator/interviewers?team=").get_data(as_text=True)
    assert first.count(">Promote to reverse-shadow<") == 20 and "Show all 21 ready trainees" in first
    link = re.search(r'href="([^"]*ready=all[^"]*)"', first).group(1).replace("&amp;", "&")
    assert "team=" in link  # the filters stay
    every = client.get(link).get_data(as_text=True)
    assert every.count(">Promote to reverse-shadow<") == 21 and "Show all" not in every
    home = client.get("/coordinator/").get_data(as_text=True)
    assert home.count(">Trainee ") == 10 and "All 21 ready trainees" in home
