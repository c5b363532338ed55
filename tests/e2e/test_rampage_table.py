"""Two players in Chromium set up and play a stacked Castle Rampage match to its result:
both set-up splits, a defence, attacks revealed card by card, a Scheme paid with chosen
units; no face-down stack card ever reaches the page, and a spectator sees no hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.steps import open_private_duel, record_frames

pytestmark = pytest.mark.e2e

# Kinds, top first: round one (Alice's five, Bram's five), round two the same, then the
# draws: Alice's first turn (1), Bram's (2), Alice's second (2).
DECK = [
    "knight", "knight", "footman", "footman", "siege_scheme",
    "archer", "archer", "thief", "thief", "footman",
    "knight", "knight", "footman", "footman", "mercenary",
    "fire_arrows", "fire_arrows", "archer", "archer", "footman",
    "footman",
    "archer", "banner",
    "knight", "fire_arrows",
]  # fmt: skip
OPTIONS = {"deck": DECK, "first_seat": 0}
TIMEOUT = 10_000


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


def split(page: Any, round_number: int, shot: Path | None = None) -> None:
    """Hide the first two dealt cards under the Gate, the next two under the Castle."""
    wait_model(
        page,
        f"window.__rampart.view.setup_round === {round_number}"
        " && !window.__rampart.view.players[window.__rampart.seat].chosen",
    )
    deals = page.locator(".rp-deal")
    assert deals.count() == 5
    assert page.is_disabled("#rp-setup-confirm")
    for index, structure in ((0, "gate"), (1, "gate"), (2, "castle"), (3, "castle")):
        deals.nth(index).locator(f".rp-to-{structure}").click()
    if shot:
        page.screenshot(path=str(shot), full_page=True)
    page.click("#rp-setup-confirm")
    # Chosen, or (the other seat chose first) already dealt the next round or playing.
    wait_model(
        page,
        f"window.__rampart.view.setup_round > {round_number}"
        " || window.__rampart.view.phase !== 'setup'"
        " || window.__rampart.view.players[window.__rampart.seat].chosen",
    )


def hand_card(page: Any, kind: str) -> str:
    return f".rp-hand button.hand-card[data-kind='{kind}'] >> nth=0"


def no_stack_faces(page: Any) -> None:
    """Stacks show sizes only: never a face, not even the owner's own cards."""
    assert page.locator(".rp-stack .face").count() == 0


