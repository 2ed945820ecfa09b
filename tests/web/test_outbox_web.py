"""The coordinator's outbox page: tabs and counts, failure reasons, resend, .eml/.ics downloads."""

from __future__ import annotations

import re
from email import message_from_bytes, policy

from invitedata import NOW, SETTINGS, make_loop
from sqlalchemy import select

from planner.models import OutboxMessage, OutboxState
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
