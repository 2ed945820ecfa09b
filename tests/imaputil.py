"""A private Dovecot IMAP server on loopback, for the tests of `planner inbox`.

Each server has its own configuration file in a fresh directory (base_dir, state_dir, log file,
Maildir), listens on 127.0.0.1 on a free port without TLS, and knows one throw-away user in a
passwd-file. Nothing of the machine's own Dovecot (``/etc/dovecot``) is read. As root (CI), Dovecot
wants unprivileged users for its login and internal processes: the ``dovenull`` and ``dovecot``
accounts the Debian package creates, and ``nobody`` owning the mail. As any other user it runs
rootless, as that user.

Without Dovecot the tests are skipped with the reason; with ``CI`` set they fail instead.
"""

from __future__ import annotations

import imaplib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from smtputil import free_port

DOVECOT = os.environ.get("PLANNER_DOVECOT", "/usr/sbin/dovecot")
USER, PASSWORD = "recruiting", "throwaway-imap-password"


@dataclass(frozen=True)
class ImapServer:
    """Where the server listens and how to log in; ``config`` are the app's IMAP_* settings for it."""

    host: str
    port: int
    user: str
    password: str
    log: Path

    @property
    def config(self) -> dict[str, object]:
        return {"IMAP_SERVER": self.host, "IMAP_PORT": self.port, "IMAP_USERNAME": self.user,
                "IMAP_PASSWORD": self.password, "IMAP_USE_SSL": False, "IMAP_MAILBOX": "INBOX"}

    @property
    def env(self) -> dict[str, str]:
        """The same settings as PLANNER_* environment variables, for the `planner` command."""
        return {f"PLANNER_{key}": str(value) for key, value in self.config.items()}

    def client(self) -> imaplib.IMAP4:
        conn = imaplib.IMAP4(self.host, self.port, timeout=10)
        conn.login(self.user, self.password)
        conn.select("INBOX")
        return conn

    def append(self, raw: bytes) -> int:
        """Deliver a message into the INBOX (unseen); returns its UID."""
        conn = self.client()
        try:
            typ, data = conn.append("INBOX", None, None, raw)
            assert typ == "OK", data
            return int(data[0].split(b"APPENDUID ")[1].split()[1].rstrip(b"]"))
        finally:
            conn.logout()

    def flags(self) -> dict[int, set[str]]:
        """Every message's UID and flags."""
        conn = self.client()
        try:
            typ, data = conn.uid("FETCH", "1:*", "(FLAGS)")
            result = {}
            for line in data:
                if not isinstance(line, bytes):
                    continue
                uid = int(line.split(b"UID ")[1].split()[0].rstrip(b")"))
                flags = line.split(b"FLAGS (")[1].split(b")")[0].decode().split()
                result[uid] = set(flags)
            return result
        finally:
            conn.logout()


def _require_dovecot() -> None:
    if not Path(DOVECOT).exists():
        message = f"Dovecot is not installed at {DOVECOT} (apt-get install dovecot-imapd)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def _users_lines(root: Path) -> list[str]:
    """The settings that say which accounts Dovecot runs as: unprivileged ones as root, the caller's otherwise."""
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.geteuid()).pw_name
        return [f"default_internal_user = {me}", f"default_login_user = {me}"]
    for account in ("dovecot", "dovenull"):
        try:
            pwd.getpwnam(account)
        except KeyError:
            message = f"Dovecot's '{account}' account is missing (reinstall dovecot-core)"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
    nobody = pwd.getpwnam("nobody")
    os.chown(root / "mail", nobody.pw_uid, nobody.pw_gid)
    return ["default_internal_user = dovecot", "default_internal_group = dovecot",
            "default_login_user = dovenull", f"mail_uid = {nobody.pw_uid}", f"mail_gid = {nobody.pw_gid}"]


def _config(root: Path, port: int) -> str:
    return "\n".join([
        f"base_dir = {root}/run", f"state_dir = {root}/state", f"log_path = {root}/dovecot.log",
        "protocols = imap", "listen = 127.0.0.1", "ssl = no", "disable_plaintext_auth = no",
        "auth_mechanisms = plain login", "auth_failure_delay = 0",
        *_users_lines(root),
        f"mail_location = maildir:{root}/mail/%u",
        "passdb {", "  driver = passwd-file", f"  args = scheme=PLAIN username_format=%u {root}/passwd", "}",
        "userdb {", "  driver = static", f"  args = home={root}/mail/%u", "}",
        "service imap-login {", "  inet_listener imap {", "    address = 127.0.0.1", f"    port = {port}", "  }",
        "  inet_listener imaps {", "    port = 0", "  }", "  chroot =", "}",
        "service anvil {", "  chroot =", "}", ""])


def _wait(server: ImapServer, process: subprocess.Popen, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            errors = (server.log.parent / "stderr.log").read_text()[-2000:]
            raise RuntimeError(f"Dovecot exited with {process.returncode}: {errors}")
        try:
            server.client().logout()
            return
        except (OSError, imaplib.IMAP4.error):
            time.sleep(0.1)
    raise RuntimeError(f"Dovecot did not answer on port {server.port}: {server.log.read_text()[-2000:]}")


@contextmanager
def dovecot_server():
    """Start a private Dovecot, wait until a login works, yield it; stop it and remove its files after."""
    _require_dovecot()
    # Not under pytest's tmp_path: that lies in a 0700 directory the unprivileged mail user cannot enter.
    root = Path(tempfile.mkdtemp(prefix="planner-imap-"))
    root.chmod(0o755)
    for sub in ("run", "state", "mail"):
        (root / sub).mkdir()
    (root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    port = free_port()
    (root / "dovecot.conf").write_text(_config(root, port))
    with (root / "stderr.log").open("w") as stderr:
        process = subprocess.Popen([DOVECOT, "-F", "-c", str(root / "dovecot.conf")], stdout=subprocess.DEVNULL,
                                   stderr=stderr)
    server = ImapServer("127.0.0.1", port, USER, PASSWORD, root / "dovecot.log")
    try:
        _wait(server, process)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)
