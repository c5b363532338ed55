"""The e-mail box of a registered player's own profile: he gives an address, opens the link
mailed to it (read off a real SMTP server), sees it verified, turns the mails off, removes it.
Guests and other players' profiles have no such box."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.app.notify.mailbox import Mailbox, links
from tests.e2e.conftest import running_server

pytestmark = pytest.mark.e2e

TIMEOUT = 10_000


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    with Mailbox.serving() as box:
        yield box


@pytest.fixture(scope="module")
def url(
    tmp_path_factory: pytest.TempPathFactory, chromium_path: str, mailbox: Mailbox
) -> Iterator[str]:
    with running_server(
        tmp_path_factory.mktemp("e2e-email"),
        RAMPART_SMTP_URL=mailbox.url,
        RAMPART_MAIL_POLL_S="0.1",
    ) as base:
        yield base


def signed_in(page: Any, base: str, name: str) -> dict[str, Any]:
    """A player registered through the API, signed in on ``page``; the reply's account."""
    reply = httpx.post(base + "/api/accounts", json={"name": name, "password": "long enough pw"})
    assert reply.status_code == 201, reply.text
    body: dict[str, Any] = reply.json()
    page.goto(base + "/")
    page.evaluate(
        "([token, account]) => { localStorage.setItem('rampart.token', token);"
        " localStorage.setItem('rampart.account', account); }",
        [body["token"], json.dumps(body["account"])],
    )
    return body


def mails_to(mailbox: Mailbox, address: str, count: int) -> list[Any]:
    deadline = time.monotonic() + 10
    while len(mailbox.to(address)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    found = mailbox.to(address)
    assert len(found) >= count, found
    return found


def test_a_player_gives_verifies_mutes_and_removes_his_address(
    browser: Any, url: str, mailbox: Mailbox, artifacts: Path
) -> None:
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    me = signed_in(page, url, "Mail Reader")["account"]
    page.goto(f"{url}/players/{me['id']}")
    page.fill("#email-address", "reader@example.com", timeout=TIMEOUT)
    page.click("#email-save")
    page.wait_for_selector("#email-status:has-text('waiting for you')", timeout=TIMEOUT)

    (mail,) = mails_to(mailbox, "reader@example.com", 1)
    (link,) = links(mail)
    verified = page.context.new_page()
    # The link is under RAMPART_PUBLIC_URL (its default here): opened on this server.
    assert link.startswith("http://127.0.0.1:8000/api/accounts/email/verify?token=")
    verified.goto(url + link.removeprefix("http://127.0.0.1:8000"))
    assert "Address verified" in verified.inner_text("h1")
    verified.close()

    page.reload()
    page.wait_for_selector("#email-status:has-text('verified: you get news')", timeout=TIMEOUT)
    page.screenshot(path=str(artifacts / "email-verified.png"))
    page.click("#email-toggle")
    page.wait_for_selector("#email-status:has-text('mails are off')", timeout=TIMEOUT)
    page.click("#email-remove")
    page.wait_for_selector("#email-status", state="detached", timeout=TIMEOUT)
    assert page.input_value("#email-address") == ""

    # Someone else's profile has no e-mail box.
    other = httpx.post(
        url + "/api/accounts", json={"name": "Mail Other", "password": "long enough pw"}
    )
    page.goto(f"{url}/players/{other.json()['account']['id']}")
    page.wait_for_selector("#p-name:has-text('Mail Other')", timeout=TIMEOUT)
    assert page.locator("#p-email").count() == 0
    assert not errors, errors
    context.close()
