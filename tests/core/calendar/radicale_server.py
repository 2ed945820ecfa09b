"""A real CalDAV server for calendar tests: Radicale on loopback, throw-away storage, no auth.

``radicale_url`` starts one Radicale per test module on a free port and stops it by its own process
handle. :func:`caldav_put` PUTs a calendar object as a CalDAV client would store it (RFC 4791 4.1:
no METHOD property) into a fresh calendar collection, and says what the server answered.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass

import pytest

_MKCALENDAR = b"""<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
 <D:set><D:prop><D:displayname>test</D:displayname></D:prop></D:set></C:mkcalendar>"""
_USER = "tester"


@dataclass(frozen=True)
class PutResult:
    """The server's answer to a PUT and, when stored, the object read back."""

    status: int
    body: bytes
    stored: bytes | None


def _request(method: str, url: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, bytes]:
    # Any Basic credentials log in with auth type "none"; the user name becomes the collection owner.
    auth = {"Authorization": "Basic dGVzdGVyOnRlc3Rlcg=="}
    req = urllib.request.Request(url, data=body, method=method, headers={**auth, **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def radicale_url(tmp_path_factory):
    """The base URL of a Radicale started for this module (skips when radicale is not installed)."""
    pytest.importorskip("radicale", reason="radicale (dev extra) is needed for the CalDAV checks")
    port = _free_port()
    store = tmp_path_factory.mktemp("radicale")
    process = subprocess.Popen(
        [sys.executable, "-m", "radicale", "--server-hosts", f"127.0.0.1:{port}", "--auth-type", "none",
         "--rights-type", "owner_only", "--storage-filesystem-folder", str(store), "--logging-level", "error"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if process.poll() is not None:
                    pytest.fail(f"radicale did not start: {process.stderr.read().decode(errors='replace')}")
                time.sleep(0.1)
        else:
            pytest.fail("radicale did not start listening within 15 seconds")
        _request("MKCOL", f"{base}/{_USER}/")
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stderr.close()


def without_method(ics: bytes) -> bytes:
    """The object as CalDAV stores it: RFC 4791 4.1 forbids the METHOD property."""
    return re.sub(rb"^METHOD:[^\r\n]*\r\n", b"", ics, flags=re.MULTILINE)


def caldav_put(base: str, ics: bytes) -> PutResult:
    """PUT ``ics`` (METHOD removed) as one object into a new calendar collection; GET it back if stored."""
    collection = f"{base}/{_USER}/{uuid.uuid4().hex}/"
    status, body = _request("MKCALENDAR", collection, _MKCALENDAR, {"Content-Type": "application/xml"})
    assert status == 201, f"MKCALENDAR answered {status}: {body[:200]!r}"
    href = f"{collection}{uuid.uuid4().hex}.ics"
    status, body = _request("PUT", href, without_method(ics), {"Content-Type": "text/calendar; charset=utf-8"})
    stored = None
    if status in (200, 201, 204):
        got_status, stored = _request("GET", href)
        assert got_status == 200, f"GET after PUT answered {got_status}"
    return PutResult(status, body, stored)
