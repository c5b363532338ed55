"""Two friends on two server processes of one cluster play a Castles match in Chromium: the
invite, the lobby updates and the start cross processes over Redis, and the guest's match
socket is relayed to the process that owns the match."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.loadgen.servers import redis_running
from tests.app.cluster.conftest import needs_cluster
from tests.app.support import Server, both_running, new_pg_database
from tests.e2e.steps import model, open_private_duel, record_frames, wait_model

pytestmark = [pytest.mark.e2e, *needs_cluster]

RED = ["spearman", "archer", "medicine", "charge", "spearman", "builder"]
BLUE = ["spearman", "medic", "archer", "repair", "spearman", "archer"]
OPTIONS = {"decks": [RED, BLUE], "max_turns": 2, "response_ms": 30_000, "first_seat": 0}
TIMEOUT = 20_000


@pytest.fixture
def two_processes(tmp_path: Path, chromium_path: str) -> Iterator[tuple[Server, Server]]:
    """Two ``python -m app`` processes on one PostgreSQL database and one Redis, real time."""
    with redis_running(tmp_path) as redis_url:
        env = {
            "RAMPART_CLOCK_RATE": "1",
            "RAMPART_BENCH_GAMES": "0",
            "RAMPART_REDIS_URL": redis_url,
        }
        database_url = new_pg_database()
        nodes = (Server(database_url, env), Server(database_url, env))
        with both_running(nodes, tmp_path):
            yield nodes


def test_friends_on_two_processes_play_a_castles_match(
    browser: Any, two_processes: tuple[Server, Server], artifacts: Path
) -> None:
    one, two = two_processes
    alice_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    bram_ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    alice, bram = alice_ctx.new_page(), bram_ctx.new_page()
    errors: list[str] = []
    for page in (alice, bram):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    bram_frames = record_frames(bram)
    bram_sockets: list[str] = []
    bram.on("websocket", lambda socket: bram_sockets.append(socket.url))

    # Alice uses process one, Bram process two: he sees her lobby, joins, and is taken to
    # the table when she starts it on process one, which then owns the match.
    match_id = open_private_duel(
        alice, bram, one.http, "castles", OPTIONS, TIMEOUT, guest_url=two.http
    )
    assert bram.url.startswith(two.http)
    live = [httpx.get(f"{node.http}/api/health").json()["live_matches"] for node in (one, two)]
    assert live == [1, 0]  # the match runs in process one; Bram's socket is relayed to it
    # His page asked where the match lives and named the owner (a balancer would route by it).
    match_sockets = [url for url in bram_sockets if "/ws/matches/" in url]
    assert match_sockets and all("node=http" in url for url in match_sockets)

    # Turn 1 (Alice): a Spearman into the Middle Zone, seen at once by Bram; E ends the turn.
    wait_model(alice, "window.__rampart.view.turn === 1", TIMEOUT)
    alice.wait_for_selector("#cs-end-turn", timeout=TIMEOUT)
    alice.click(".cs-hand button.cs-hand-card[data-kind='spearman']")
    alice.click(".cs-board .cs-zone.cs-drop[data-zone='1']")
    played = "window.__rampart.view.in_play.some(c => c.kind === 'spearman' && c.side === 0)"
    wait_model(alice, played, TIMEOUT)
    wait_model(bram, played, TIMEOUT)
    alice.keyboard.press("e")

    # Turn 2 (Bram, through the relay) ends the last turn: the turn limit decides.
    on_turn = "window.__rampart.view.active === window.__rampart.seat"
    wait_model(bram, f"window.__rampart.view.turn === 2 && {on_turn}", TIMEOUT)
    bram.wait_for_selector("#cs-end-turn", timeout=TIMEOUT)
    bram.click("#cs-end-turn")
    for page in (alice, bram):
        wait_model(page, "window.__rampart.view.outcome !== null", TIMEOUT)
    assert model(bram)["view"]["outcome"]["reason"] == "turn_limit"
    bram.screenshot(path=str(artifacts / "cluster-castles-result.png"), full_page=True)

    finished = httpx.get(f"{two.http}/api/matches/{match_id}").json()
    assert finished["status"] == "finished"

    # Every hand Bram's page received through the relay was his own (Blue's cards only).
    hands = [frame["view"]["hand"] for frame in bram_frames if "hand" in frame.get("view", {})]
    assert hands and all(card["kind"] in BLUE for hand in hands for card in hand)
    assert not errors, errors
    for ctx in (alice_ctx, bram_ctx):
        ctx.close()
