"""Two players in Chromium create and join a table, name castles, vote, and play a stacked
Ambush! match to its result (with a grab race and a reload); a spectator never sees a card."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import steps
from tests.e2e.steps import record_frames, sign_in_as_guest

pytestmark = pytest.mark.e2e

# Seat 0's hand, seat 1's hand, then the top of the deck: two Ambush! cards to expose (so
# the call is true) and a knight for the turn after the race. House deck ids.
DECK = [
    "knight", "dragon", "footman", "footman", "healer",
    "footman", "knight", "footman", "healer", "shieldbearer",
    "ambush", "ambush", "knight",
]  # fmt: skip
OPTIONS = {
    "deck": DECK,
    "castle_hp": 6,
    "first_seat": 0,
    "grab_cooldown_ms": 1500,
    "ambush_idle_ms": 5000,
    "hand_limit": 5,
}
TIMEOUT = 10_000
MY_TURN = "window.__rampart.view.turn === window.__rampart.seat"


def model(page: Any) -> dict[str, Any]:
    """The client's own model of the table (what it drew from the server's messages)."""
    result: dict[str, Any] = page.evaluate(
        "() => ({seat: window.__rampart.seat, version: window.__rampart.version,"
        " view: window.__rampart.view, legal: window.__rampart.legal})"
    )
    return result


def wait_model(page: Any, condition: str) -> None:
    steps.wait_model(page, condition, TIMEOUT)


def cell_selector(cell: list[int]) -> str:
    return f'.grid [data-x="{cell[0]}"][data-y="{cell[1]}"]'


def expose_and_play(page: Any, card: str) -> None:
    """The turn seat exposes on the first glowing cell, then plays ``card`` on another."""
    wait_model(page, f"window.__rampart.view.step === 'expose' && {MY_TURN}")
    page.click(".grid button.cell.free.placeable >> nth=0")
    wait_model(page, f"window.__rampart.view.step === 'play' && {MY_TURN}")
    page.click(f".hand button.hand-card[data-card='{card}'] >> nth=0")
    page.click(".grid button.cell.free.placeable >> nth=0")


def test_two_players_play_a_whole_match(browser: Any, server_url: str, artifacts: Path) -> None:
    alice_ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    bram_ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    watch_ctx = browser.new_context(viewport={"width": 1100, "height": 800})
    alice, bram, watcher = alice_ctx.new_page(), bram_ctx.new_page(), watch_ctx.new_page()
    errors: list[str] = []
    for page in (alice, bram, watcher):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # The start page: Alice plays as a guest and raises a private table with a stacked deck.
    alice.goto(server_url + "/")
    sign_in_as_guest(alice, "Alice", TIMEOUT)
    alice.select_option("#new-privacy", "private")
    alice.fill("#new-seats", "2")
    alice.fill("#new-turn", "120")
    alice.click("details summary")
    alice.fill("#opt-json", json.dumps(OPTIONS))
    alice.click("#create-button")
    alice.wait_for_url(re.compile(r"/lobby/\d+$"), timeout=TIMEOUT)
    invite = alice.input_value("#invite-link")
    assert re.search(r"/join/\d+/\S+$", invite), invite

    # Bram follows the invite link on a phone, names himself and sits down.
    bram.goto(invite)
    sign_in_as_guest(bram, "Bram", TIMEOUT)
    bram.wait_for_url(re.compile(r"/lobby/\d+$"), timeout=TIMEOUT)

    # Castles are named; each player votes for the other's name (seen live on both sides).
    alice.fill(".seat.mine .castle-input", "Eaglecrest")
    alice.click(".seat.mine .castle-save")
    bram.fill(".seat.mine .castle-input", "Thornwall Keep")
    bram.click(".seat.mine .castle-save")
    alice.wait_for_selector(".seat:not(.mine) .vote-button", timeout=TIMEOUT)
    bram.wait_for_selector(".seat:not(.mine) .vote-button", timeout=TIMEOUT)
    alice.click(".seat:not(.mine) .vote-button")
    bram.click(".seat:not(.mine) .vote-button")
    alice.wait_for_selector(".seat.mine .votes:has-text('1')", timeout=TIMEOUT)
    alice.wait_for_selector(".seat:not(.mine) .votes:has-text('1')", timeout=TIMEOUT)
    alice.screenshot(path=str(artifacts / "lobby.png"), full_page=True)

    # The host starts; both land at the table.
    alice.click("#start-button")
    alice.wait_for_url(re.compile(r"/table/\d+$"), timeout=TIMEOUT)
    bram.wait_for_url(re.compile(r"/table/\d+$"), timeout=TIMEOUT)
    match_id = int(alice.url.rsplit("/", 1)[1])
    wait_model(alice, "window.__rampart.seat === 0")
    wait_model(bram, "window.__rampart.seat === 1")
    # The table runs a turn clock: the player on turn sees it on the dials.
    alice.wait_for_selector(".dial.on-turn .clock", timeout=TIMEOUT)

    # A spectator watches from the start; every message it gets is checked for hidden cards.
    spectator_frames = record_frames(watcher)
    watcher.goto(f"{server_url}/watch/{match_id}")
    wait_model(watcher, "window.__rampart.seat === null")

    # Turn 1 (Alice): expose an Ambush!, play the Knight at Thornwall Keep (6 -> 3).
    expose_and_play(alice, "knight")
    wait_model(alice, "window.__rampart.view.turn === 1")
    assert model(alice)["view"]["castles"][1]["hp"] == 3

    # Bram reloads mid-match and resumes at the table, hand and all.
    bram.reload()
    wait_model(bram, "window.__rampart.seat === 1 && window.__rampart.view.turn === 1")
    assert len(model(bram)["view"]["hand"]) == 5
    bram.wait_for_selector(".feed li:has-text('Knight')", timeout=TIMEOUT)

    # Table talk reaches the other side.
    alice.fill(".chat input", "Well played, neighbour.")
    alice.keyboard.press("Enter")
    bram.wait_for_selector(".feed li:has-text('Well played, neighbour.')", timeout=TIMEOUT)

    # Alice's connection drops; her client reconnects and resumes from its last version.
    alice.evaluate("window.__rampart.socket.ws.close()")
    wait_model(alice, "window.__rampart.welcomes >= 2 && window.__rampart.resumed")

    # Turn 2 (Bram), by keyboard only: Tab to a glowing cell and Enter to expose the second
    # Ambush!, key 1 for the first card of his hand (a Footman), Enter on a cell to play it.
    wait_model(bram, "window.__rampart.view.step === 'expose'")
    bram.focus(".grid button.cell.free.placeable >> nth=0")
    bram.keyboard.press("Enter")
    wait_model(bram, "window.__rampart.view.step === 'play'")
    assert model(bram)["view"]["hand"][0] == "footman"
    bram.keyboard.press("1")
    bram.wait_for_selector(".hand-card.selected[data-card='footman']", timeout=TIMEOUT)
    bram.focus(".grid button.cell.free.placeable >> nth=0")
    bram.keyboard.press("Enter")
    wait_model(alice, "window.__rampart.view.turn === 0 && window.__rampart.view.step === 'expose'")
    assert model(alice)["view"]["castles"][0]["hp"] == 4

    # Turn 3: Alice calls Ambush! with the keyboard shortcut; the race starts everywhere.
    alice.keyboard.press("a")
    for page in (alice, bram, watcher):
        wait_model(page, "window.__rampart.view.phase === 'ambush'")
    cells = [entry["cell"] for entry in model(alice)["view"]["battlefield"]]
    assert len(cells) == 4
    alice.wait_for_timeout(150)
    alice.click(cell_selector(cells[0]))
    bram.tap(cell_selector(cells[1]))  # a touch grab on the phone
    # Bram's hand is still busy (cooldown 1.5 s): his card lifts, then snaps back.
    bram.click(cell_selector(cells[2]))
    bram.wait_for_selector(".cell.snapback", timeout=TIMEOUT)
    alice.screenshot(path=str(artifacts / "race.png"), full_page=True)
    bram.screenshot(path=str(artifacts / "race-phone.png"), full_page=True)
    alice.wait_for_timeout(1600)
    alice.click(cell_selector(cells[2]))
    bram.focus(cell_selector(cells[3]))  # and a keyboard grab: Tab to a card, Enter
    bram.keyboard.press("Enter")
    # The check: a true call. Both hands are now over the limit of 5: each returns one card.
    for page in (alice, bram):
        wait_model(page, "window.__rampart.view.phase === 'returning'")
    check = model(alice)["view"]["last_check"]
    assert check["valid"] is True
    assert sum(check["counts"]) == 2
    assert [c["hand_count"] for c in model(alice)["view"]["castles"]] == [4 + 2, 4 + 2]
    alice.click(".hand button.hand-card[data-card='footman'] >> nth=0")
    alice.click("#return-button")
    bram.click(".hand button.hand-card >> nth=0")
    bram.click("#return-button")
    wait_model(alice, "window.__rampart.view.phase === 'turn'")
    assert [c["hand_count"] for c in model(alice)["view"]["castles"]] == [5, 5]

    # Turn 3 goes on: Alice exposes and plays the Dragon; Thornwall Keep falls.
    expose_and_play(alice, "dragon")
    for page in (alice, bram, watcher):
        wait_model(page, "window.__rampart.view.outcome !== null")
    alice.wait_for_selector(".result h2:has-text('Victory')", timeout=TIMEOUT)
    bram.wait_for_selector(".result h2:has-text('Defeat')", timeout=TIMEOUT)
    # A casual match: no ledger change to show (a rated one shows it: test_lobby_and_bots).
    alice.wait_for_selector(".result:has-text('casual match, no ledger change')", timeout=TIMEOUT)
    assert alice.locator(".result .delta").count() == 0
    alice.screenshot(path=str(artifacts / "result.png"), full_page=True)
    bram.screenshot(path=str(artifacts / "result-phone.png"), full_page=True)
    assert model(alice)["view"]["outcome"]["placings"] == [[0], [1]]

    # The spectator never received a face-down card's identity, nor anyone's hand.
    views = [f["view"] for f in spectator_frames if f.get("type") in ("welcome", "patch")]
    assert views, "the spectator got no views"
    for view in views:
        assert "hand" not in view
        assert all("card" not in entry for entry in view["battlefield"])
    assert not watcher.query_selector(".peek")

    # The match history lists the match; its page shows the result and replays it.
    alice.goto(f"{server_url}/matches")
    alice.wait_for_selector(f"tr[data-match='{match_id}']", timeout=TIMEOUT)
    # Filtered from today on (an RFC 3339 instant: the day's local midnight), it is still there.
    with alice.expect_response(lambda reply: "since=" in reply.url) as filtered:
        alice.fill("#filter-since", date.today().isoformat())
    assert filtered.value.status == 200
    alice.wait_for_selector(f"tr[data-match='{match_id}']", timeout=TIMEOUT)
    alice.click(f"tr[data-match='{match_id}'] a")
    alice.wait_for_selector("#match-result:has-text('Eaglecrest')", timeout=TIMEOUT)
    alice.wait_for_selector("#replay-version:has-text('/')", timeout=TIMEOUT)
    last = int(alice.get_attribute("#replay-slider", "max") or 0)
    assert last >= 8
    alice.click("#replay-first")
    alice.wait_for_selector("#replay-version:has-text('v0 /')", timeout=TIMEOUT)
    alice.click("#replay-next")
    alice.wait_for_selector("#replay-version:has-text('v1 /')", timeout=TIMEOUT)
    alice.wait_for_selector(".replay-feed li:has-text('exposed')", timeout=TIMEOUT)
    # Scrubbing: the slider jumps straight to a version; the arrow keys step from there.
    alice.fill("#replay-slider", "5")
    alice.wait_for_selector("#replay-version:has-text('v5 /')", timeout=TIMEOUT)
    alice.focus("#replay-next")
    alice.keyboard.press("ArrowRight")
    alice.wait_for_selector("#replay-version:has-text('v6 /')", timeout=TIMEOUT)
    alice.screenshot(path=str(artifacts / "replay.png"), full_page=True)

    assert not errors, errors
    for ctx in (alice_ctx, bram_ctx, watch_ctx):
        ctx.close()
