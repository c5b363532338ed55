"""A Scout whose only face-down card to look at is the one just exposed: the table picks it
without asking the player to "choose a face-down card" (it was shown face up a moment ago), and
the play goes through with the look."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e import steps

pytestmark = pytest.mark.e2e

# Alice is dealt the Scout, Bram a Footman; the Knight is the first card exposed.
OPTIONS = {"hand_size": 1, "first_seat": 0, "deck": ["scout", "footman", "knight"]}
TIMEOUT = 10_000


def test_a_scout_with_only_the_exposed_card_looks_at_it_without_asking(
    two_people: tuple[Any, Any, list[str]], server_url: str
) -> None:
    alice, bram, errors = two_people
    steps.open_private_duel(alice, bram, server_url, "ambush", OPTIONS, TIMEOUT)
    alice.click(".grid button.cell.free.placeable >> nth=0")
    steps.wait_model(alice, "window.__rampart.view.step === 'play'", TIMEOUT)
    alice.keyboard.press("1")
    banner = alice.locator(".banner")
    banner.filter(has_text="Scout looks at the card just exposed (Knight)").wait_for(
        timeout=TIMEOUT
    )
    assert "choose a face-down card" not in banner.inner_text()
    alice.click(".grid button.cell.free.placeable >> nth=0")
    steps.wait_model(alice, "window.__rampart.view.turn === 1", TIMEOUT)
    alice.wait_for_selector(".feed li:has-text('You looked at')", timeout=TIMEOUT)
    assert errors == []
