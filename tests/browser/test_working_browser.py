"""Long actions in a real browser: the control says it is working at once, and a form is sent only once.

To look at the in-between state without depending on how fast the scheduler is, a listener on
``window`` (it runs after the page's own listeners on ``document``) records what the page decided and
then stops the navigation, so the page stays to be inspected. The real round trips are driven after.
"""

from __future__ import annotations

from browserutil import screenshot, sign_in

# Runs after working.js (document listeners fire before window listeners): records whether the page
# let the action through, then keeps the page where it is.
_RECORD_AND_STAY = """
window.__seen = [];
window.addEventListener('click', e => {
  if (e.target.closest('a')) { window.__seen.push(e.defaultPrevented); e.preventDefault(); }
});
window.addEventListener('submit', e => { window.__seen.push(e.defaultPrevented); e.preventDefault(); });
"""


def test_schedule_all_draft_loops_says_it_is_working(page):
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/loops")
    page.get_by_role("link", name="Senior ML Compiler Engineer, Neuron").first.click()
    page.wait_for_load_state("networkidle")
    posting_loops = page.url
    page.evaluate(_RECORD_AND_STAY)
    link = page.get_by_role("link", name="Schedule all draft loops")
    link.click()
    working = page.locator("a.is-working")
    assert working.inner_text().strip() == "Scheduling 2 loops…"
    assert working.get_attribute("aria-disabled") == "true"
    assert page.locator("body").get_attribute("aria-busy") == "true"
    assert page.evaluate("window.__seen") == [False]  # the page let the first click through
    screenshot(page, "loops-hiring-event-working")
    # A second click on the working link is refused by the page itself.
    page.evaluate("document.querySelector('a.is-working').click()")
    assert page.evaluate("window.__seen") == [False, True]
    # For real now: the proposals arrive and the page is no longer busy.
    page.goto(posting_loops)
    page.get_by_role("link", name="Schedule all draft loops").click()
    page.wait_for_load_state("networkidle")
    assert page.locator(".batch-loop").count() == 2
    assert page.locator("body").get_attribute("aria-busy") is None


def test_confirm_is_sent_once_however_often_it_is_pressed(page):
    sign_in(page, "coordinator@demo.test")
    page.goto("/coordinator/loops")
    page.get_by_role("link", name="Sam Okafor").click()
    page.get_by_role("link", name="Schedule", exact=True).first.click()
    page.wait_for_load_state("networkidle")
    proposal = page.url
    page.evaluate(_RECORD_AND_STAY)
    page.get_by_role("button", name="Confirm schedule").click()
    assert page.locator("button.is-working").inner_text().strip() == "Confirming…"
    # Pressed again (Enter, or a click before the button greys out): the page does not send it twice.
    page.evaluate("document.querySelector('button.is-working').form.requestSubmit()")
    assert page.evaluate("window.__seen") == [False, True]
    # For real now: one press confirms.
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    page.goto(proposal)
    page.get_by_role("button", name="Confirm schedule").click()
    page.wait_for_load_state("networkidle")
    assert "Scheduled 6 interviews for Sam Okafor" in page.locator(".flashes").inner_text()
    assert len([url for url in posts if url.endswith("/schedule/confirm")]) == 1