def test_two_players_play_a_whole_match(browser: Any, server_url: str, artifacts: Path) -> None:
    alice_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    bram_ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    watch_ctx = browser.new_context(viewport={"width": 1100, "height": 800})
    alice, bram, watcher = alice_ctx.new_page(), bram_ctx.new_page(), watch_ctx.new_page()
    errors: list[str] = []
    for page in (alice, bram, watcher):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    match_id = open_private_duel(
        alice, bram, server_url, "rampage", OPTIONS, TIMEOUT, turn_seconds=120
    )
    alice.wait_for_selector(".table[data-game='rampage'] .rp-field", timeout=TIMEOUT)

    spectator_frames = record_frames(watcher)
    watcher.goto(f"{server_url}/watch/{match_id}")
    wait_model(watcher, "window.__rampart.seat === null")

    # The simultaneous set-up, twice: 2 cards under each structure, the fifth to the hand.
    split(alice, 1, shot=artifacts / "rampage-setup.png")
    split(bram, 1)
    split(bram, 2)
    split(alice, 2)
    wait_model(alice, "window.__rampart.view.phase === 'play'")
    view = model(alice)["view"]
    assert [p["gate_size"] for p in view["players"]] == [4, 4]
    assert [p["castle_size"] for p in view["players"]] == [4, 4]
    assert sorted(c.split("#")[0] for c in view["hand"]) == ["footman", "mercenary", "siege_scheme"]
    no_stack_faces(alice)

    # Turn 1 (Alice): a Footman (2) meets an Archer (1), then another Archer at 1: a tie.
    alice.click(hand_card(alice, "footman"))
    alice.click("#rp-play")
    alice.wait_for_selector(".rp-attack .rp-step >> nth=1", timeout=TIMEOUT)
    assert alice.locator(".rp-attack .rp-step.rp-destroyed").count() == 1
    assert alice.locator(".rp-attack .rp-step.rp-tie").count() == 1
    wait_model(bram, "window.__rampart.view.players[1].gate_size === 2")
    alice.wait_for_timeout(1500)  # let the reveal play out for the picture
    alice.screenshot(path=str(artifacts / "rampage-attack.png"), full_page=True)
    alice.keyboard.press("e")
    wait_model(bram, "window.__rampart.view.active === 1")

    # Turn 2 (Bram, on a phone): hide an Archer under his Castle by tapping the stack, then
    # a Footman against Alice's Gate: her Knight (3) holds. A War Banner goes into play.
    bram.tap(hand_card(bram, "archer"))
    bram.tap(".rp-mine button.rp-drop[data-structure='castle']")
    wait_model(
        bram,
        "window.__rampart.view.defended && window.__rampart.view.players[1].castle_size === 5",
    )
    bram.tap(hand_card(bram, "footman"))
    bram.tap("#rp-play")
    bram.wait_for_selector(".rp-attack .rp-step.rp-held", timeout=TIMEOUT)
    bram.tap(hand_card(bram, "banner"))
    bram.tap("#rp-play")
    bram.wait_for_selector(".rp-mine .rp-perm[data-card^='banner']", timeout=TIMEOUT)
    bram.wait_for_timeout(900)
    bram.screenshot(path=str(artifacts / "rampage-phone.png"), full_page=True)
    no_stack_faces(bram)
    bram.tap("#end-turn-button")

    # Turn 3 (Alice): Fire Arrows at the Banner (chosen on Bram's side), then the Siege
    # Scheme paid with chosen units: a Knight and the Mercenary as the Archer make 9, which
    # breaks through Gate and Castle.
    wait_model(alice, "window.__rampart.view.active === 0 && window.__rampart.view.turn === 3")
    alice.click(hand_card(alice, "fire_arrows"))
    assert alice.is_disabled("#rp-play")
    alice.click(".rp-theirs button.rp-perm.targetable")
    alice.click("#rp-play")
    wait_model(alice, "window.__rampart.view.players[1].permanents.length === 0")
    alice.click(hand_card(alice, "siege_scheme"))
    assert alice.is_disabled("#rp-play")
    alice.click(hand_card(alice, "knight"))
    assert alice.is_disabled("#rp-play")
    alice.click(hand_card(alice, "mercenary"))
    alice.wait_for_selector(".rp-hand .hand-card.paying >> nth=1", timeout=TIMEOUT)
    assert alice.is_enabled("#rp-play")
    alice.screenshot(path=str(artifacts / "rampage-pay.png"), full_page=True)
    alice.click("#rp-play")
    for page in (alice, bram, watcher):
        wait_model(page, "window.__rampart.view.outcome !== null")
    alice.wait_for_selector(".result h2:has-text('Victory')", timeout=TIMEOUT)
    bram.wait_for_selector(".result h2:has-text('Defeat')", timeout=TIMEOUT)
    assert alice.locator(".rp-attack .rp-step").count() == 7
    # The result dialog scores each player by the cards left in Castle and Gate.
    scores = alice.locator(".result td.score").all_inner_texts()
    assert len(scores) == 2 and scores[1].startswith("Castle 0 · Gate"), scores
    alice.wait_for_timeout(600)
    alice.screenshot(path=str(artifacts / "rampage-result.png"), full_page=True)
    watcher.screenshot(path=str(artifacts / "rampage-watch.png"), full_page=True)
    assert model(alice)["view"]["outcome"]["placings"] == [[0], [1]]
    alice.wait_for_selector(".feed li:has-text('Siege Scheme')", timeout=TIMEOUT)
    # Not even the feed names a card hidden in a stack, to its owner or anyone.
    assert alice.locator(".feed li:has-text('You hid 2 cards under your Gate')").count() == 2
    assert bram.locator(".feed li:has-text('You placed a card under your Castle')").count() == 1

    # The spectator never received a hand, a dealt card or a hidden placement.
    views = [f["view"] for f in spectator_frames if f.get("type") in ("welcome", "patch")]
    assert views, "the spectator got no views"
    for seen in views:
        assert seen["hand"] is None and seen["dealt"] is None and seen["aside"] is None
    for frame in spectator_frames:
        for event in frame.get("events") or []:
            assert event["type"] not in ("dealt", "drew", "defended") or "cards" not in event
            assert "card" not in event or event["type"] != "defended"
    no_stack_faces(watcher)

    assert not errors, errors
    for ctx in (alice_ctx, bram_ctx, watch_ctx):
        ctx.close()
