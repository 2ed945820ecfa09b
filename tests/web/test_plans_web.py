"""The coordinator's round editor over HTTP: forms, errors, reorder, remove, suggest, publish."""

from __future__ import annotations

import pytest
from coverage_builders import add_round, posting, unstaffable_round
from sqlalchemy import func, select

from planner.models import PlanVersion, Round

MUST = ("must-have", 2)
NICE = ("nice-to-have", 1)


def _names(db, posting_id) -> list[str]:
    db.expire_all()
    return list(db.scalars(select(Round.name).where(Round.posting_id == posting_id)
                           .order_by(Round.position, Round.id)))


def _form(comps, **extra) -> dict:
    data = {"name": "Systems design", "kind": "design", "minutes": "50", "interviewers": "2",
            "min_outside_team": "1", "max_trainees": "0", "focus_questions": "Q one\n\nQ two",
            f"focus_c{comps['t-a'].id}": "primary"}
    return data | extra


def test_editor_shows_rounds_coverage_and_empty_state(login, db):
    """The editor lists rounds with the live coverage panel; a plan without rounds explains what to do."""
    client = login("coordinator")
    row, comps = posting(db, {"t-a": MUST})
    html = client.get(f"/coordinator/postings/{row.id}/plan").get_data(as_text=True)
    assert "No rounds yet." in html and "1 of 1 must-haves short" in html
    add_round(db, row, comps, "Deep dive", {"t-a": "primary"})
    html = client.get(f"/coordinator/postings/{row.id}/plan").get_data(as_text=True)
    assert "Deep dive" in html and "Coverage" in html and "Thin" in html


def test_add_round_through_the_form(login, db):
    """A valid form adds the round with its competencies, questions and seat rules."""
    client = login("coordinator")
    row, comps = posting(db, {"t-a": MUST, "t-b": NICE})
    response = client.post(f"/coordinator/postings/{row.id}/plan/rounds",
                           data=_form(comps, **{f"focus_c{comps['t-b'].id}": "secondary"}))
    assert response.status_code == 302
    item = db.scalar(select(Round).where(Round.posting_id == row.id))
    assert (item.name, item.kind.value, item.minutes) == ("Systems design", "design", 50)
    assert item.interviewers == 2
    assert (item.min_outside_team, item.max_trainees, item.focus_questions) == (1, 0, ["Q one", "Q two"])
    assert {rc.focus.value for rc in item.competencies} == {"primary", "secondary"}


@pytest.mark.parametrize(("extra", "message"), [
    ({"name": ""}, "Give the round a name."),
    ({"minutes": "abc"}, "Not a valid integer value."),
    ({"minutes": "5"}, "between 10 and 480 minutes"),
    ({"kind": "lunch"}, "Not a valid choice"),
    ({"min_outside_team": "3"}, "cannot exceed"),
])
def test_bad_round_form_shows_one_message_and_adds_nothing(login, db, extra, message):
    """Bad input re-renders the editor with a 400 and a clear message; no round is written."""
    client = login("coordinator")
    row, comps = posting(db, {"t-a": MUST})
    response = client.post(f"/coordinator/postings/{row.id}/plan/rounds", data=_form(comps, **extra))
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert _names(db, row.id) == []


def test_edit_round_prefills_and_saves(login, db):
    """The edit page shows the round's values; saving changes them."""
    client = login("coordinator")
    row, comps = posting(db, {"t-a": MUST})
    item = add_round(db, row, comps, "Deep dive", {"t-a": "primary"}, focus_questions=["Why?"])
    url = f"/coordinator/postings/{row.id}/plan/rounds/{item.id}/edit"
    html = client.get(url).get_data(as_text=True)
    assert 'value="Deep dive"' in html and "Why?" in html
    assert client.post(url, data=_form(comps, name="Deeper dive")).status_code == 302
    assert _names(db, row.id) == ["Deeper dive"]


def test_move_and_remove_through_buttons(login, db):
    """Move down reorders; remove deletes; a bad direction flashes an error and changes nothing."""
    client = login("coordinator")
    row, comps = posting(db, {"t-a": MUST})
    first = add_round(db, row, comps, "A", {"t-a": "primary"}, position=0)
    add_round(db, row, comps, "B", {"t-a": "primary"}, position=1)
    base = f"/coordinator/postings/{row.id}/plan/rounds/{first.id}"
    client.post(f"{base}/move", data={"direction": "sideways"})
    assert _names(db, row.id) == ["A", "B"]
    assert client.post(f"{base}/move", data={"direction": "down"}).status_code == 302
    assert _names(db, row.id) == ["B", "A"]
    response = client.post(f"{base}/delete", follow_redirects=True)
    assert "Round &#39;A&#39; removed" in response.get_data(as_text=True)
    assert _names(db, row.id) == ["B"]


