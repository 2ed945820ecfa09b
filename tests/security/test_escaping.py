"""Markup typed into any text field is shown as text on every page that shows it, never run.

The story in ``hostile.py`` writes a payload into every text field through the web forms; then every
GET page of every role is read back: none contains a payload raw, and the pages that show a field
contain its escaped form.
"""

from __future__ import annotations

from flask import url_for

from tests.security.hostile import RAW_MARKERS, escaped

#: Which page shows which field (the field names given to payload()).
SHOWN_ON = {
    "/coordinator/postings": ["posting-title"],
    "/coordinator/postings/{posting_id}": ["posting-title", "posting-text", "competency-name"],
    "/coordinator/postings/{posting_id}/edit": ["posting-title", "posting-location", "posting-level",
                                                "hiring-manager", "posting-text"],
    "/coordinator/postings/{posting_id}/plan": ["round-name", "focus-question", "focus-second", "competency-name"],
    "/coordinator/competencies": ["competency-name", "competency-description"],
    "/coordinator/competencies/{competency_id}/edit": ["competency-name", "competency-description",
                                                       "rubric-strong", "rubric-weak"],
    "/coordinator/interviewers": ["interviewer-name"],
    "/coordinator/interviewers/{interviewer_id}": ["interviewer-name", "competency-name"],
    "/coordinator/loops": ["candidate-name", "posting-title"],
    "/coordinator/loops/{loop_id}": ["candidate-name", "round-name", "place", "interviewer-name"],
    "/coordinator/interviews/{interview_id}/place": ["place", "candidate-name"],
    "/coordinator/outbox": ["candidate-name"],
    "/manager/": ["posting-title"],
    "/manager/postings/{posting_id}": ["posting-title", "round-name", "competency-name"],
    "/manager/postings/{posting_id}/evidence": ["candidate-name", "round-name", "competency-name",
                                                "interviewer-name"],
    "/interviewer/": ["candidate-name", "round-name"],
    "/interviewer/interviews/{interview_id}/scorecard": ["scorecard-notes", "candidate-name", "competency-name"],
}


def _signed_in(app, email: str):
    client = app.test_client()
    assert client.post("/login", data={"email": email, "password": "password123"}).status_code == 302
    return client


def _get_urls(app, world) -> list[str]:
    ids = {"posting_id": world.posting_id, "competency_id": world.competency_id, "loop_id": world.loop_id,
           "interview_id": world.interview_id, "interviewer_id": world.interviewer_id, "round_id": world.round_id}
    urls = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if "GET" in rule.methods and rule.endpoint != "static" and set(rule.arguments) <= set(ids):
                urls.append(url_for(rule.endpoint, **{a: ids[a] for a in rule.arguments}))
    return sorted(set(urls))


def test_payloads_are_escaped_on_every_page(app, hostile_world):
    """No GET page of any role holds a payload raw; each page that shows a field holds it escaped."""
    clients = {email: _signed_in(app, email)
               for email in ("coord@hire.example", "boss@hire.example", "panel@hire.example")}
    raw, pages = [], {}
    for url in _get_urls(app, hostile_world):
        for email, client in clients.items():
            response = client.get(url)
            if response.status_code != 200 or not response.mimetype.startswith("text/html"):
                response.close()  # a streamed download (the audit CSV) must be closed inside the test
                continue
            body = response.get_data(as_text=True)
            pages[url] = pages.get(url, "") + body
            raw += [f"{url} as {email}: {marker!r}" for marker in RAW_MARKERS if marker in body]
    assert not raw, "raw markup on pages:\n" + "\n".join(raw)
    missing = []
    for template, fields in SHOWN_ON.items():
        url = template.format(**vars(hostile_world))
        assert url in pages, f"{url} was not read (status or role?)"
        missing += [f"{url}: {name}" for name in fields if escaped(name) not in pages[url]]
    assert not missing, "fields expected escaped but not found:\n" + "\n".join(missing)
