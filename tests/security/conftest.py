"""Fixtures for the security tests: the demo world in a rolled-back transaction, an app with CSRF on."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import sessionmaker

from tests.security import hostile
from tests.security.matrixworld import build_world
from tests.security.securityutil import Env


@pytest.fixture
def matrix_env(engine, database_url):
    """The demo plus extra rows in one transaction rolled back at the end; CSRF protection on."""
    from planner import create_app

    connection = engine.connect()
    outer = connection.begin()
    factory = sessionmaker(bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False)
    with factory() as session:
        world = build_world(session)
    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "matrix-secret", "MAIL_SERVER": None,
                      "WTF_CSRF_ENABLED": True, "SCHEDULER_TIME_LIMIT": 2.0})
    app.extensions["planner.sessionmaker"] = factory
    yield Env(app, connection, factory, world)
    outer.rollback()
    connection.close()
    app.extensions["planner.engine"].dispose()


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
