"""The coordinator's outbox page: tabs and counts, failure reasons, resend, .eml/.ics downloads."""

from __future__ import annotations

import html
import re
from email import message_from_bytes, policy

import pytest
from invitedata import NOW, SETTINGS, make_loop
from sqlalchemy import select

from planner.models import Interviewer, OutboxMessage, OutboxState
from planner.services import invites


def _queue(db):
    scenario = make_loop(db, rounds=1)
    invites.announce_scheduled(db, [scenario.interviews[0].id], settings=SETTINGS, now=NOW)
    db.commit()
    rows = list(db.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
    rows[0].state, rows[0].last_error, rows[0].attempts = (
        OutboxState.FAILED,
        "550 5.1.1 mailbox unavailable",
        1,
    )
    rows[1].state, rows[1].sent_at = OutboxState.SENT, NOW
    db.commit()
    return rows


def test_outbox_lists_states_counts_and_reasons(login, db):
    """All messages are listed with counts per tab; the failed tab shows the reason; no-SMTP banner shows."""
    client = login("coordinator")
    rows = _queue(db)
    page = client.get("/coordinator/outbox").get_data(as_text=True)
    assert "No mail server is configured" in page
    assert page.count("data-message=") == 4
    failed = client.get("/coordinator/outbox?state=failed").get_data(as_text=True)
    assert failed.count("data-message=") == 1
    assert "550 5.1.1 mailbox unavailable" in failed and rows[0].recipient_email in failed
    pending = client.get("/coordinator/outbox?state=pending").get_data(as_text=True)
    assert pending.count("data-message=") == 2 and "Resend" not in pending
    assert client.get("/coordinator/outbox?state=bogus").status_code == 200


def test_banner_hidden_when_a_server_is_configured(app, login, db):
    """With MAIL_SERVER set the page names the server instead of the warning."""
    app.config["MAIL_SERVER"] = "smtp.hire.example"
    client = login("coordinator")
    page = client.get("/coordinator/outbox").get_data(as_text=True)
    assert "No mail server is configured" not in page and "smtp.hire.example:25" in page


def test_resend_puts_a_failed_message_back(login, db):
    """Resend turns a failed message into pending; resending a pending one is refused with a message."""
    client = login("coordinator")
    rows = _queue(db)
    response = client.post(f"/coordinator/outbox/{rows[0].id}/resend", follow_redirects=True)
    assert "Queued again for ana@hire.example" in response.get_data(as_text=True)
    db.expire_all()
    assert db.get(OutboxMessage, rows[0].id).state == OutboxState.PENDING
    refused = client.post(f"/coordinator/outbox/{rows[2].id}/resend", follow_redirects=True)
    assert "already queued" in refused.get_data(as_text=True)
    assert client.post("/coordinator/outbox/999999/resend", follow_redirects=True).status_code == 200


def test_eml_and_ics_downloads(login, db):
    """The .eml is the iMIP email with the fixed Message-ID; the .ics is the stored calendar object."""
    client = login("coordinator")
    rows = _queue(db)
    eml = client.get(f"/coordinator/outbox/{rows[2].id}.eml")
    assert eml.status_code == 200 and eml.mimetype == "message/rfc822"
    email = message_from_bytes(eml.data, policy=policy.default)
    assert email["Message-ID"] == rows[2].message_id
    assert email["From"].addresses[0].addr_spec == SETTINGS.organizer_email
    assert email["To"].addresses[0].addr_spec == rows[2].recipient_email
    ics = client.get(f"/coordinator/outbox/{rows[2].id}.ics")
    assert ics.status_code == 200 and ics.data == rows[2].ics
    assert ics.headers["Content-Type"] == "text/calendar; charset=utf-8"
    assert client.get("/coordinator/outbox/999999.eml").status_code == 404


def test_outbox_is_for_coordinators_only(login):
    """Interviewers get 403 on the outbox."""
    assert login("interviewer").get("/coordinator/outbox").status_code == 403


def test_outbox_pages_through_many_messages(app, login, db):
    """Newest first, a page at a time within the tab; odd page numbers show the nearest real page."""
    client = login("coordinator")
    _queue(db)  # 4 messages: 1 failed, 1 sent, 2 pending
    app.config["OUTBOX_PAGE_SIZE"] = 3
    newest = [
        m.id
        for m in db.scalars(select(OutboxMessage).order_by(OutboxMessage.created_at.desc(), OutboxMessage.id.desc()))
    ]
    shown = []
    for number in (1, 2):
        page = client.get(f"/coordinator/outbox?page={number}").get_data(as_text=True)
        shown += [int(x) for x in re.findall(r'data-message="(\d+)"', page)]
        assert f"page {number} of 2" in page
    assert shown == newest
    last = client.get("/coordinator/outbox?page=99").get_data(as_text=True)
    assert "4&ndash;4 of 4" in last and 'rel="next"' not in last and 'rel="prev"' in last
    assert "page 1 of 2" in client.get("/coordinator/outbox?page=zero").get_data(as_text=True)
    assert 'class="pager"' not in client.get("/coordinator/outbox?state=pending").get_data(as_text=True)
    app.config["OUTBOX_PAGE_SIZE"] = 1
    pending = client.get("/coordinator/outbox?state=pending&page=2").get_data(as_text=True)
    assert "2&ndash;2 of 2" in pending and pending.count("data-message=") == 1


def test_cancellations_are_marked_like_on_the_loop_page(login, db):
    """A CANCEL carries the red badge it has on the loop page; a REQUEST keeps the blue one."""
    client = login("coordinator")
    rows = _queue(db)
    rows[2].method = "CANCEL"
    db.commit()
    page = client.get("/coordinator/outbox").get_data(as_text=True)
    cancel = re.search(rf'data-message="{rows[2].id}".*?</tr>', page, re.S).group(0)
    request = re.search(rf'data-message="{rows[3].id}".*?</tr>', page, re.S).group(0)
    assert '<span class="badge badge-bad">CANCEL</span>' in cancel
    assert f'<span class="badge badge-brand">{rows[3].method}</span>' in request


def _two_loops(db):
    """Kim Lee's loop (4 messages: 1 failed, 1 sent, 2 pending) and Lou Park's (4 pending), written in turn."""
    rows = _queue(db)
    people = list(db.scalars(select(Interviewer).order_by(Interviewer.id)))
    other = make_loop(db, rounds=1, tag=" Lou", existing=people)
    other.candidate.name = "Lou Park"
    invites.announce_scheduled(db, [other.interviews[0].id], settings=SETTINGS, now=NOW)
    db.commit()
    return rows[0].loop_id, other.loop.id


def _shown(page: str) -> list[int]:
    return [int(x) for x in re.findall(r'data-message="(\d+)"', page)]


def test_outbox_filters_by_loop_with_counts_tabs_and_a_way_back(login, db):
    """?loop= narrows the list and every tab's count to one loop, says which, and offers to clear it."""
    client = login("coordinator")
    kim, lou = _two_loops(db)
    everything = client.get("/coordinator/outbox").get_data(as_text=True)
    assert len(_shown(everything)) == 8 and 'id="active-filter"' not in everything
    assert f'<option value="{kim}">Kim Lee — Senior ML Compiler Engineer (4)</option>' in everything
    assert f'<option value="{lou}">Lou Park — Senior ML Compiler Engineer (4)</option>' in everything
    assert f"/coordinator/outbox?state=all&amp;loop={lou}" in everything  # each row links to its loop's filter
    page = client.get(f"/coordinator/outbox?loop={lou}").get_data(as_text=True)
    lous = set(db.scalars(select(OutboxMessage.id).where(OutboxMessage.loop_id == lou)))
    assert set(_shown(page)) == lous and len(lous) == 4
    banner = re.search(r'id="active-filter".*?</p>', page, re.S).group(0)
    assert "Lou Park" in banner and f'href="/coordinator/loops/{lou}"' in banner
    assert 'href="/coordinator/outbox?state=all"' in banner and "Clear filter" in banner
    assert f'<option selected value="{lou}">' in page
    assert f'href="/coordinator/outbox?state=failed&amp;loop={lou}"' in page  # the tabs keep the filter
    assert re.search(r"Failed <span class=\"badge \">0</span>", page)
    failed = client.get(f"/coordinator/outbox?state=failed&loop={kim}").get_data(as_text=True)
    assert len(_shown(failed)) == 1
    empty = client.get(f"/coordinator/outbox?state=failed&loop={lou}").get_data(as_text=True)
    assert "No failed messages for Lou Park's loop." in empty


def test_outbox_loop_filter_keeps_paging(app, login, db):
    """Pages count and link within the chosen loop; the pager and resend keep the filter."""
    client = login("coordinator")
    kim, _lou = _two_loops(db)
    app.config["OUTBOX_PAGE_SIZE"] = 3
    newest = list(db.scalars(select(OutboxMessage.id).where(OutboxMessage.loop_id == kim)
                             .order_by(OutboxMessage.created_at.desc(), OutboxMessage.id.desc())))
    first = client.get(f"/coordinator/outbox?loop={kim}").get_data(as_text=True)
    assert "1&ndash;3 of 4" in first and "page 1 of 2" in first
    assert f'href="/coordinator/outbox?state=all&amp;page=2&amp;loop={kim}"' in first
    second = client.get(f"/coordinator/outbox?loop={kim}&page=2").get_data(as_text=True)
    assert _shown(first) + _shown(second) == newest
    assert "4&ndash;4 of 4" in client.get(f"/coordinator/outbox?loop={kim}&page=9").get_data(as_text=True)
    failed = db.scalar(select(OutboxMessage).where(OutboxMessage.loop_id == kim,
                                                   OutboxMessage.state == OutboxState.FAILED))
    assert f"/coordinator/outbox/{failed.id}/resend?state=all&amp;page=2&amp;loop={kim}" in second  # the oldest
    back = client.post(f"/coordinator/outbox/{failed.id}/resend?state=failed&page=1&loop={kim}")
    assert back.location.endswith(f"/coordinator/outbox?state=failed&page=1&loop={kim}")


@pytest.mark.parametrize(("loop", "message"), [
    ("987654", "There is no loop #987654; showing the messages of every loop."),
    ("99999999999999", "There is no loop #99999999999999; showing the messages of every loop."),
    ("kim", "That is not a loop number; showing the messages of every loop."),
    ("-1", "That is not a loop number; showing the messages of every loop."),
])
def test_an_unknown_loop_filter_is_said_once_and_lists_every_message(login, db, loop, message):
    """A loop id that does not exist, or is no number at all, is named beside the filter; nothing is hidden."""
    client = login("coordinator")
    _two_loops(db)
    response = client.get(f"/coordinator/outbox?loop={loop}")
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 200
    assert page.count(message) == 1 and page.count('role="alert"') == 1
    assert len(_shown(page)) == 8 and 'id="active-filter"' not in page


def test_a_loop_without_messages_can_be_chosen_and_says_so(login, db):
    """A draft loop has no messages yet: the filter still names it, with an empty list and the way back."""
    from loopworld import World

    client = login("coordinator")
    _two_loops(db)
    draft = World(db).loop("Ada Draft")
    db.commit()
    page = client.get(f"/coordinator/outbox?loop={draft.id}").get_data(as_text=True)
    assert 'id="active-filter"' in page and "Ada Draft" in page and _shown(page) == []
    assert "No messages for Ada Draft's loop." in page
    assert "Ada Draft" not in client.get("/coordinator/outbox").get_data(as_text=True)


def test_the_loop_page_links_to_its_messages_in_the_outbox(login, db):
    """A scheduled loop's 'Calendar messages' card links to the outbox filtered by that loop."""
    client = login("coordinator")
    kim, _lou = _two_loops(db)
    page = client.get(f"/coordinator/loops/{kim}").get_data(as_text=True)
    assert f'href="/coordinator/outbox?loop={kim}">all messages for this loop in the outbox</a>' in page
    assert "all 4 ·" in page

