"""The start page lists a new public rated table live; a rated table offers no server bots, a
bot account takes the free seat (labelled as a bot), the host resigns and sees the result
with ledger changes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

TIMEOUT = 10_000


def test_public_rated_table_with_a_bot_account(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    host_ctx = browser.new_context(viewport={"width": 1200, "height": 820})
    visitor_ctx = browser.new_context(viewport={"width": 1200, "height": 820})
    host, visitor = host_ctx.new_page(), visitor_ctx.new_page()
    errors: list[str] = []
    for page in (host, visitor):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    host.on("dialog", lambda dialog: dialog.accept())

    visitor.goto(server_url + "/")
    visitor.wait_for_selector("#open-tables", timeout=TIMEOUT)

    host.goto(server_url + "/")
    host.fill("#guest-name", "Hilde")
    host.click("#guest-button")
    host.wait_for_selector("#account-badge:has-text('Hilde')", timeout=TIMEOUT)
    host.fill("#opt-castle-hp", "12")
    host.select_option("#new-rated", "rated")
    host.click("#create-button")
    host.wait_for_url(re.compile(r"/lobby/\d+$"), timeout=TIMEOUT)
    lobby_id = int(host.url.rsplit("/", 1)[1])

    # The visitor's start page hears about the new table without reloading.
    visitor.wait_for_selector(f"li.table-row[data-lobby='{lobby_id}']", timeout=TIMEOUT)
    visitor.screenshot(path=str(artifacts / "lobby-home.png"), full_page=True)

    # A rated table seats no server bot; a bot account (a program on the API) may sit.
    host.wait_for_selector("#rated-bots-note", timeout=TIMEOUT)
    assert host.locator("#add-bots").count() == 0
    with httpx.Client(base_url=server_url, timeout=10) as api:
        body = {"name": "Clockwork", "password": "gears-and-springs", "bot": True}
        token = api.post("/api/accounts", json=body).json()["token"]
        auth = {"authorization": f"Bearer {token}"}
        api.post(f"/api/lobbies/{lobby_id}/join", json={}, headers=auth).raise_for_status()
    host.wait_for_selector(".seat[data-seat='1']:has-text('Clockwork') .tag:has-text('bot')")
    host.click("#start-button")
    host.wait_for_url(re.compile(r"/table/\d+$"), timeout=TIMEOUT)
    host.wait_for_function("() => window.__rampart && window.__rampart.view", timeout=TIMEOUT)
    # The table names the bot account with "Bot" beside its name.
    host.wait_for_function(
        "() => (window.__rampart.names || []).some((n) => n.startsWith('Clockwork · Bot'))",
        timeout=TIMEOUT,
    )

    host.click("#resign-button")
    host.wait_for_selector(".result h2:has-text('Defeat')", timeout=TIMEOUT)
    # A resignation moves d(loser) - d(winner) ledger points: a number, maybe 0.
    host.wait_for_function(
        "() => /^[+-]?\\d+$/.test(document.querySelector(\".result .delta[data-seat='0']\")"
        ".textContent.replace('\u2013', ''))",
        timeout=TIMEOUT,
    )
    host.screenshot(path=str(artifacts / "result-resigned.png"), full_page=True)
    assert not errors, errors
    host_ctx.close()
    visitor_ctx.close()


def test_register_and_log_in(browser: Any, server_url: str) -> None:
    """A registered player logs out and back in; a wrong password is told in words."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server_url + "/")
    page.fill("#login-name", "Roswitha")
    page.fill("#login-password", "portcullis-42")
    page.click("button:has-text('Register')")
    page.wait_for_selector("#account-badge:has-text('Roswitha')", timeout=TIMEOUT)
    page.wait_for_selector(".account .tag:has-text('registered')", timeout=TIMEOUT)
    page.click("button:has-text('Log out')")
    page.fill("#login-name", "Roswitha")
    page.fill("#login-password", "wrong-password")
    page.click("button:has-text('Log in')")
    page.wait_for_selector(".toast-error:has-text('Wrong name or password.')", timeout=TIMEOUT)
    page.fill("#login-password", "portcullis-42")
    page.click("button:has-text('Log in')")
    page.wait_for_selector("#account-badge:has-text('Roswitha')", timeout=TIMEOUT)
    ctx.close()
