"""The proposal page's trainee seats: Drop, Add a trainee, and bad forms that change nothing."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from loopworld import World
from sqlalchemy import func, select

from planner.models import Interview, Loop, LoopStatus, Seat, SeatRole


def _token(page: str) -> str:
    match = re.search(r'name="proposal"[^>]*value="([^"]+)"', page)
    assert match, "the page carries a signed proposal"
    return html.unescape(match.group(1))


def _carried(app, loop_id: int, location: str) -> list[dict] | None:
    """The proposal carried by a redirect to the schedule page (None when it asks for a fresh one)."""
    from planner.web.coordinator.proposal_pages import proposal_from_token as _untoken

    token = parse_qs(urlsplit(location).query).get("p", [None])[0]
    with app.test_request_context():
        return _untoken(loop_id, token)


def _tech(interviews) -> dict:
    return next(i for i in interviews if i["round"] == "tech")


@pytest.fixture
def world(db):
    world = World(db)
    world.pool = world.basic_pool()
    world.loop_obj = world.loop()
    db.commit()
    return world


def _schedule(client, world) -> str:
    page = client.get(f"/coordinator/loops/{world.loop_obj.id}/schedule").get_data(as_text=True)
    assert "Drop trainee Dev from Compiler deep-dive" in page
    return page


def test_drop_then_add_a_trainee_then_confirm(app, login, world, db):
    """Drop takes Dev out of the round, the page offers the seat again, Add seats Eve, confirm keeps Eve."""
    eve = world.person("Eve", "America/New_York", {"compiler-design": "reverse-shadow"})
    db.commit()
    client = login("coordinator")
    loop_id, dev = world.loop_obj.id, world.pool["dev"]
    token = _token(_schedule(client, world))
    dropped = client.post(f"/coordinator/loops/{loop_id}/schedule/trainees/drop",
                          data={"proposal": token, "round": "tech", "trainee": dev.id})
    assert dropped.status_code == 302 and dropped.location.endswith("#round-tech")
    assert _tech(_carried(app, loop_id, dropped.location))["trainees"] == []
    page = client.get(dropped.location.split("#")[0]).get_data(as_text=True)
    assert "Dev no longer sits in &#39;Compiler deep-dive&#39; as a trainee" in page
    assert "No trainee" in page and "Drop trainee" not in page
    options_link = html.unescape(re.search(r'href="([^"]*/schedule/trainees\?[^"]*)"', page).group(1))
    assert "round=tech" in options_link and "Add a trainee to Mentoring" not in page  # no seat in that plan round
    options = client.get(options_link.split("#")[0]).get_data(as_text=True)
    region = re.search(r'aria-label="Trainees".*?</div>', options, re.S).group(0)
    assert "Add Dev" in region and "Add Eve" in region and "Cleo" not in region
    assert "training in Compiler design (reverse-shadow)" in region
    added = client.post(f"/coordinator/loops/{loop_id}/schedule/trainees/add",
                        data={"proposal": _token(options), "round": "tech", "trainee": eve.id})
    assert added.status_code == 302
    assert _tech(_carried(app, loop_id, added.location))["trainees"] == [f"p{eve.id}"]
    page = client.get(added.location.split("#")[0]).get_data(as_text=True)
    assert "Eve joins &#39;Compiler deep-dive&#39; as a trainee" in page
    assert client.post(f"/coordinator/loops/{loop_id}/schedule/confirm",
                       data={"proposal": _token(page)}).status_code == 302
    db.expire_all()
    assert db.get(Loop, loop_id).status == LoopStatus.SCHEDULED
    trainees = db.scalars(select(Seat.interviewer_id).join(Interview)
                          .where(Interview.loop_id == loop_id, Seat.role == SeatRole.TRAINEE)).all()
    assert trainees == [eve.id]


@pytest.mark.parametrize(("form", "message"), [
    ({"round": "tech", "trainee": "ANA"}, "not a trainee in this round"),  # an assessor is not dropped
    ({"round": "mentor", "trainee": "DEV"}, "not a trainee in this round"),
    ({"round": "tech", "trainee": "987654"}, "not a trainee in this round"),
    ({"round": "lunch", "trainee": "DEV"}, "That round is not in the proposal"),
    ({"round": "tech", "trainee": "dev"}, "That trainee seat is not in the proposal"),  # not a number
    ({"round": "", "trainee": "DEV"}, "That trainee seat is not in the proposal"),
])
def test_a_bad_drop_says_so_once_and_keeps_the_proposal(app, login, world, db, form, message):
    """Unknown rounds and people, an assessor, or malformed fields: one message, the same proposal back."""
    client = login("coordinator")
    loop_id = world.loop_obj.id
    token = _token(_schedule(client, world))
    with app.test_request_context():
        from planner.web.coordinator.proposal_pages import proposal_from_token as _untoken

        before = _untoken(loop_id, token)
    ids = {"ANA": str(world.pool["ana"].id), "DEV": str(world.pool["dev"].id)}
    data = {"proposal": token, **{k: ids.get(v, v) for k, v in form.items()}}
    response = client.post(f"/coordinator/loops/{loop_id}/schedule/trainees/drop", data=data)
    assert response.status_code == 302
    assert _carried(app, loop_id, response.location) == before
    page = client.get(response.location).get_data(as_text=True)
    assert page.count('class="flash flash-error"') == 1 and message in html.unescape(page)
    assert db.scalar(select(func.count(Interview.id))) == 0


def test_a_tampered_proposal_asks_for_a_fresh_one(app, login, world, db):
    """A token the app did not sign (or another loop's) is refused: a fresh proposal, nothing carried over."""
    client = login("coordinator")
    loop_id, dev = world.loop_obj.id, world.pool["dev"]
    other = world.loop("Lou Park")
    db.commit()
    other_token = _token(client.get(f"/coordinator/loops/{other.id}/schedule").get_data(as_text=True))
    for url, data in [
        (f"/coordinator/loops/{loop_id}/schedule/trainees/drop",
         {"proposal": "eyJsb29wIjoxfQ.forged", "round": "tech", "trainee": dev.id}),
        (f"/coordinator/loops/{loop_id}/schedule/trainees/add",
         {"proposal": other_token, "round": "tech", "trainee": dev.id}),
    ]:
        response = client.post(url, data=data)
        assert response.status_code == 302 and response.location.endswith(f"/coordinator/loops/{loop_id}/schedule")
        assert "The proposal had expired" in client.get(f"/coordinator/loops/{loop_id}").get_data(as_text=True)


def test_adding_someone_who_is_not_an_option_is_refused(app, login, world, db):
    """Cleo holds no training in the round: the seat stays empty and the page says why in one sentence."""
    client = login("coordinator")
    loop_id, pool = world.loop_obj.id, world.pool
    token = _token(_schedule(client, world))
    dropped = client.post(f"/coordinator/loops/{loop_id}/schedule/trainees/drop",
                          data={"proposal": token, "round": "tech", "trainee": pool["dev"].id})
    emptied = _carried(app, loop_id, dropped.location)
    client.get(dropped.location)  # reads the drop's flash
    token = parse_qs(urlsplit(dropped.location).query)["p"][0]
    for round_key, who, message in [("tech", "cleo", "cannot take the trainee seat"),
                                    ("mentor", "dev", "has no trainee seat in the plan")]:
        response = client.post(f"/coordinator/loops/{loop_id}/schedule/trainees/add",
                               data={"proposal": token, "round": round_key, "trainee": pool[who].id})
        assert _carried(app, loop_id, response.location) == emptied
        page = html.unescape(client.get(response.location).get_data(as_text=True))
        assert page.count('class="flash flash-error"') == 1 and message in page


def test_trainee_seats_of_a_scheduled_loop_are_not_edited(login, world, db):
    """After confirming, a Drop from an old tab goes back to the loop with a plain note; nothing changes."""
    client = login("coordinator")
    loop_id = world.loop_obj.id
    token = _token(_schedule(client, world))
    client.post(f"/coordinator/loops/{loop_id}/schedule/confirm", data={"proposal": token})
    response = client.post(f"/coordinator/loops/{loop_id}/schedule/trainees/drop",
                           data={"proposal": token, "round": "tech", "trainee": world.pool["dev"].id})
    assert response.status_code == 302 and response.location.endswith(f"/coordinator/loops/{loop_id}")
    db.expire_all()
    assert db.scalar(select(func.count(Seat.id)).where(Seat.role == SeatRole.TRAINEE)) == 1


def test_other_roles_cannot_edit_trainee_seats(login, world):
    """Interviewers are refused on the trainee-seat pages."""
    client = login("interviewer")
    loop_id = world.loop_obj.id
    assert client.get(f"/coordinator/loops/{loop_id}/schedule/trainees?round=tech").status_code == 403
    assert client.post(f"/coordinator/loops/{loop_id}/schedule/trainees/drop", data={}).status_code == 403
