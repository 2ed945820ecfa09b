"""Fuzzing every form: whatever is posted, the answer is never a server error, and a refusal changes nothing.

The forms are read from the pages (``formcrawl``), so a new form is covered without a line here. For
each form, Hypothesis posts its fields with values drawn from what the page offers and from hostile
text (control characters, markup, huge numbers, impossible dates, binary uploads), fields left out
at random. A request that is refused (a 4xx, a 200 re-showing the form, or a redirect with an error
message) leaves every table's row count as it was. Each example runs inside a savepoint rolled back
afterwards, so examples do not see each other's writes.
"""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz.formcrawl import crawl_forms
from tests.fuzz.fuzzsettings import EXAMPLES, FUZZ, NASTY, TEXT
from tests.security.matrixworld import row_counts

FORM_EXAMPLES = settings(FUZZ, max_examples=max(EXAMPLES // 3, 8))
SKIP = {"/logout"}  # signing out is not a form to fuzz, and would end the client's session


def _value(field):
    if field.kind == "file":
        return st.tuples(st.one_of(st.binary(max_size=400), NASTY.map(str.encode)),
                         st.sampled_from(["cal.ics", "posting.txt", "x", "../../x.ics"])) \
            .map(lambda pair: (io.BytesIO(pair[0]), pair[1]))
    # Hostile values come first and twice: Hypothesis favours the simplest branches of one_of.
    hostile = [NASTY, NASTY, TEXT]
    if field.maxlength:  # just inside and just past the page's own limit
        hostile.append(st.sampled_from(["x" * field.maxlength, "y" * (field.maxlength + 1)]))
    offered = [o for o in field.options if o is not None]
    if field.kind == "checkbox" and offered:
        return st.one_of(*hostile, st.lists(st.sampled_from(offered), max_size=len(offered), unique=True))
    choices = offered or ([field.value] if field.value else [])
    return st.one_of(*hostile, st.sampled_from(choices)) if choices else st.one_of(*hostile)


def form_data(form):
    """A dict of the form's fields, each maybe left out, with offered or hostile values."""
    parts = {name: st.one_of(st.none(), _value(f)) for name, f in form.fields.items() if name != "csrf_token"}
    extra = st.dictionaries(st.text(min_size=1, max_size=10), TEXT, max_size=2)
    return st.tuples(st.fixed_dictionaries(parts), extra).map(
        lambda both: {**both[1], **{k: v for k, v in both[0].items() if v is not None}})


def _refused(client, response) -> bool:
    with client.session_transaction() as session:
        flashes = session.pop("_flashes", [])
    return response.status_code != 302 or any(category == "error" for category, _ in flashes)


def _fuzzer(env, client, action: str, form):
    @FORM_EXAMPLES
    @given(data=form_data(form))
    def post(data):
        savepoint = env.connection.begin_nested()
        try:
            with env.factory() as session:
                before = row_counts(session)
            response = client.post(action, data=data)
            assert response.status_code < 500, f"{response.status_code} for {data!r}"
            if _refused(client, response):
                with env.factory() as session:
                    assert row_counts(session) == before, f"a refused post changed rows: {data!r}"
        finally:
            savepoint.rollback()

    return post


def test_every_form_takes_any_input(demo_env):
    """Each form of each role, fuzzed: no 500, and refused posts leave row counts unchanged."""
    env = demo_env
    clients = {role: env.client(role) for role in ("coordinator", "manager", "interviewer")}
    clients["anonymous"] = env.app.test_client()
    env.app.config["WTF_CSRF_ENABLED"] = False  # CSRF refusals have their own test; reach the forms' checks
    env.app.config["PROPAGATE_EXCEPTIONS"] = True  # a server error shows its traceback here
    ids = {**env.world.ids, "interview_id": env.world.own_interview_id}
    forms = crawl_forms(env.app, clients, ids)
    assert len({action for _, action in forms}) >= 25, sorted(forms)
    failures = []
    for (role, action), form in sorted(forms.items()):
        if action in SKIP:
            continue
        try:
            _fuzzer(env, clients[role], action, form)()
        except Exception as exc:  # noqa: BLE001 - every kind of failure is reported with its form
            failures.append(f"POST {action} as {role}: {type(exc).__name__}: {exc}")
    assert not failures, "\n".join(failures)
