"""Ambush! in Chromium: a player with no card to play passes with the Pass button or the P key
(rulebook, "On your turn" 2d: "If you do not wish to or are unable to play a card, you may
skip this part of your turn")."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e import steps

pytestmark = pytest.mark.e2e

# Empty hands from the start: after exposing, a seat has nothing it could play.
OPTIONS = {"hand_size": 0, "first_seat": 0}
TIMEOUT = 10_000
MY_TURN = "window.__rampart.view.turn === window.__rampart.seat"
PLAY_STEP = f"window.__rampart.view.step === 'play' && {MY_TURN}"


def expose(page: Any) -> None:
    steps.wait_model(page, f"window.__rampart.view.step === 'expose' && {MY_TURN}", TIMEOUT)
    page.click(".grid button.cell.free.placeable >> nth=0")
    steps.wait_model(page, PLAY_STEP, TIMEOUT)


def test_an_empty_hand_passes_with_the_button_and_the_p_key(browser: Any, server_url: str) -> None:
    alice_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    bram_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    alice, bram = alice_ctx.new_page(), bram_ctx.new_page()
    errors: list[str] = []
    for page in (alice, bram):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    steps.open_private_duel(alice, bram, server_url, "ambush", OPTIONS, TIMEOUT)

    expose(alice)
    mine = steps.model(alice)
    assert mine["view"]["hand"] == [] and {"type": "pass"} in mine["legal"]
    alice.wait_for_selector("#pass-button:not([disabled])", timeout=TIMEOUT)
    alice.keyboard.press("p")
    steps.wait_model(alice, "window.__rampart.view.turn === 1", TIMEOUT)

    expose(bram)
    bram.wait_for_selector("#pass-button:not([disabled])", timeout=TIMEOUT)
    bram.click("#pass-button")
    steps.wait_model(bram, "window.__rampart.view.turn === 0", TIMEOUT)
    assert steps.model(bram)["view"]["castles"][0]["hand_count"] == 0
    assert errors == []
    alice_ctx.close()
    bram_ctx.close()
