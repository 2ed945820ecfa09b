"""Fixtures for the security tests: the demo world in a rolled-back transaction, an app with CSRF on."""

from __future__ import annotations

import pytest

from tests.security import hostile
from tests.security.securityutil import demo_environment


@pytest.fixture
def matrix_env(engine, database_url):
    """The demo plus extra rows in one transaction rolled back at the end; CSRF protection on."""
    with demo_environment(engine, database_url) as env:
        yield env


@pytest.fixture
def hostile_world(app, client, db, make_user):
    """The hostile story written through the forms by a coordinator, and a scorecard by the panelist."""
    jordan = make_user(email="panel@hire.example", roles=("interviewer",), name="Panel Person")
    make_user(email="coord@hire.example", roles=("coordinator",))
    make_user(email="boss@hire.example", roles=("manager",))
    client.post("/login", data={"email": "coord@hire.example", "password": "password123"})
    world = hostile.build(client, db, jordan.id)
    client.post("/logout")
    client.post("/login", data={"email": "panel@hire.example", "password": "password123"})
    hostile.write_scorecard(client, db, world.interview_id)
    client.post("/logout")
    return world
