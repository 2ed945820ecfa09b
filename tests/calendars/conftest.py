"""Fixtures of the CalDAV tests: a real Radicale on loopback."""

from radicaleutil import radicale  # noqa: F401 - the fixture, shared with the browser tests
