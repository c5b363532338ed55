"""The admin page in the browser: an admin (granted with ``python -m app admin grant``) bans a
player by name from /admin; the player's token is refused from then on. A player who is no
admin sees only that the page is for admins."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.app.support import ROOT
from tests.e2e.conftest import running_server

pytestmark = pytest.mark.e2e

TIMEOUT = 10_000


def guest(url: str, name: str) -> dict[str, Any]:
    reply = httpx.post(f"{url}/api/accounts", json={"name": name}, timeout=10)
    assert reply.status_code == 201, reply.text
    data: dict[str, Any] = reply.json()
    return data


def signed_in(browser: Any, url: str, account: dict[str, Any]) -> Any:
    """A page whose stored session is ``account`` (as the client's api.js keeps it)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url + "/")
    page.evaluate(
        """([token, account]) => {
            localStorage.setItem("rampart.token", token);
            localStorage.setItem("rampart.account", JSON.stringify(account));
        }""",
        [account["token"], account["account"]],
    )
    return page


def test_an_admin_bans_a_player_from_the_admin_page(
    browser: Any, chromium_path: str, tmp_path: Path, artifacts: Path
) -> None:
    with running_server(tmp_path) as url:
        marshal, rascal = guest(url, "Marshal"), guest(url, "Rascal")
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/rampart.db",
            "PYTHONPATH": str(ROOT),
        }
        granted = subprocess.run(
            [sys.executable, "-m", "app", "admin", "grant", "Marshal"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert granted.returncode == 0, granted.stderr

        # Not an admin: the page says so and offers nothing.
        outsider = signed_in(browser, url, rascal)
        outsider.goto(url + "/admin")
        outsider.wait_for_selector("#admin-denied:has-text('admins only')", timeout=TIMEOUT)
        assert outsider.locator("#admin-ban").count() == 0

        page = signed_in(browser, url, marshal)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url + "/admin")
        page.wait_for_selector("#admin-ban", timeout=TIMEOUT)
        page.fill("#admin-player", "rascal")  # names match as logins match them
        page.fill("#admin-reason", "griefing")
        page.click("#admin-ban")
        page.wait_for_selector("#admin-status:has-text('Rascal banned')", timeout=TIMEOUT)
        page.wait_for_selector("#admin-audit tr:has-text('griefing')", timeout=TIMEOUT)
        page.screenshot(path=str(artifacts / "admin-ban.png"), full_page=True)
        assert not errors

        headers = {"authorization": f"Bearer {rascal['token']}"}
        refused = httpx.get(f"{url}/api/accounts/me", headers=headers, timeout=10)
        assert refused.status_code == 401
        assert refused.json()["error"]["code"] == "auth/banned"
