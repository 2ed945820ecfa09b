"""A real SMTP server on loopback (aiosmtpd) that records what it receives and can refuse recipients."""

from __future__ import annotations

import socket
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy

from aiosmtpd.controller import Controller


def free_port() -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Received:
    """One accepted message: envelope and raw bytes."""

    mail_from: str
    rcpt_tos: list[str]
    data: bytes

    @property
    def email(self):
        return message_from_bytes(self.data, policy=policy.default)


@dataclass
class RecordingHandler:
    """Keeps every message; answers RCPT for addresses in ``refuse`` with ``refuse_code``."""

    refuse: set[str] = field(default_factory=set)
    refuse_code: str = "550 5.1.1 mailbox unavailable"
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.refuse:
            return self.refuse_code
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.received.append(
                Received(envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content)
            )
        return "250 Message accepted for delivery"

    def message_ids(self) -> list[str]:
        return [str(r.email["Message-ID"]) for r in self.received]


@contextmanager
def smtp_server(port: int | None = None, handler: RecordingHandler | None = None):
    """Run a recording SMTP server on 127.0.0.1:port for the duration of the block."""
    handler = handler or RecordingHandler()
    controller = Controller(handler, hostname="127.0.0.1", port=port or free_port())
    controller.start()
    try:
        yield controller.port, handler
    finally:
        controller.stop()
