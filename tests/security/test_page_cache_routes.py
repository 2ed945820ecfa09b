"""Pages the page cache may serve again: each is a pure read, and a kept copy goes only to its own reader."""

from __future__ import annotations

from planner.data_version import local_writes
from tests.security.test_route_matrix import ANON, ROLES, ROUTES, _rules, _url

#: The pages people reload most. A page joins this list only after checking it reads and never writes.
EXPECTED = {
    "coordinator.home", "coordinator.postings_list", "coordinator.posting_view", "coordinator.plan_edit",
    "coordinator.competencies_list", "coordinator.pool_list", "coordinator.pool_view", "coordinator.loops_list",
    "coordinator.posting_loops", "coordinator.loop_view", "coordinator.outbox_list", "manager.home",
    "manager.posting_coverage", "manager.posting_evidence", "interviewer.home", "feeds.feed_ics",
}


def _kept_rules(app):
    return [rule for rule in _rules(app) if getattr(app.view_functions[rule.endpoint], "page_cache", False)]


def test_the_marked_pages_are_the_expected_ones(matrix_env):
    assert {rule.endpoint for rule in _kept_rules(matrix_env.app)} == EXPECTED


def test_kept_pages_write_nothing_and_are_served_to_their_reader_only(matrix_env):
    """Every marked page: its GET runs no statement that writes, the second GET is served from the cache
    with the same body, and each other role still gets exactly the matrix's answer afterwards."""
    env, problems = matrix_env, []
    store = env.app.extensions["planner.page_cache"]
    clients = {role: env.client(None if role == ANON else role) for role in ROLES}
    for rule in _kept_rules(env.app):
        access = ROUTES[rule.endpoint]
        url = _url(env, rule, access)
        reader = next(role for role in ROLES if access.get_status(role) == 200)
        # A fresh visitor: the shared anonymous client carries "please sign in" messages, which bypass the cache.
        reading = env.client(None) if reader == ANON else clients[reader]
        writes = local_writes()
        first = reading.get(url)
        if local_writes() != writes:
            problems.append(f"GET {url} as {reader} ran a statement that writes")
        hits = store.hits
        second = reading.get(url)
        if store.hits != hits + 1 or second.data != first.data:
            problems.append(f"GET {url} as {reader} again was not served from the cache unchanged")
        for role in ROLES:
            if role == reader:
                continue
            expected, response = access.get_status(role), clients[role].get(url)
            got = response.status_code
            if expected == "login":
                ok = got == 302 and response.headers["Location"].startswith("/login")
            else:
                ok = got == expected
            if not ok:
                problems.append(f"GET {url} as {role} after {reader} had it kept: {got}, expected {expected}")
    assert not problems, "\n".join(problems)
