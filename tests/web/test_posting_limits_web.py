"""One limit on a posting's text, pasted or uploaded, with one plain sentence; field names in length errors."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from planner.models import Posting
from planner.services.library import seed_library
from planner.services.posting_text import MAX_TEXT_CHARS

SENTENCE = f"A posting can be at most {MAX_TEXT_CHARS:,} characters long"
LONG = "Build compilers and mentor engineers. " * (MAX_TEXT_CHARS // 38 + 10)


@pytest.fixture
def coordinator(db, login):
    seed_library(db)
    db.commit()
    return login("coordinator")


def _new(client, upload: tuple[bytes, str] | None = None, **data):
    """POST the new-posting form as multipart, encoded here: the test client spools a big body to a temporary
    file it never closes (a ResourceWarning), so the body is built in memory instead."""
    form = {"title": "Staff Engineer", "team": "Compilers", "status": "open", **data}
    boundary = "----planner-test-boundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
             for k, v in form.items()]
    if upload is not None:
        content, name = upload
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="upload"; filename="{name}"\r\n'
                     "Content-Type: text/plain\r\n\r\n".encode() + content + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return client.post("/coordinator/postings/new", data=body,
                       content_type=f"multipart/form-data; boundary={boundary}")


@pytest.mark.parametrize("how", ["paste", "upload", "huge upload"])
def test_too_long_posting_gets_the_same_sentence_on_both_paths(coordinator, db, how):
    """Pasted or uploaded, a text over the limit is refused with the same sentence, and nothing is stored."""
    assert len(LONG) > MAX_TEXT_CHARS
    if how == "paste":
        response = _new(coordinator, text=LONG)
    elif how == "upload":
        response = _new(coordinator, text="", upload=(LONG.encode(), "long.txt"))
    else:
        response = _new(coordinator, text="", upload=(b"x" * (4 * MAX_TEXT_CHARS + 10), "huge.txt"))
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert SENTENCE in html
    assert "Field cannot be longer" not in html
    assert db.scalar(select(func.count(Posting.id))) == 0


def test_text_at_the_limit_is_accepted_by_paste_and_upload(coordinator, db):
    """Exactly the limit is fine on both paths."""
    text = ("Mentor engineers. " * (MAX_TEXT_CHARS // 18 + 1))[:MAX_TEXT_CHARS]
    assert _new(coordinator, text=text).status_code == 302
    assert _new(coordinator, text="", upload=(text.encode(), "edge.md")).status_code == 302
    assert db.scalar(select(func.count(Posting.id))) == 2


def test_length_errors_name_the_field(coordinator, db):
    """A field over its length says which field and by how much, not WTForms' generic 'Field cannot be ...'."""
    response = _new(coordinator, text="Mentor engineers.", team="t" * 121)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "The team can be at most 120 characters long; this one has 121." in html
    assert "Field cannot be longer" not in html
