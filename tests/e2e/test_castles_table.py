"""Two players in Chromium play a stacked six-turn Castles match to its result: cards played by
click and by drag, Wizard shots at a highlighted Castle, a Soldier dragged two zones with the
General, a Trap sprung from the response prompt, the turn limit deciding; a spectator watches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.steps import open_private_duel

pytestmark = pytest.mark.e2e

# One pile per seat, top first: five cards dealt, then one drawn at the start of each later turn.
RED = ["spearman", "archer", "lightning_storm", "medicine", "charge", "spearman", "builder"]
BLUE = ["trap", "spearman", "medic", "archer", "repair", "spearman", "archer", "plague"]
OPTIONS = {"decks": [RED, BLUE], "max_turns": 6, "response_ms": 30_000, "first_seat": 0}
TIMEOUT = 20_000  # generous: the e2e machine is shared and often loaded


def model(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(
        "() => ({seat: window.__rampart.seat, view: window.__rampart.view,"
        " legal: window.__rampart.legal})"
    )
    return result


def wait_model(page: Any, condition: str) -> None:
    page.wait_for_function(
        f"() => window.__rampart && window.__rampart.view && ({condition})", timeout=TIMEOUT
    )


def my_turn(page: Any, turn: int) -> None:
    """Wait until the page's seat has turn ``turn`` and the End turn button is drawn."""
    wait_model(
        page,
        f"window.__rampart.view.turn === {turn} && window.__rampart.view.phase === 'turn'"
        " && window.__rampart.view.active === window.__rampart.seat",
    )
    page.wait_for_selector("#cs-end-turn", timeout=TIMEOUT)


def card(kind: str, side: int, extra: str = "") -> str:
    return f".cs-board .cs-card{extra}[data-kind='{kind}'][data-side='{side}']"


def zone(z: int) -> str:
    return f".cs-board .cs-zone.cs-drop[data-zone='{z}']"


def castle_hp(page: Any) -> list[int]:
    hp: list[int] = model(page)["view"]["castle_hp"]
    return hp


def wizard_hits_castle(page: Any, side: int, enemy: int, hp_after: int) -> None:
    """Select the Wizard on the board, then click the glowing enemy Castle."""
    page.click(card("wizard", side))
    page.click(card("castle", enemy, ".cs-target"))
    wait_model(page, f"window.__rampart.view.castle_hp[{enemy}] === {hp_after}")


