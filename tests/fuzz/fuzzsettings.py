"""Hypothesis settings shared by the fuzz tests: deterministic, modest and without deadlines.

``derandomize`` makes every run try the same examples (CI and a laptop agree, a failure reproduces);
set PLANNER_FUZZ_EXAMPLES to search wider locally, e.g. PLANNER_FUZZ_EXAMPLES=500.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("PLANNER_FUZZ_EXAMPLES", "40"))

FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large, HealthCheck.filter_too_much])

#: Text that tends to break parsers and templates: control characters, markup, huge numbers, odd dates.
NASTY = st.sampled_from([
    "", " ", "0", "-1", "1e309", "NaN", "99999999999999999999999", "2026-02-30", "24:61", "9999-12-31",
    "\x00", "\r\nX-Injected: 1", "<script>alert(1)</script>", "'; DROP TABLE users; --", "../../etc/passwd",
    "\ufeff", "\u202e", "😀" * 50, "a" * 5000, "%s%s%n", "{{7*7}}", "null", "[]", "{}", "true",
    "Europe/Nowhere", "mailto:evil@x", "2026-03-29T02:30", "-0", "0x1F", " 42 ", "+1",
])
TEXT = st.one_of(NASTY, st.text(max_size=80), st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), TEXT)
JSON = st.recursive(JSON_SCALARS, lambda children: st.one_of(
    st.lists(children, max_size=4), st.dictionaries(st.text(max_size=12), children, max_size=4)), max_leaves=12)
