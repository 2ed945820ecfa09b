"""`planner serve`: a busy port is one sentence and a non-zero exit; a free port serves the app."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request

PLANNER = [sys.executable, "-m", "planner.cli"]


def _env(tmp_path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLANNER_")}
    return env | {"PLANNER_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}"}


def test_busy_port_says_only_that_the_port_is_in_use(tmp_path):
    """With the port taken, serve prints one sentence naming the port on stderr, nothing else, and exits 1."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([*PLANNER, "serve", "--port", str(port)], capture_output=True, text=True,
                              env=_env(tmp_path), timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"Error: Port {port} is already in use on 127.0.0.1; stop what is using it or pick another with --port."]
    assert done.stdout == ""


def test_free_port_serves_the_health_check(tmp_path):
    """On a free port the app answers (the server really binds and serves)."""
    subprocess.run([*PLANNER, "db", "upgrade"], env=_env(tmp_path), check=True, capture_output=True, timeout=120)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([*PLANNER, "serve", "--port", str(port)], env=_env(tmp_path),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                    assert answer.status == 200
                    break
            except OSError:
                assert server.poll() is None, server.stderr.read()
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
    finally:
        server.terminate()
        server.communicate(timeout=10)