def test_two_players_play_a_castles_match(browser: Any, server_url: str, artifacts: Path) -> None:
    alice_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    bram_ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    watch_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    alice, bram, watcher = alice_ctx.new_page(), bram_ctx.new_page(), watch_ctx.new_page()
    errors: list[str] = []
    for page in (alice, bram, watcher):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # Alice raises a private Castles table with stacked piles; Bram follows the invite.
    match_id = open_private_duel(alice, bram, server_url, "castles", OPTIONS, TIMEOUT)
    watcher.goto(f"{server_url}/watch/{match_id}")
    wait_model(watcher, "window.__rampart.seat === null")
    watcher.wait_for_selector(".cs-board .cs-zone[data-zone='0']", timeout=TIMEOUT)

    # Turn 1 (Alice, Red): a Spearman by click into the Middle Zone, an Archer dragged into
    # the Castle Zone, the Wizard at Blue's Castle (50 -> 48); E ends the turn.
    my_turn(alice, 1)
    alice.click(".cs-hand button.cs-hand-card[data-kind='spearman']")
    alice.wait_for_selector(zone(1), timeout=TIMEOUT)
    assert alice.locator(".cs-board .cs-zone.cs-drop").count() == 2  # Castle and Middle only
    alice.click(zone(1))
    alice.wait_for_selector(card("spearman", 0), timeout=TIMEOUT)
    alice.drag_and_drop(
        ".cs-hand button.cs-hand-card[data-kind='archer']", ".cs-zone[data-zone='0']"
    )
    alice.wait_for_selector(card("archer", 0), timeout=TIMEOUT)
    wizard_hits_castle(alice, 0, 1, 48)
    alice.screenshot(path=str(artifacts / "castles-turn1.png"), full_page=True)
    alice.keyboard.press("e")

    # Turn 2 (Bram, Blue), by keyboard: the Trap cannot be played now (he is told why); key 2
    # picks the Spearman, Enter on a glowing zone's button plays it. His Wizard wounds Red's
    # Spearman.
    my_turn(bram, 2)
    assert [c["kind"] for c in model(bram)["view"]["hand"]][:2] == ["trap", "spearman"]
    bram.click(".cs-hand button.cs-hand-card[data-kind='trap']")
    bram.wait_for_selector(".toast:has-text('Instant')", timeout=TIMEOUT)
    bram.keyboard.press("2")
    bram.wait_for_selector(".cs-hand-card.cs-selected[data-kind='spearman']", timeout=TIMEOUT)
    bram.focus(zone(4) + " .cs-zone-pick")  # the zone's own button (its label)
    bram.keyboard.press("Enter")
    bram.wait_for_selector(card("spearman", 1), timeout=TIMEOUT)
    bram.click(card("wizard", 1))
    bram.click(card("spearman", 0, ".cs-target"))
    bram.wait_for_selector(card("spearman", 0) + " .cs-hp:has-text('2/4')", timeout=TIMEOUT)
    bram.click("#cs-end-turn")

    # Turn 3 (Alice): the Spearman, beside the General, is dragged two zones to Blue's Front...
    my_turn(alice, 3)
    alice.drag_and_drop(card("spearman", 0), ".cs-zone[data-zone='3']")
    wait_model(
        alice,
        "window.__rampart.view.in_play.some(c => c.kind === 'spearman' && c.side === 0"
        " && c.zone === 3)",
    )
    # ... and the Wizard is dragged onto Blue's Castle to use its Action there (48 -> 46).
    alice.drag_and_drop(card("wizard", 0), card("castle", 1))
    wait_model(alice, "window.__rampart.view.castle_hp[1] === 46")
    alice.click("#cs-end-turn")

    # Turn 4 (Bram) passes at once with the keyboard.
    my_turn(bram, 4)
    bram.keyboard.press("e")

    # Turn 5 (Alice): the Spearman steps into Blue's Middle Zone; Bram's Trap prompt opens.
    my_turn(alice, 5)
    alice.click(card("spearman", 0))
    alice.click(zone(4))
    bram.wait_for_selector(".cs-respond .cs-trap-button", timeout=TIMEOUT)
    bram.wait_for_selector(card("spearman", 0, ".cs-entered"), timeout=TIMEOUT)
    wait_model(alice, "window.__rampart.view.phase === 'response'")
    assert alice.locator(".cs-respond").count() == 0  # the mover waits, no prompt
    bram.screenshot(path=str(artifacts / "castles-trap-prompt.png"), full_page=True)
    bram.click(".cs-respond .cs-trap-button")
    wait_model(alice, "window.__rampart.view.phase === 'turn'")
    assert alice.locator(card("spearman", 0)).count() == 0
    alice.wait_for_selector(".feed li:has-text('Trap')", timeout=TIMEOUT)
    wizard_hits_castle(alice, 0, 1, 44)
    alice.click("#cs-end-turn")

    # Turn 6 (Bram) ends the last turn: the turn limit gives Red (50 to 44) the win.
    my_turn(bram, 6)
    watcher.screenshot(path=str(artifacts / "castles-spectator-phone.png"), full_page=True)
    bram.click("#cs-end-turn")
    for page in (alice, bram, watcher):
        wait_model(page, "window.__rampart.view.outcome !== null")
    alice.wait_for_selector(".result h2:has-text('Victory')", timeout=TIMEOUT)
    bram.wait_for_selector(".result h2:has-text('Defeat')", timeout=TIMEOUT)
    assert model(alice)["view"]["outcome"]["placings"] == [[0], [1]]
    assert model(alice)["view"]["outcome"]["reason"] == "turn_limit"
    assert castle_hp(watcher) == [50, 44]
    assert "hand" not in model(watcher)["view"] or model(watcher)["view"]["hand"] == []
    alice.screenshot(path=str(artifacts / "castles-result.png"), full_page=True)

    assert not errors, errors
    for ctx in (alice_ctx, bram_ctx, watch_ctx):
        ctx.close()