def test_round_of_unknown_posting_is_404(login, db):
    """Routes with a posting or round that does not exist answer 404."""
    client = login("coordinator")
    row, comps = posting(db, {"t-a": MUST})
    item = add_round(db, row, comps, "A", {"t-a": "primary"})
    assert client.get("/coordinator/postings/999999/plan").status_code == 404
    assert client.post(f"/coordinator/postings/999999/plan/rounds/{item.id}/delete").status_code == 404
    assert client.get(f"/coordinator/postings/{row.id}/plan/rounds/999999/edit").status_code == 404


def test_suggest_preview_then_apply_with_replace(login, db):
    """The preview changes nothing; applying without replace over an existing plan is refused."""
    client = login("coordinator")
    row, comps = posting(db, {"t-a": MUST, "t-b": MUST})
    add_round(db, row, comps, "Mine", {"t-a": "primary"})
    html = client.get(f"/coordinator/postings/{row.id}/plan/suggest?budget=240").get_data(as_text=True)
    assert "Replace the current round with this plan" in html
    assert _names(db, row.id) == ["Mine"]
    url = f"/coordinator/postings/{row.id}/plan/suggest"
    response = client.post(url, data={"budget": "240", "replace": ""}, follow_redirects=True)
    assert "confirm to replace them" in response.get_data(as_text=True)
    assert _names(db, row.id) == ["Mine"]
    assert client.post(url, data={"budget": "240", "replace": "yes"}).status_code == 302
    assert "Mine" not in _names(db, row.id)


def test_suggest_with_too_small_budget_explains_why(login, db):
    """A budget that cannot hold the must-haves shows the minimum needed, with a 400."""
    client = login("coordinator")
    row, _ = posting(db, {"t-a": MUST, "t-b": MUST})
    response = client.get(f"/coordinator/postings/{row.id}/plan/suggest?budget=45")
    assert response.status_code == 400
    assert "cannot cover every must-have" in response.get_data(as_text=True)


def test_publish_version_and_refuse_unchanged(login, db):
    """Publishing creates version 1; publishing again unchanged flashes why and creates nothing."""
    client = login("coordinator")
    row, comps = posting(db, {"t-a": MUST})
    add_round(db, row, comps, "A", {"t-a": "primary"})
    url = f"/coordinator/postings/{row.id}/plan/publish"
    response = client.post(url, data={"note": "Kick-off"}, follow_redirects=True)
    assert "Version 1 published" in response.get_data(as_text=True)
    response = client.post(url, data={"note": ""}, follow_redirects=True)
    assert "Nothing changed since version 1" in response.get_data(as_text=True)
    assert db.scalar(select(func.count(PlanVersion.id)).where(PlanVersion.posting_id == row.id)) == 1


def test_managers_cannot_edit_plans(login, db):
    """The round editor is coordinator-only."""
    row, _ = posting(db, {"t-a": MUST})
    client = login("manager")
    assert client.get(f"/coordinator/postings/{row.id}/plan").status_code == 403
    assert client.post(f"/coordinator/postings/{row.id}/plan/publish").status_code == 403


def test_plan_page_says_when_nobody_can_staff_a_round(login, db):
    """The headline stops saying all is covered and the round says nobody can staff it, until someone can."""
    from coverage_builders import interviewer

    client = login("coordinator")
    row, comps = unstaffable_round(db)
    html = client.get(f"/coordinator/postings/{row.id}/plan").get_data(as_text=True)
    assert "All 2 must-haves covered" not in html
    assert "1 round nobody can staff" in html and "Nobody can staff it" in html
    assert ("Nobody can staff &#39;Deep dive&#39;: no one is qualified in T a and T b together, "
            "and it has one interviewer.") in html
    interviewer(db, "ab@example.com", {comps["t-a"]: "qualified", comps["t-b"]: "qualified"})
    html = client.get(f"/coordinator/postings/{row.id}/plan").get_data(as_text=True)
    assert "All 2 must-haves covered" in html and "nobody can staff" not in html.lower()
    assert "1 person can staff it" in html
