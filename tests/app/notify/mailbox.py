"""A real SMTP server (aiosmtpd) on 127.0.0.1 for the notification tests, and what it got."""

from __future__ import annotations

import asyncio
import email
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from email.policy import default
from typing import Any

from aiosmtpd.controller import Controller

from tests.app.support import free_port

LINK = re.compile(r"https?://\S+")


class Mailbox:
    """Every mail the SMTP server accepted, parsed, in arrival order."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self._lock = threading.Lock()
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    @classmethod
    @contextmanager
    def serving(cls) -> Iterator[Mailbox]:
        """A mailbox whose SMTP server runs on 127.0.0.1 while the block does."""
        box = cls()
        box.controller.start()
        try:
            yield box
        finally:
            box.controller.stop()

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        """Addresses starting ``refused`` do not exist here (550); ``busy`` ones are refused
        for now (451)."""
        if address.startswith("refused"):
            return "550 5.1.1 no such mailbox"
        if address.startswith("busy"):
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=default)
        assert isinstance(message, EmailMessage)
        with self._lock:
            self.mails.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [mail for mail in self.mails if mail["To"] == address]

    async def wait_for(self, address: str, count: int, timeout: float = 15) -> list[EmailMessage]:
        """The mails to ``address`` once there are ``count`` of them."""
        async with asyncio.timeout(timeout):
            while len(self.to(address)) < count:
                await asyncio.sleep(0.05)
        return self.to(address)


def text(mail: EmailMessage) -> str:
    body = mail.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def links(mail: EmailMessage) -> list[str]:
    return LINK.findall(text(mail))
