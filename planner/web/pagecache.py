"""Whole-page cache for the pages people reload most: served again while nothing in the database changed.

A page marked with ``@cached_page`` is kept, per process, under (the database's data version, the
address asked for, the content of the asker's session) for at most ``PAGE_CACHE_SECONDS``. The data
version (planner/data_version.py) changes with every committed write by anyone, so a page is
never served after a change it does not show; the time limit bounds what only the clock changes (an
interview moving from "upcoming" to "past", a scorecard becoming overdue).

The session's content is in the key, so one person's page is never served to another, and a hit skips
the role check only for a session that passed it on this very data. Nothing is kept from a request
that changed the session (a flash message, a new CSRF secret, a sign-in), that wrote to the database,
or that answered anything but 200; a session with a flash message waiting is always served afresh.
``PAGE_CACHE_SECONDS = 0`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from flask import Flask, Response, g, request, session

from planner.config import ConfigError
from planner.data_version import DataVersion, local_writes
from planner.web import sqlcount

# Headers that belong to one answer only; everything else is served again as it was.
_NOT_KEPT = {"set-cookie", "content-length", sqlcount.HEADER.lower()}
_LARGEST_PAGE = 2 * 1024 * 1024


def cached_page(view):
    """Mark a GET view as a pure read whose page may be served again (see the module's rules)."""
    view.page_cache = True
    return view


@dataclass(frozen=True)
class _Page:
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    stored_at: float


class PageStore:
    """The pages of one data version, oldest use first, within a byte budget."""

    def __init__(self, seconds: float, max_bytes: int) -> None:
        self.seconds = seconds
        self.max_bytes = max_bytes
        self._version: str | None = None
        self._pages: OrderedDict[tuple, _Page] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0  # pages served again, for tests and for anyone profiling a worker

    def get(self, version: str, key: tuple) -> _Page | None:
        with self._lock:
            if version != self._version:
                # Every page kept belongs to an older version: none can be served again.
                self._pages.clear()
                self._bytes = 0
                self._version = version
                return None
            page = self._pages.get(key)
            if page is None:
                return None
            if time.monotonic() - page.stored_at >= self.seconds:
                self._drop(key)
                return None
            self._pages.move_to_end(key)
            self.hits += 1
            return page

    def put(self, version: str, key: tuple, page: _Page) -> None:
        with self._lock:
            if version != self._version or len(page.body) > self.max_bytes:
                return
            if key in self._pages:
                self._drop(key)
            self._pages[key] = page
            self._bytes += len(page.body)
            while self._bytes > self.max_bytes:
                self._drop(next(iter(self._pages)))

    def clear(self) -> None:
        """Forget every page (for tests that move the clock faster than PAGE_CACHE_SECONDS can follow)."""
        with self._lock:
            self._pages.clear()
            self._bytes = 0

    def _drop(self, key: tuple) -> None:
        self._bytes -= len(self._pages.pop(key).body)


def _session_digest() -> bytes:
    return hashlib.sha256(json.dumps(dict(session), sort_keys=True, default=str).encode()).digest()


def _setting(app: Flask, key: str, kind: type, unit: str) -> float | int:
    """A number that is zero or more, or a start-up error of one sentence naming the setting."""
    value = app.config.get(key)
    try:
        number = kind(value)
    except (TypeError, ValueError):
        number = -1
    if isinstance(value, bool) or number < 0 or (isinstance(value, float) and number != value):
        raise ConfigError(f"{key} is {value!r}; it must be a number of zero or more ({unit}).")
    return number


def register(app: Flask) -> None:
    """Serve marked pages from the store before any role check, and keep what they answer."""
    seconds = _setting(app, "PAGE_CACHE_SECONDS", float, "seconds")
    if seconds == 0:
        return
    data_version = DataVersion(app.extensions["planner.engine"])
    store = PageStore(seconds, _setting(app, "PAGE_CACHE_MAX_BYTES", int, "whole bytes"))
    app.extensions["planner.page_cache"] = store

    @app.before_request
    def _serve_kept_page():
        if request.method != "GET" or not getattr(app.view_functions.get(request.endpoint), "page_cache", False):
            return None
        if "_flashes" in session:
            return None
        version = data_version.current()
        sqlcount.note_statement()
        if version is None:
            return None
        key = (request.host_url, request.full_path, _session_digest())
        page = store.get(version, key)
        if page is not None:
            response = Response(page.body, status=page.status, headers=list(page.headers))
            # A feed reader asking "changed since?" still gets its 304.
            return response.make_conditional(request) if "ETag" in response.headers else response
        g.page_cache_pending = (version, key, local_writes())
        return None

    @app.after_request
    def _keep_page(response: Response) -> Response:
        pending = g.pop("page_cache_pending", None)
        if pending is None:
            return response
        version, key, writes_before = pending
        if (response.status_code != 200 or response.is_streamed or response.direct_passthrough
                or session.modified or "_flashes" in session or local_writes() != writes_before
                or "Set-Cookie" in response.headers):
            return response
        body = response.get_data()
        if len(body) <= _LARGEST_PAGE:
            headers = tuple((name, value) for name, value in response.headers.items()
                            if name.lower() not in _NOT_KEPT)
            store.put(version, key, _Page(response.status_code, headers, body, time.monotonic()))
        return response
