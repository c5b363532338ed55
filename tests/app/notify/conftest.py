"""Fixtures of the notification tests: a real SMTP server, and a server that mails to it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.app.conftest import module_server
from tests.app.notify.mailbox import Mailbox
from tests.app.notify.support import PUBLIC_URL
from tests.app.support import Api, Server

# "Your move" waits this long for more news (the default is five minutes).
BATCH_S = 2.0


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    with Mailbox.serving() as box:
        yield box


def mailing_env(mailbox: Mailbox, batch_s: float = BATCH_S) -> dict[str, str]:
    return {
        "RAMPART_SMTP_URL": mailbox.url,
        "RAMPART_PUBLIC_URL": PUBLIC_URL,
        "RAMPART_MAIL_BATCH_S": str(batch_s),
        "RAMPART_MAIL_POLL_S": "0.1",
        "RAMPART_CLOCK_RATE": "1",  # deadlines days away, as in play
    }


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox) -> Iterator[Server]:
    yield from module_server(tmp_path_factory, "mail", mailing_env(mailbox))


@pytest.fixture
async def mail_api(mail_server: Server) -> AsyncIterator[Api]:
    client = Api(mail_server)
    yield client
    await client.close()
