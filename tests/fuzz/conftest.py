"""Fixtures for the form fuzzing: the demo world of the security tests."""

from __future__ import annotations

import pytest

from tests.security.securityutil import demo_environment


@pytest.fixture
def demo_env(engine, database_url):
    """The demo plus extra rows in one transaction rolled back at the end."""
    with demo_environment(engine, database_url) as env:
        yield env
