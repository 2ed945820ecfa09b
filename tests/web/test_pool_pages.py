"""The pool list is shown a page at a time: counts, previous/next links, filters kept, past-the-end pages."""

from __future__ import annotations

import re

from poolutil import interviewer


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
