"""Browser fixtures: the real app served on loopback, driven by Debian's Chromium through Playwright.

Each test gets a database with real commits (emptied afterwards) holding the demo, on both backends.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from dbutil import truncate_all
from werkzeug.serving import make_server

from planner.db import make_engine, make_session_factory, utcnow

CHROMIUM = os.environ.get("PLANNER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for the whole run."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        message = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def live_db(database_url):
    """An engine with real commits and the demo loaded; tables emptied after the test."""
    from planner.services.demo import load_demo

    engine = make_engine(database_url)
    with make_session_factory(engine)() as session:
        load_demo(session, now=utcnow())
    yield engine
    truncate_all(engine)
    engine.dispose()


@pytest.fixture
def live_server(live_db, database_url):
    """The app served on 127.0.0.1 on a free port, in a thread; yields its base URL."""
    from planner import create_app

    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "browser-test", "MAIL_SERVER": None})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    app.config["BASE_URL"] = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app.config["BASE_URL"]
    server.shutdown()
    thread.join(timeout=5)
    app.extensions["planner.engine"].dispose()


@pytest.fixture
def page(chromium, live_server):
    """A fresh browser page (own cookies) pointed at the live server."""
    context = chromium.new_context(base_url=live_server, viewport={"width": 1360, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()
