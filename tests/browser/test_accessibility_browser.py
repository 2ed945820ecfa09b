"""Every page of the login, coordinator, manager and interviewer areas passes axe-core (WCAG 2.1 AA) in Chromium.

The pages are found from the URL map (every GET route of the role's area, with the route matrix's ids), so
a new page is checked without a line here. The content security policy is enforced as in production:
a page whose script or style the policy blocks fails too.
"""

from __future__ import annotations

from browserutil import screenshot, sign_in
from flask import url_for

from planner.db import make_session_factory
from tests.axeutil import axe_violations, describe
from tests.security.matrixworld import build_world

AREAS = {"coordinator": "coordinator.", "manager": "manager.", "interviewer": "interviewer."}
SKIP = {"coordinator.outbox_eml", "coordinator.outbox_ics", "interviewer.interview_ics",
        "manager.posting_coverage_csv", "coordinator.audit_csv"}  # downloads, not pages


#: Pages kept as screenshots for people to look at (the contrast and link changes show there).
SHOWN = {"/login": "login", "/coordinator/": "overview", "/coordinator/postings/1": "posting",
         "/coordinator/interviewers": "pool", "/manager/postings/1": "coverage", "/interviewer/": "home"}


def _ids(engine) -> dict[str, dict]:
    """Per area, an existing id for every URL argument: the route matrix's world (upcoming rows, an open
    proposed time), with the interviewer's own interview on the interviewer's pages."""
    with make_session_factory(engine)() as session:
        world = build_world(session)
    coordinator = {**world.ids, "leaving": world.ids["leaving_id"]}
    return {"coordinator": coordinator, "manager": coordinator,
            "interviewer": {**coordinator, "interview_id": world.own_interview_id}}


def _pages(app, prefix: str, ids: dict) -> list[str]:
    urls = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if rule.endpoint.startswith(prefix) and "GET" in rule.methods and rule.endpoint not in SKIP:
                values = {a: ids[a] for a in rule.arguments}
                if rule.endpoint == "coordinator.interview_replace":
                    values["leaving"] = ids["leaving"]
                urls.append(url_for(rule.endpoint, **values))
    return sorted(set(urls))


def test_every_page_is_accessible(chromium, live_server, live_db):
    """axe finds no WCAG 2.1 AA violation, and the CSP blocks nothing, on every page of every role."""
    from planner import create_app

    app = create_app({"DATABASE_URL": str(live_db.url.render_as_string(hide_password=False)),
                      "SECRET_KEY": "x"})
    ids = _ids(live_db)
    problems = []
    for role, prefix in [("anonymous", None), *AREAS.items()]:
        context = chromium.new_context(base_url=live_server, viewport={"width": 1360, "height": 900})
        page = context.new_page()
        page.set_default_timeout(20000)
        blocked = []
        page.on("console", lambda message, blocked=blocked: blocked.append(message.text)
                if "Content Security Policy" in message.text else None)
        if role == "anonymous":
            urls = ["/login"]
        else:
            sign_in(page, f"{role}@demo.test")
            urls = ["/account/", *_pages(app, prefix, ids[role])]
        for url in urls:
            response = page.goto(url)
            page.wait_for_load_state("networkidle")
            if response.status >= 400 or "text/html" not in response.headers.get("content-type", ""):
                continue
            violations = axe_violations(page)
            if url in SHOWN:
                screenshot(page, f"a11y-{role}-{SHOWN[url]}")
            if violations:
                screenshot(page, f"axe-{role}-{url.strip('/').replace('/', '-') or 'home'}")
                problems.append(f"{url} as {role}:\n{describe(violations)}")
        problems += [f"CSP blocked something for {role}: {text}" for text in blocked]
        context.close()
    app.extensions["planner.engine"].dispose()
    assert not problems, "\n".join(problems)
