"""The page store's own rules: one data version at a time, a byte budget, a time limit."""

from __future__ import annotations

import time

import pytest

from planner.web.pagecache import PageStore, _Page


def _page(size: int) -> _Page:
    return _Page(200, (("Content-Type", "text/html"),), b"x" * size, time.monotonic())


def test_a_new_data_version_forgets_every_page():
    store = PageStore(seconds=30, max_bytes=10_000)
    store.get("v1", ("a",))
    store.put("v1", ("a",), _page(10))
    assert store.get("v1", ("a",)) is not None
    assert store.get("v2", ("a",)) is None
    store.put("v1", ("a",), _page(10))  # a request that began before the change keeps nothing
    assert store.get("v2", ("a",)) is None and store.get("v1", ("a",)) is None


def test_the_least_recently_used_pages_go_first_when_the_budget_is_spent():
    store = PageStore(seconds=30, max_bytes=250)
    store.get("v", ("warm",))
    for name in ("a", "b"):
        store.put("v", (name,), _page(100))
    assert store.get("v", ("a",)) is not None  # "a" is now the most recent
    store.put("v", ("c",), _page(100))
    assert store.get("v", ("b",)) is None
    assert store.get("v", ("a",)) is not None and store.get("v", ("c",)) is not None
    store.put("v", ("huge",), _page(251))
    assert store.get("v", ("huge",)) is None and store.get("v", ("a",)) is not None


def test_pages_older_than_the_limit_are_not_served():
    store = PageStore(seconds=0.05, max_bytes=1000)
    store.get("v", ("a",))
    store.put("v", ("a",), _page(10))
    assert store.get("v", ("a",)) is not None
    time.sleep(0.06)
    assert store.get("v", ("a",)) is None


@pytest.mark.parametrize(("key", "value"), [("PAGE_CACHE_SECONDS", "soon"), ("PAGE_CACHE_SECONDS", -5),
                                            ("PAGE_CACHE_MAX_BYTES", "lots"), ("PAGE_CACHE_MAX_BYTES", 2.5)])
def test_a_setting_that_is_not_a_count_stops_start_up_with_one_sentence(database_url, key, value):
    from planner import create_app
    from planner.config import ConfigError

    with pytest.raises(ConfigError, match=f"^{key} is .* it must be a number of zero or more"):
        create_app({"DATABASE_URL": database_url, "SECRET_KEY": "x", key: value})
