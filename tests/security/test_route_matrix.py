"""Every route of the URL map, asked by anonymous visitors and each role, answers as declared below.

A route that is not declared fails the test with the line to add. For each route:

* GET: anonymous visitors go to the login page (unless public); each role gets the declared status,
  with ids of rows that exist and, for an interviewer's own pages, belong to another interviewer;
  no GET changes any row.
* POST (and any other writing method): a request without its CSRF token is refused (400) for
  everybody; with a valid token, a role that may not write is refused (login, 403 or 404); neither
  changes a row (row counts of every table, audit entries included, are equal before and after).
  A role that may write, sending an empty form, gets an answer, never a server error.
* A manager can change nothing but their own account.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest
from flask import url_for

from tests.security.matrixworld import row_counts
from tests.security.securityutil import csrf_token

ANON, COORD, MANAGER, INTERVIEWER = "anonymous", "coordinator", "manager", "interviewer"
ROLES = (ANON, COORD, MANAGER, INTERVIEWER)
SIGNED_IN_ROLES = (COORD, MANAGER, INTERVIEWER)
LOGIN = "login"  # the expected answer "302 to the login page"
WRITING_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
#: What a manager may change: their own sign-in and settings, nothing of the hiring data.
MANAGER_MAY_WRITE = {"auth.login", "auth.logout", "account.preferences_save", "account.password_save"}
#: Routes whose key is a signed link, not a role: whoever holds a candidate's link acts as that candidate.
LINK_KEYED = {"candidate.timezone_set", "candidate.book", "candidate.reschedule", "candidate.cancel",
              "candidate.availability"}


@dataclass(frozen=True)
class Access:
    """Who may read and write one route, and what everybody else gets.

    ``read``: roles whose GET answers ``ok``; the other signed-in roles get ``denied``, anonymous
    visitors the login page unless ANON is listed. ``write``: roles whose POST passes the gate.
    ``foreign``: the status a reader gets for ids that belong to somebody else (their own get ``ok``).
    ``query``: query-string arguments, each naming a key of the world's ids. ``args``: URL arguments whose
    id has another name in the world (``{"token": "feed_token"}``); the others are looked up by their own name.
    """

    read: tuple[str, ...]
    write: tuple[str, ...] = ()
    ok: int | dict[str, int] = 200
    denied: int = 403
    foreign: int | None = None
    query: dict[str, str] = field(default_factory=dict)
    args: dict[str, str] = field(default_factory=dict)

    def get_status(self, role: str) -> int | str:
        if role in self.read:
            if self.foreign is not None:
                return self.foreign
            return self.ok.get(role, 200) if isinstance(self.ok, dict) else self.ok
        return LOGIN if role == ANON else self.denied

    def post_denied(self, role: str) -> int | str:
        return LOGIN if role == ANON else self.denied

    def but(self, **changes) -> Access:
        return replace(self, **changes)


COORDINATOR = Access(read=(COORD,), write=(COORD,))
MANAGER_ONLY = Access(read=(MANAGER,))
MANAGER_AND_COORDINATOR = Access(read=(MANAGER, COORD))
INTERVIEWER_HOME = Access(read=(INTERVIEWER,), write=(INTERVIEWER,))
#: An interviewer's own interview pages: another interviewer's id is "not found", not "forbidden".
INTERVIEWER_OWN = Access(read=(INTERVIEWER,), write=(INTERVIEWER,), foreign=404)
SIGNED_IN = Access(read=SIGNED_IN_ROLES, write=SIGNED_IN_ROLES)
PUBLIC = Access(read=ROLES)
#: A URL whose token is the credential (calendar feeds): anyone holding it reads; a made-up one is 404.
TOKEN = Access(read=ROLES)
#: The candidate's self-scheduling page: its signed link is the key, and whoever holds it may act on it.
CANDIDATE = Access(read=ROLES, write=ROLES, args={"token": "candidate_token"})

# One line per endpoint. A new route: add "<endpoint>": <access>, and, if its URL has an argument
# the world has no id for, add that id in tests/security/matrixworld.py (build_world's ids).
ROUTES: dict[str, Access] = {
    "static": PUBLIC,
    "health.healthz": PUBLIC,
    "auth.index": SIGNED_IN.but(ok=302),
    "auth.login": Access(read=ROLES, write=ROLES, ok={ANON: 200, COORD: 302, MANAGER: 302, INTERVIEWER: 302}),
    "auth.logout": SIGNED_IN.but(read=()),
    "account.settings": SIGNED_IN,
    "account.preferences_save": SIGNED_IN,
    "account.password_save": SIGNED_IN,
    "feeds.feed_ics": TOKEN.but(args={"token": "feed_token"}),
    "coordinator.home": COORDINATOR,
    "coordinator.competencies_list": COORDINATOR,
    "coordinator.competency_new": COORDINATOR,
    "coordinator.competency_edit": COORDINATOR,
    "coordinator.competency_retire": COORDINATOR,
    "coordinator.competency_restore": COORDINATOR,
    "coordinator.postings_list": COORDINATOR,
    "coordinator.posting_new": COORDINATOR,
    "coordinator.posting_edit": COORDINATOR,
    "coordinator.posting_view": COORDINATOR,
    "coordinator.posting_competency_update": COORDINATOR,
    "coordinator.posting_competency_add": COORDINATOR,
    "coordinator.posting_suggestions_accept": COORDINATOR,
    "coordinator.posting_suggestions_refresh": COORDINATOR,
    "coordinator.plan_edit": COORDINATOR,
    "coordinator.round_add": COORDINATOR,
    "coordinator.round_edit": COORDINATOR,
    "coordinator.round_move": COORDINATOR,
    "coordinator.round_delete": COORDINATOR,
    "coordinator.plan_suggest": COORDINATOR,
    "coordinator.plan_suggest_apply": COORDINATOR,
    "coordinator.plan_publish": COORDINATOR,
    "coordinator.pool_list": COORDINATOR,
    "coordinator.pool_new": COORDINATOR,
    "coordinator.pool_edit": COORDINATOR,
    "coordinator.pool_view": COORDINATOR,
    "coordinator.pool_deactivate": COORDINATOR,
    "coordinator.pool_reactivate": COORDINATOR,
    "coordinator.pool_qualification_add": COORDINATOR,
    "coordinator.pool_qualification_update": COORDINATOR,
    "coordinator.pool_qualification_remove": COORDINATOR,
    "coordinator.pool_promote": COORDINATOR,
    "coordinator.pool_busy_add": COORDINATOR,
    "coordinator.pool_busy_delete": COORDINATOR,
    "coordinator.pool_busy_import": COORDINATOR,
    "coordinator.pool_import_remove": COORDINATOR,
    "coordinator.loops_list": COORDINATOR,
    "coordinator.loop_new": COORDINATOR,
    "coordinator.loop_view": COORDINATOR,
    "coordinator.loop_windows": COORDINATOR,
    "coordinator.loop_cancel": COORDINATOR,
    "coordinator.loop_schedule": COORDINATOR,
    "coordinator.loop_swap": COORDINATOR.but(ok=302),  # without a round to swap: back to the proposal
    "coordinator.loop_move": COORDINATOR.but(ok=302),
    "coordinator.loop_confirm": COORDINATOR,
    "coordinator.loop_trainees": COORDINATOR.but(ok=302),
    "coordinator.loop_trainee_drop": COORDINATOR,
    "coordinator.loop_trainee_add": COORDINATOR,
    "coordinator.posting_loops": COORDINATOR,
    "coordinator.posting_loops_schedule": COORDINATOR,
    "coordinator.posting_loops_confirm": COORDINATOR,
    "coordinator.interview_replace": COORDINATOR.but(query={"leaving": "leaving_id"}),
    "coordinator.interview_reschedule": COORDINATOR,
    "coordinator.interview_cancel": COORDINATOR,
    "coordinator.interview_place": COORDINATOR,
    "coordinator.posting_competency_switch": COORDINATOR,
    "coordinator.pool_calendar_save": COORDINATOR,
    "coordinator.pool_calendar_sync": COORDINATOR,
    "coordinator.pool_calendar_remove": COORDINATOR,
    "coordinator.reply_upload": COORDINATOR,
    "coordinator.inbox_list": COORDINATOR,
    "coordinator.counter_move": COORDINATOR,
    "coordinator.counter_dismiss": COORDINATOR,
    "coordinator.interview_rebook": COORDINATOR.but(ok=302),  # the world's round is not cancelled: back to its loop
    "coordinator.candidate_link": COORDINATOR,
    "coordinator.candidate_link_issue": COORDINATOR,
    "coordinator.candidate_link_revoke": COORDINATOR,
    "coordinator.audit_list": COORDINATOR,
    "coordinator.audit_csv": COORDINATOR,
    "coordinator.outbox_list": COORDINATOR,
    "coordinator.outbox_resend": COORDINATOR,
    "coordinator.outbox_eml": COORDINATOR,
    "coordinator.outbox_ics": COORDINATOR,
    "interviewer.home": INTERVIEWER_HOME,
    "interviewer.feed_rotate": INTERVIEWER_HOME,
    "interviewer.interview_ics": INTERVIEWER_OWN,
    "interviewer.scorecard_edit": INTERVIEWER_OWN,
    "interviewer.interview_answer": INTERVIEWER_OWN,
    "interviewer.hours_update": INTERVIEWER_HOME,
    "interviewer.busy_import": INTERVIEWER_HOME,
    "interviewer.busy_import_remove": INTERVIEWER_HOME,
    "interviewer.calendar_save": INTERVIEWER_HOME,
    "interviewer.calendar_sync": INTERVIEWER_HOME,
    "interviewer.calendar_remove": INTERVIEWER_HOME,
    # The candidate's page: the signed link is the key, for anyone holding it, signed in or not.
    "candidate.page": CANDIDATE,
    "candidate.itinerary_ics": CANDIDATE.but(ok=404),  # nothing booked yet on the world's link: no itinerary
    "candidate.timezone_set": CANDIDATE,
    "candidate.book": CANDIDATE,
    "candidate.reschedule": CANDIDATE,
    "candidate.cancel": CANDIDATE,
    "candidate.availability": CANDIDATE,
    "manager.home": MANAGER_ONLY,
    "manager.posting_coverage": MANAGER_ONLY,
    "manager.posting_coverage_csv": MANAGER_ONLY,
    "manager.posting_evidence": MANAGER_AND_COORDINATOR,
}


def _rules(app):
    return sorted(app.url_map.iter_rules(), key=lambda r: (r.rule, r.endpoint))


def _url(env, rule, access: Access, ids: dict | None = None) -> str:
    ids = {**env.world.ids, **(ids or {})}
    names = {a: access.args.get(a, a) for a in rule.arguments}
    missing = sorted(name for name in names.values() if name not in ids)
    assert not missing, (
        f"{rule.rule} ({rule.endpoint}) has URL arguments {missing} the matrix world has no id for: "
        f"add them to build_world's ids in tests/security/matrixworld.py (or map them with Access(args=...))")
    values = {a: ids[name] for a, name in names.items()}
    values.update({name: ids[key] for name, key in access.query.items()})
    with env.app.test_request_context():
        return url_for(rule.endpoint, **values)


def _check(response, expected, what: str) -> str | None:
    response.close()  # static files are streamed from an open file
    if expected == LOGIN:
        location = response.headers.get("Location", "")
        if response.status_code == 302 and location.startswith("/login"):
            return None
        return f"{what}: expected a redirect to the login page, got {response.status_code} {location}"
    if response.status_code != expected:
        return f"{what}: expected {expected}, got {response.status_code}"
    return None


def test_every_route_is_declared(matrix_env):
    """Each rule of the URL map has a line in ROUTES, and each line still names a route."""
    endpoints = {rule.endpoint: rule for rule in _rules(matrix_env.app)}
    undeclared = [endpoints[e] for e in sorted(endpoints) if e not in ROUTES]
    lines = [f'    "{r.endpoint}": <access>,  # {r.rule} {sorted(r.methods - {"HEAD", "OPTIONS"})}'
             for r in undeclared]
    assert not undeclared, (
        "These routes have no expected answers. Add one line each to ROUTES in "
        "tests/security/test_route_matrix.py, with <access> one of COORDINATOR, MANAGER_ONLY, "
        "MANAGER_AND_COORDINATOR, INTERVIEWER_HOME, INTERVIEWER_OWN, SIGNED_IN, PUBLIC, TOKEN "
        "(or Access(read=..., write=..., ok=...)); URL arguments the world lacks go in matrixworld.build_world:\n"
        + "\n".join(lines))
    stale = sorted(set(ROUTES) - set(endpoints))
    assert not stale, f"ROUTES declares endpoints the app no longer has; remove them: {stale}"


def test_managers_can_change_nothing_but_their_account(app):
    """No writing route lets a manager through except signing in and out and their own settings."""
    writing = {rule.endpoint for rule in app.url_map.iter_rules() if rule.methods & WRITING_METHODS}
    writable = {endpoint for endpoint in writing if MANAGER in ROUTES.get(endpoint, PUBLIC).write}
    assert writable <= MANAGER_MAY_WRITE | LINK_KEYED, sorted(writable - MANAGER_MAY_WRITE - LINK_KEYED)


def test_get_answers_match_the_matrix(matrix_env):
    """Anonymous and each role get the declared answer on every GET route, and no GET writes."""
    env, problems = matrix_env, []
    clients = {role: env.client(None if role == ANON else role) for role in ROLES}
    with env.factory() as session:
        before = row_counts(session)
    for rule in _rules(env.app):
        access = ROUTES.get(rule.endpoint)
        if access is None or "GET" not in rule.methods:
            continue
        url = _url(env, rule, access)
        for role in ROLES:
            problems.append(_check(clients[role].get(url), access.get_status(role), f"GET {url} as {role}"))
        if access.foreign is not None:
            own = _url(env, rule, access, {"interview_id": env.world.own_interview_id})
            problems.append(_check(clients[INTERVIEWER].get(own), 200, f"GET {own} (own) as interviewer"))
    with env.factory() as session:
        assert row_counts(session) == before, "a GET request changed rows"
    problems = [p for p in problems if p]
    assert not problems, "\n".join(problems)


def test_feed_tokens_are_the_only_key(matrix_env):
    """A made-up or rotated feed token is 404 for everybody; the current token answers without login."""
    env = matrix_env
    anonymous = env.client(None)
    assert anonymous.get(f"/feeds/{env.world.others_feed_token}.ics").status_code == 200
    assert anonymous.get("/feeds/not-a-real-token.ics").status_code == 404
    jordan = env.client(INTERVIEWER)
    old = env.world.own_feed_token
    assert jordan.post("/interviewer/feed/rotate", data={"csrf_token": csrf_token(jordan)}).status_code == 302
    for client in (anonymous, jordan, env.client(COORD)):
        assert client.get(f"/feeds/{old}.ics").status_code == 404


def test_writes_need_csrf_and_the_right_role(matrix_env):
    """Every writing route refuses a missing CSRF token and the wrong role, and both change no row."""
    env, problems = matrix_env, []
    clients = {role: env.client(None if role == ANON else role) for role in ROLES}
    tokens = {role: csrf_token(client, "/login" if role == ANON else "/account/") for role, client in clients.items()}
    with env.factory() as session:
        before = row_counts(session)
    for rule in _rules(env.app):
        access = ROUTES.get(rule.endpoint)
        methods = sorted(rule.methods & WRITING_METHODS)
        if access is None or not methods:
            continue
        url = _url(env, rule, access)
        for method in methods:
            for role in ROLES:
                send = getattr(clients[role], method.lower())
                what = f"{method} {url} as {role}"
                response = send(url, data={})
                response.close()
                if response.status_code != 400:
                    problems.append(f"{what} without a CSRF token: expected 400, got {response.status_code}")
                if role not in access.write:
                    response = send(url, data={"csrf_token": tokens[role]})
                    problems.append(_check(response, access.post_denied(role), f"{what} with a token"))
                with env.factory() as session:
                    if row_counts(session) != before:
                        problems.append(f"{what}: a refused write changed rows")
                        before = row_counts(session)
    problems = [p for p in problems if p]
    assert not problems, "\n".join(problems)


def test_empty_forms_from_allowed_roles_never_fail(matrix_env):
    """A role allowed to write, posting an empty form (valid token) to any route, gets no server error."""
    env, problems = matrix_env, []
    clients = {role: env.client(None if role == ANON else role) for role in ROLES}
    tokens = {role: csrf_token(client, "/login" if role == ANON else "/account/") for role, client in clients.items()}
    for rule in _rules(env.app):
        access = ROUTES.get(rule.endpoint)
        if access is None or rule.endpoint in ("auth.logout",) or not rule.methods & WRITING_METHODS:
            continue
        url = _url(env, rule, access)
        for role in access.write:
            savepoint = env.connection.begin_nested()
            try:
                response = clients[role].post(url, data={"csrf_token": tokens[role]})
            finally:
                savepoint.rollback()
            if response.status_code >= 500:
                problems.append(f"POST {url} as {role} with an empty form: {response.status_code}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("endpoint", ["interviewer.interview_ics", "interviewer.scorecard_edit"])
def test_interviewers_cannot_reach_each_others_interviews(matrix_env, endpoint):
    """Another interviewer's interview is 404 for the .ics and the scorecard, GET and POST alike."""
    env = matrix_env
    rule = next(r for r in env.app.url_map.iter_rules() if r.endpoint == endpoint)
    jordan = env.client(INTERVIEWER)
    theirs = _url(env, rule, ROUTES[endpoint])
    own = _url(env, rule, ROUTES[endpoint], {"interview_id": env.world.own_interview_id})
    assert jordan.get(theirs).status_code == 404
    assert jordan.get(own).status_code == 200
    if "POST" in rule.methods:
        with env.factory() as session:
            before = row_counts(session)
        response = jordan.post(theirs, data={"csrf_token": csrf_token(jordan), "notes": "mine now",
                                             "submit_card": "1"})
        assert response.status_code == 404
        with env.factory() as session:
            assert row_counts(session) == before
