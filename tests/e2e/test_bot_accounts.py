"""The browser labels a bot account as a bot: its tournament entry and its profile, and the
tournament page says whether bot accounts may register."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

TIMEOUT = 10_000


def test_a_tournament_page_shows_whether_bots_may_register_and_tags_them(
    browser: Any, server_url: str
) -> None:
    with httpx.Client(base_url=server_url, timeout=10) as api:
        organiser = api.post("/api/accounts", json={"name": "Bot Warden"}).json()["token"]
        auth = {"authorization": f"Bearer {organiser}"}
        spec = {"game": "castles", "format": "swiss", "rounds": 1}
        closed = api.post("/api/tournaments", json=spec, headers=auth).json()["id"]
        tid = api.post("/api/tournaments", json={**spec, "allow_bots": True}, headers=auth)
        tid = tid.json()["id"]
        api.post(f"/api/tournaments/{tid}/open", headers=auth).raise_for_status()
        body = {"name": "Tin Knight", "password": "rivets-and-gears", "bot": True}
        made = api.post("/api/accounts", json=body).json()
        bot_auth = {"authorization": f"Bearer {made['token']}"}
        api.post(f"/api/tournaments/{tid}/register", headers=bot_auth).raise_for_status()
    ctx = browser.new_context(viewport={"width": 1200, "height": 820})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/tournaments/{closed}")
    page.wait_for_selector(".allow-bots:has-text('no bot accounts')", timeout=TIMEOUT)
    page.goto(f"{server_url}/tournaments/{tid}")
    page.wait_for_selector(".allow-bots:has-text('bot accounts may register')", timeout=TIMEOUT)
    page.wait_for_selector(".t-entry:has-text('Tin Knight') .bot-account", timeout=TIMEOUT)
    page.goto(f"{server_url}/players/{made['account']['id']}")
    page.wait_for_selector("#p-bot:has-text('bot account')", timeout=TIMEOUT)
    assert not errors, errors
    ctx.close()
