"""Two players in Chromium play a stacked three-round Ember match to its scoring: heroes chosen
at setup, mode cards, a Seductress choice, Lethal Assassins declared at a glowing target, an
arcane card declared, response prompts (identical with and without a response card), a Martyr,
the hand limit of 9, and the final count of ember stones; a spectator watches on a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.steps import open_private_duel

# One deck per seat, top first: 4 arcane cards, the 5-card hand, then the deck.
ALICE = [
    *["seductress", "ember_shard", "ember_shard", "ember_shard"],
    *["ember_shard", "seductress", "ember_shard", "lethal_assassin", "dispel"],
    *["lethal_assassin", "ember_cluster"],
    *["ember_shard"] * 8,
]
BRAM = [
    *["ember_shard"] * 4,
    *["ember_cluster", "glimmer", "glimmer", "ember_shard", "ember_shard"],
    *["ember_shard", "ember_cache", "kindling", "martyr", "ember_shard", "ember_shard", "war_cry"],
    *["ember_shard"] * 8,
]
OPTIONS = {"decks": [ALICE, BRAM], "first_seat": 0, "max_rounds": 3, "response_ms": 60_000}
TIMEOUT = 10_000
PROMPT_HTML = """() => {
  const el = document.querySelector('.em-respond');
  if (!el) return null;
  const copy = el.cloneNode(true);
  for (const c of copy.querySelectorAll('.em-countdown')) c.textContent = '';
  return copy.outerHTML;
}"""


def wait_model(page: Any, condition: str) -> None:
    page.wait_for_function(
        f"() => window.__rampart && window.__rampart.view && ({condition})", timeout=TIMEOUT
    )


def my_phase(page: Any, phase: str) -> None:
    wait_model(
        page,
        f"window.__rampart.view.phase === '{phase}'"
        " && window.__rampart.view.to_act.includes(window.__rampart.seat)",
    )


def hand_card(kind: str, extra: str = "") -> str:
    return f".em-hand .em-card{extra}[data-card='{kind}'] >> nth=0"


def scape_size(page: Any, seat: int) -> int:
    size: int = page.evaluate(f"() => window.__rampart.view.players[{seat}].scape.length")
    return size


@pytest.mark.e2e
def test_two_players_play_an_ember_match(browser: Any, server_url: str, artifacts: Path) -> None:
    alice_ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    bram_ctx = browser.new_context(viewport={"width": 1200, "height": 1000})
    watch_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    alice, bram, watcher = alice_ctx.new_page(), bram_ctx.new_page(), watch_ctx.new_page()
    errors: list[str] = []
    for page in (alice, bram, watcher):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # Alice raises a private Ember table with stacked decks; Bram follows the invite.
    match_id = open_private_duel(alice, bram, server_url, "ember", OPTIONS, TIMEOUT)
    watcher.goto(f"{server_url}/watch/{match_id}")
    wait_model(watcher, "window.__rampart.seat === null")

    # Setup: Alice picks Rowl; Bram sees it taken and picks Yvera.
    my_phase(alice, "hero")
    assert bram.locator(".em-hero-card.em-hero-free").count() == 0  # not his choice yet
    alice.click(".em-hero-card.em-hero-free[data-hero='rowl']")
    bram.wait_for_selector(".em-hero-card.em-hero-gone[data-hero='rowl']", timeout=TIMEOUT)
    bram.screenshot(path=str(artifacts / "ember-heroes.png"), full_page=True)
    bram.click(".em-hero-card.em-hero-free[data-hero='yvera']")

    # Round 1, Alice: an Ember Shard becomes her mode card (hasty); the Seductress adds the
    # other Ember Shard, chosen by clicking it as it glows in her hand.
    my_phase(alice, "mode")
    alice.wait_for_selector(".em-phase.em-now[data-phase='mode']", timeout=TIMEOUT)
    alice.click(hand_card("ember_shard"))
    alice.click("#em-confirm")
    my_phase(alice, "play")
    alice.click(hand_card("seductress"))
    alice.click(hand_card("ember_shard", ".em-choice"))
    wait_model(alice, "window.__rampart.view.players[0].scape.length === 2")

    # Round 1, Bram, by keyboard: key 1 picks the Ember Cluster, Enter makes it his mode
    # (greedy); the Glimmer goes into his emberscape.
    my_phase(bram, "mode")
    bram.keyboard.press("1")
    bram.keyboard.press("Enter")
    my_phase(bram, "play")
    bram.click(hand_card("glimmer"))
    bram.keyboard.press("Enter")
    wait_model(bram, "window.__rampart.view.players[1].scape.length === 1")

    # Round 2, Alice keeps her mode (P) and declares the Lethal Assassin at Bram's Glimmer.
    my_phase(alice, "mode")
    alice.keyboard.press("p")
    my_phase(alice, "play")
    alice.click(hand_card("lethal_assassin"))
    alice.wait_for_selector(".em-area[data-seat='1'] .em-card.em-target", timeout=TIMEOUT)
    alice.screenshot(path=str(artifacts / "ember-declare-target.png"), full_page=True)
    alice.click(".em-area[data-seat='1'] .em-card.em-target[data-card='glimmer']")

    # Bram's window, without a response card: the prompt, and Alice waits without one.
    my_phase(bram, "respond")
    bram.wait_for_selector(".em-respond", timeout=TIMEOUT)
    without_response = bram.evaluate(PROMPT_HTML)
    assert bram.locator(".em-hand .em-card.em-selectable").count() == 0
    wait_model(alice, "window.__rampart.view.phase === 'respond'")
    assert alice.locator(".em-respond").count() == 0
    alice.wait_for_selector(".banner:has-text('Bram'):has-text('may respond')", timeout=TIMEOUT)
    bram.click("#em-pass-window")
    wait_model(bram, "window.__rampart.view.players[1].scape.length === 0")
    assert scape_size(bram, 0) == 3

    # Round 2, Bram keeps his mode and plays his second Glimmer (he draws a Martyr on the way).
    my_phase(bram, "mode")
    bram.click("#em-keep-mode")
    my_phase(bram, "play")
    bram.click(hand_card("glimmer"))
    bram.click("#em-confirm")

    # Round 3, Alice: her hasty emberscape (3 cards) is collected, which flips an arcane
    # Seductress: she declares it with no card added.
    my_phase(alice, "arcane")
    alice.wait_for_selector(".em-arcane-reveal .em-card[data-card='seductress']", timeout=TIMEOUT)
    alice.wait_for_selector(".em-phase.em-now[data-phase='collection']", timeout=TIMEOUT)
    alice.screenshot(path=str(artifacts / "ember-arcane.png"), full_page=True)
    alice.click(".em-choice-none")
    my_phase(alice, "mode")
    alice.keyboard.press("p")
    my_phase(alice, "play")
    alice.click(hand_card("lethal_assassin"))
    alice.click(".em-area[data-seat='1'] .em-card.em-target[data-card='glimmer']")

    # Bram's window, now holding a Martyr: the prompt is the same, only his Martyr glows.
    my_phase(bram, "respond")
    bram.wait_for_selector(".em-respond", timeout=TIMEOUT)
    assert bram.evaluate(PROMPT_HTML) == without_response
    bram.wait_for_selector(hand_card("martyr", ".em-selectable"), timeout=TIMEOUT)
    bram.screenshot(path=str(artifacts / "ember-respond.png"), full_page=True)
    bram.click(hand_card("martyr"))
    bram.click("#em-confirm")

    # Alice may answer the Martyr (she holds a Dispel) and lets it happen: the attack stops.
    my_phase(alice, "respond")
    alice.wait_for_selector(
        ".em-respond:has-text('Bram'):has-text('answers with Martyr')", timeout=TIMEOUT
    )
    alice.keyboard.press("p")
    alice.wait_for_selector(
        ".feed li:has-text('attack on Bram'):has-text('is stopped')", timeout=TIMEOUT
    )
    assert scape_size(alice, 1) == 1

    # Round 3, Bram: War Cry draws 2, leaving 10 cards: the end phase asks for one discard.
    my_phase(bram, "mode")
    bram.keyboard.press("p")
    my_phase(bram, "play")
    watcher.screenshot(path=str(artifacts / "ember-spectator-phone.png"), full_page=True)
    bram.click(hand_card("war_cry"))
    bram.click("#em-confirm")
    my_phase(bram, "discard")
    bram.wait_for_selector(".em-hand-count.em-over:has-text('10 / 9')", timeout=TIMEOUT)
    bram.wait_for_selector(".em-phase.em-now[data-phase='end']", timeout=TIMEOUT)
    bram.wait_for_selector(".banner:has-text('discard 1 card')", timeout=TIMEOUT)
    bram.screenshot(path=str(artifacts / "ember-hand-limit.png"), full_page=True)
    bram.click(hand_card("ember_cache"))
    bram.click("#em-confirm")

    # The round limit ends the game: Alice's 4 collected stones beat Bram's none.
    for page in (alice, bram, watcher):
        wait_model(page, "window.__rampart.view.outcome !== null")
        page.wait_for_selector(".em-scoring tr[data-seat='0'] .em-final-stones", timeout=TIMEOUT)
    alice.wait_for_selector(".result h2:has-text('Victory')", timeout=TIMEOUT)
    bram.wait_for_selector(".result h2:has-text('Defeat')", timeout=TIMEOUT)
    view = alice.evaluate("() => window.__rampart.view")
    assert view["outcome"]["placings"] == [[0], [1]]
    assert view["outcome"]["reason"] == "round_limit"
    assert watcher.inner_text(".em-scoring tr[data-seat='0'] .em-final-stones") == "4"
    assert watcher.inner_text(".em-scoring tr[data-seat='1'] .em-final-stones") == "0"
    assert "hand" not in watcher.evaluate("() => window.__rampart.view")
    # A reloaded page learns the final scores from the match history.
    watcher.reload()
    watcher.wait_for_selector(
        ".em-scoring tr[data-seat='0'] .em-final-stones:has-text('4')", timeout=TIMEOUT
    )
    # The result dialog scores each player by stones.
    assert alice.locator(".result td.score").all_inner_texts() == ["4 stones", "0 stones"]
    assert "the round limit was reached" in alice.inner_text(".result .result-ending")
    alice.click(".result button:has-text('Look at the table')")
    alice.screenshot(path=str(artifacts / "ember-result.png"), full_page=True)

    assert not errors, errors
    for ctx in (alice_ctx, bram_ctx, watch_ctx):
        ctx.close()
