"""The match page replays a Castles match through the game's own renderer, read-only: a short
match between the server's bots (made through the REST lobby) is stepped, scrubbed and
keyed through, by its host (their seat's view) and by an anonymous visitor (the spectator's)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

TIMEOUT = 10_000
MATCH_TIMEOUT_S = 120


def finished_castles_match(server_url: str) -> tuple[int, dict[str, Any]]:
    """A two-turn Castles match; returns its id and the host's token reply.

    The lobby always seats its host, so seat 0 is the host's and is played by the server too:
    with a turn clock and ``on_timeout: pass``, each of its turns times out into the engine's
    default action. Seat 1 is the heuristic bot, whose 1-3 s think times fit the 3.5 s clock.
    """
    with httpx.Client(base_url=server_url, timeout=10) as rest:
        host = rest.post("/api/accounts", json={"name": "Replay Host"}).json()
        auth = {"authorization": f"Bearer {host['token']}"}
        lobby = rest.post(
            "/api/lobbies",
            headers=auth,
            json={
                "game": "castles",
                "seats": 2,
                "options": {"max_turns": 2},
                "time_control": {"turn_ms": 3500, "on_timeout": "pass"},
            },
        )
        assert lobby.status_code == 201, lobby.text
        lobby_id = lobby.json()["id"]
        bots = rest.post(f"/api/lobbies/{lobby_id}/bots", headers=auth, json={"kind": "heuristic"})
        assert bots.status_code == 200, bots.text
        started = rest.post(f"/api/lobbies/{lobby_id}/start", headers=auth)
        assert started.status_code == 200, started.text
        match_id = int(started.json()["match_id"])
        deadline = time.monotonic() + MATCH_TIMEOUT_S
        while rest.get(f"/api/matches/{match_id}").json()["status"] == "running":
            assert time.monotonic() < deadline, "the bot match did not end"
            time.sleep(0.5)
    return match_id, host


def state_at(server_url: str, match_id: int, version: int, token: str | None) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    reply = httpx.get(
        f"{server_url}/api/matches/{match_id}/state",
        params={"version": version},
        headers=headers,
        timeout=10,
    )
    assert reply.status_code == 200, reply.text
    data: dict[str, Any] = reply.json()
    return data


def board(page: Any) -> dict[str, Any]:
    """What the replay stage draws: version shown, cards in play by zone, hand, feed length."""
    result: dict[str, Any] = page.evaluate(
        """() => {
          const stage = document.querySelector('.replay-stage');
          const cards = [...stage.querySelectorAll('.cs-zone .cs-card')]
            .map((el) => [Number(el.dataset.card), Number(el.dataset.zone)])
            .sort((a, b) => a[0] - b[0]);
          return {
            version: Number(stage.dataset.version),
            cards,
            hand: stage.querySelectorAll('.cs-hand .cs-hand-card').length,
            hp: [...stage.querySelectorAll('.cs-castle-hp')].map((el) => el.textContent),
            feed: document.querySelectorAll('.replay-feed li').length,
          };
        }"""
    )
    return result


def expected_cards(view: dict[str, Any]) -> list[list[int]]:
    return sorted([card["id"], card["zone"]] for card in view["in_play"])


def show(page: Any, version: int) -> dict[str, Any]:
    page.wait_for_selector(f".replay-stage[data-version='{version}'] .cs-board", timeout=TIMEOUT)
    page.wait_for_selector(f"#replay-version:has-text('v{version} /')", timeout=TIMEOUT)
    return board(page)


def test_castles_replay_draws_every_version(browser: Any, server_url: str, artifacts: Path) -> None:
    match_id, host = finished_castles_match(server_url)
    last = httpx.get(f"{server_url}/api/matches/{match_id}").json()["version"]
    assert last >= 4, "a two-turn match has a few versions at least"

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(server_url + "/")
    page.evaluate(
        "([token, account]) => { localStorage.setItem('rampart.token', token);"
        " localStorage.setItem('rampart.account', account); }",
        [host["token"], json.dumps(host["account"])],
    )

    # The page opens a finished match at its start, drawn by the Castles renderer;
    # the last button jumps to the end.
    page.goto(f"{server_url}/matches/{match_id}")
    page.wait_for_selector(".replay-table[data-game='castles']", timeout=TIMEOUT)
    show(page, 0)
    page.click("#replay-last")
    final = show(page, last)
    page.wait_for_selector(".replay-feed li:has-text('Game over')", timeout=TIMEOUT)

    # Stepping from the start: every version's board is the one the state endpoint gives the
    # host (their seat's view: cards in play, their hand), and the feed grows with it.
    page.click("#replay-first")
    seen: dict[int, dict[str, Any]] = {0: show(page, 0)}
    for version in range(1, last + 1):
        page.click("#replay-next")
        seen[version] = show(page, version)
    for version, drawn in seen.items():
        view = state_at(server_url, match_id, version, host["token"])["view"]
        assert drawn["cards"] == expected_cards(view), f"v{version}"
        assert drawn["hand"] == len(view["hand"]), f"v{version}"
    assert seen[last]["cards"] == final["cards"]
    assert len({json.dumps([d["cards"], d["hand"], d["hp"]]) for d in seen.values()}) >= 2
    assert seen[last]["feed"] > seen[1]["feed"] >= seen[0]["feed"]
    # Read-only: no end-turn, pass or option button is offered.
    assert not page.query_selector(".replay-stage #cs-end-turn, .replay-stage .cs-option")

    # Scrubbing jumps straight to a version and draws the same board as stepping did; the
    # arrow keys step from there.
    middle = last // 2
    page.fill("#replay-slider", str(middle))
    assert show(page, middle)["cards"] == seen[middle]["cards"]
    page.focus("#replay-next")
    page.keyboard.press("ArrowLeft")
    assert show(page, middle - 1)["cards"] == seen[middle - 1]["cards"]
    page.keyboard.press("End")
    assert show(page, last)["cards"] == seen[last]["cards"]
    page.screenshot(path=str(artifacts / "replay-castles.png"), full_page=True)

    # An anonymous visitor gets the spectator's view: the same field, no hand.
    visitor_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    visitor = visitor_ctx.new_page()
    visitor.on("pageerror", lambda exc: errors.append(str(exc)))
    visitor.goto(f"{server_url}/matches/{match_id}")
    visitor.wait_for_selector(".replay-table[data-game='castles']", timeout=TIMEOUT)
    show(visitor, 0)
    visitor.fill("#replay-slider", str(middle))
    watched = show(visitor, middle)
    assert watched["cards"] == seen[middle]["cards"]
    assert watched["hand"] == 0
    visitor.wait_for_selector(".replay-stage .watch-note", timeout=TIMEOUT)

    assert not errors, errors
    context.close()
    visitor_ctx.close()
