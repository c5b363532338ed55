"""The result dialog tells the score and the ending in words: an Ambush! match in which both
players only expose and pass stalls after two rounds (a house rule that looks at cards played,
not at the deck, which still holds most of its cards) and shows each castle's HP. The dialog's
columns are right before the match's record arrives: the welcome says the match is casual."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import steps

pytestmark = pytest.mark.e2e

OPTIONS = {"hand_size": 0, "first_seat": 0, "castle_hp": 27}
TIMEOUT = 10_000


def expose_and_pass(page: Any) -> None:
    mine = "window.__rampart.view.turn === window.__rampart.seat"
    steps.wait_model(page, f"window.__rampart.view.step === 'expose' && {mine}", TIMEOUT)
    page.click(".grid button.cell.free.placeable >> nth=0")
    steps.wait_model(page, f"window.__rampart.view.step === 'play' && {mine}", TIMEOUT)
    page.click("#pass-button")


def test_a_stalled_ambush_match_shows_hp_and_why_it_ended(
    two_people: tuple[Any, Any, list[str]], server_url: str, artifacts: Path
) -> None:
    alice, bram, errors = two_people
    match_id = steps.open_private_duel(alice, bram, server_url, "ambush", OPTIONS, TIMEOUT)
    held: list[Any] = []  # the record's requests, answered once the dialog has been read
    for page in (alice, bram):
        page.route(re.compile(rf"/api/matches/{match_id}$"), lambda route: held.append(route))
    for page in (alice, bram, alice, bram):  # two whole rounds, no card played
        expose_and_pass(page)
    for page in (alice, bram):
        page.wait_for_selector(".result", timeout=TIMEOUT)
        ending = page.inner_text(".result .result-ending")
        assert "stalled: two whole rounds passed without a card played from a hand" in ending
        assert "highest HP wins" in ending
        assert "casual match, no ledger change" in ending
        scores = page.locator(".result td.score").all_inner_texts()
        assert scores == ["27 HP", "27 HP"], scores
        assert page.inner_text(".result thead").split() == ["#", "Player", "Score"]
    assert held, "the record was not asked for"
    for route in held:
        route.continue_()
    for page in (alice, bram):
        steps.wait_model(page, "window.__rampart.result && window.__rampart.result.seats", TIMEOUT)
        assert page.inner_text(".result thead").split() == ["#", "Player", "Score"]
    assert steps.model(bram)["view"]["deck_count"] > 40  # the deck had nothing to do with it
    bram.screenshot(path=str(artifacts / "result-ambush-stalled.png"))
    assert errors == []
