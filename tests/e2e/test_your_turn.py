"""Your turn, everywhere: the header's count on every page and the start page's "Your turn"
list follow the match live, over the lobby socket: when the opponent moves (another browser)
and when you move in another tab of your own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import running_server
from tests.e2e.steps import guest

pytestmark = pytest.mark.e2e

TIMEOUT = 10_000


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("e2e-turns")) as base:
        yield base


def start_match(base: str, host: str, other: str) -> int:
    """A Castles table of the two, an hour a turn; returns the match id."""

    def post(path: str, token: str, body: Any = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"}
        reply = httpx.post(base + path, json=body or {}, headers=headers)
        assert reply.status_code in (200, 201), reply.text
        data: dict[str, Any] = reply.json()
        return data

    control = {"turn_ms": 3_600_000, "on_timeout": "pass", "grace_ms": 0}
    lobby = post("/api/lobbies", host, {"game": "castles", "seats": 2, "time_control": control})
    post(f"/api/lobbies/{lobby['id']}/join", other)
    return int(post(f"/api/lobbies/{lobby['id']}/start", host)["match_id"])


def awaited(base: str, token: str, match_id: int) -> bool:
    reply = httpx.get(
        base + "/api/accounts/me/matches", headers={"Authorization": f"Bearer {token}"}
    )
    (match,) = [m for m in reply.json()["matches"] if m["match_id"] == match_id]
    return bool(match["awaiting_you"])


def count_is(page: Any, count: int) -> None:
    if count:
        page.wait_for_selector(
            f"#turn-badge:not([hidden]) #turn-count:text-is('{count}')", timeout=TIMEOUT
        )
    else:
        page.wait_for_selector("#turn-badge", state="hidden", timeout=TIMEOUT)


def end_turn(page: Any) -> None:
    """The table's own button (Castles lets a player end his turn at once)."""
    page.wait_for_function(
        "() => window.__rampart && window.__rampart.legal && window.__rampart.legal.length",
        timeout=TIMEOUT,
    )
    page.click("#cs-end-turn", timeout=TIMEOUT)


def phone_list(page: Any, base: str, match_id: int, artifacts: Path) -> None:
    """The start page on a phone lists the match that waits for its player."""
    page.goto(base + "/")
    row = page.locator(f"#turn-list li[data-match='{match_id}']")
    row.wait_for(timeout=TIMEOUT)
    assert row.locator("time").is_visible()
    page.screenshot(path=str(artifacts / "your-turn-phone-home.png"))


def test_the_count_and_the_list_follow_every_move(browser: Any, url: str, artifacts: Path) -> None:
    wide = browser.new_context(viewport={"width": 1280, "height": 800})
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    home, other_tab = wide.new_page(), wide.new_page()
    away = phone.new_page()
    errors: list[str] = []
    for page in (home, other_tab, away):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    ann = guest(home, url, "Ann Turner")
    bob = guest(away, url, "Bob Mover")
    away.goto(url + "/matches")  # the count shows on every page, not only the start page
    count_is(home, 0)
    assert home.locator("#your-turn").is_hidden()

    match_id = start_match(url, ann, bob)
    first, second = (home, away) if awaited(url, ann, match_id) else (away, home)
    count_is(first, 1)
    count_is(second, 0)
    if first is home:
        # Ann's turn: her start page lists it, against Bob, with the deadline, linked.
        row = home.locator(f"#turn-list li[data-match='{match_id}']")
        row.wait_for(timeout=TIMEOUT)
        assert "Castles" in row.inner_text() and "Bob Mover" in row.inner_text()
        assert row.locator("time").get_attribute("datetime")
        assert row.locator("a").get_attribute("href") == f"/table/{match_id}"
        home.screenshot(path=str(artifacts / "your-turn-home.png"))
        # Ann ends her turn in another tab: this tab's count and list empty.
        other_tab.goto(f"{url}/table/{match_id}")
        end_turn(other_tab)
        count_is(home, 0)
        home.wait_for_selector("#turn-none", timeout=TIMEOUT)
        count_is(away, 1)
        away.screenshot(path=str(artifacts / "your-turn-phone.png"))
        phone_list(away, url, match_id, artifacts)
        # Bob ends his: Ann's count and list come back.
        away.goto(f"{url}/table/{match_id}")
        end_turn(away)
        count_is(home, 1)
        home.locator(f"#turn-list li[data-match='{match_id}']").wait_for(timeout=TIMEOUT)
    else:
        # Bob's turn: he ends it at the table, and Ann's start page lists the match.
        away.screenshot(path=str(artifacts / "your-turn-phone.png"))
        phone_list(away, url, match_id, artifacts)
        away.goto(f"{url}/table/{match_id}")
        end_turn(away)
        count_is(home, 1)
        home.locator(f"#turn-list li[data-match='{match_id}']").wait_for(timeout=TIMEOUT)
        home.screenshot(path=str(artifacts / "your-turn-home.png"))
        # Ann ends her turn in another tab: the start page's count and list empty.
        other_tab.goto(f"{url}/table/{match_id}")
        end_turn(other_tab)
        count_is(home, 0)
        home.wait_for_selector("#turn-none", timeout=TIMEOUT)
    count_is(other_tab, 0 if awaited(url, bob, match_id) else 1)
    assert not errors, errors
    wide.close()
    phone.close()
