"""A real CalDAV server for the tests: Radicale on a free loopback port, plus two misbehaving servers.

``radicale`` (session-scoped) starts ``python -m radicale`` with a temporary storage folder and plain
htpasswd logins, and waits until it answers. Each test makes its own calendar with the ``caldav``
client (``radicale.new_calendar()``), so tests never see each other's events.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

USER = "ana"
PASSWORD = "Radicale-pw-7f3c9e"  # distinctive, so a test can search pages and columns for it
OTHER_USER = "bo"
OTHER_PASSWORD = "bo-pw-2b8d"


def free_port() -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Radicale:
    """A running Radicale: its base URL and a login that owns ``/<user>/``."""

    url: str
    user: str = USER
    password: str = PASSWORD

    def client(self, user: str | None = None, password: str | None = None):
        import caldav

        return caldav.DAVClient(url=self.url, username=user or self.user, password=password or self.password,
                                timeout=10, enable_rfc6764=False)

    def new_calendar(self, name: str = "Work"):
        """A new, empty calendar owned by the user; returns the caldav Calendar (its ``url`` is the address)."""
        client = self.client()
        principal = client.principal()
        return principal.make_calendar(name=name, cal_id=f"cal-{uuid.uuid4().hex[:12]}")

    def calendar_url(self, calendar) -> str:
        return str(calendar.url)


def _wait_until_up(url: str, process: subprocess.Popen, log: Path, deadline: float) -> None:
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Radicale exited at start-up:\n{log.read_text(errors='replace')}")
        try:
            urllib.request.urlopen(url + ".well-known/caldav", timeout=1)  # noqa: S310 - loopback only
            return
        except urllib.error.HTTPError:
            return  # any HTTP answer means it is serving
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"Radicale did not answer within the start-up limit:\n{log.read_text(errors='replace')}")


@contextmanager
def running_radicale(folder: Path):
    """Start Radicale on a free loopback port with its storage and htpasswd file under ``folder``."""
    try:
        import radicale  # noqa: F401
    except ImportError:
        message = "radicale is not installed (pip install -e '.[dev]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    port = free_port()
    users = folder / "users"
    users.write_text(f"{USER}:{PASSWORD}\n{OTHER_USER}:{OTHER_PASSWORD}\n", encoding="utf-8")
    config = folder / "config"
    config.write_text(
        "[server]\n"
        f"hosts = 127.0.0.1:{port}\n"
        "[auth]\n"
        "type = htpasswd\n"
        f"htpasswd_filename = {users}\n"
        "htpasswd_encryption = plain\n"
        "delay = 0\n"
        "[rights]\n"
        "type = owner_only\n"
        "[storage]\n"
        f"filesystem_folder = {folder / 'collections'}\n"
        "[logging]\n"
        "level = warning\n",
        encoding="utf-8",
    )
    log = folder / "radicale.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "radicale", "--config", str(config)],
                                   stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        _wait_until_up(url, process, log, time.monotonic() + 30)
        yield Radicale(url)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="session")
def radicale(tmp_path_factory):
    """One Radicale for the whole run (each test makes its own calendar)."""
    with running_radicale(tmp_path_factory.mktemp("radicale")) as server:
        yield server


# ------------------------------------------------------------------ misbehaving servers on loopback


@contextmanager
def silent_server():
    """A TCP server that accepts connections and never answers: the slowest possible calendar server."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
                held.append(conn)
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/cal/"
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in held:
            conn.close()
        listener.close()


@contextmanager
def garbage_server(body: bytes, status: int = 207, content_type: str = "application/xml; charset=utf-8"):
    """An HTTP server that answers every request (PROPFIND, REPORT...) with ``body``."""

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_PROPFIND = do_REPORT = do_OPTIONS = _answer  # noqa: N815

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/cal/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
