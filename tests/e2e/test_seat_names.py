"""People by name in Chromium: a table of two guests and a hard bot shows each seat by its
player's name with the castle beside it and the bot by its level, chat lines included; the
rematch offer says "waiting for you" to the player it waits for; History lists the match by
player names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.steps import LOBBY_URL, TABLE_URL, sign_in_as_guest

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000


def test_seats_rematch_and_history_name_the_players(
    two_people: tuple[Any, Any, list[str]], server_url: str, artifacts: Path
) -> None:
    ada, bram, errors = two_people
    for page in (ada, bram):
        page.on("dialog", lambda dialog: dialog.accept())
    ada.goto(server_url + "/")
    sign_in_as_guest(ada, "Ada", TIMEOUT)
    ada_name = ada.inner_text("#account-badge").strip()
    ada.select_option("#new-game", "ambush")
    ada.select_option("#new-privacy", "private")
    ada.fill("#new-seats", "3")
    ada.click("#create-button")
    ada.wait_for_url(LOBBY_URL, timeout=TIMEOUT)
    ada.fill(".castle-input[data-castle-seat='0']", "Yarrowdale")
    ada.click(".castle-save")
    ada.wait_for_selector(".seat[data-seat='0'] .castle-name:has-text('Yarrowdale')")
    bram.goto(ada.input_value("#invite-link"))
    sign_in_as_guest(bram, "Bram", TIMEOUT)
    bram_name = bram.inner_text("#account-badge").strip()
    bram.wait_for_url(LOBBY_URL, timeout=TIMEOUT)
    ada.wait_for_selector(".seat[data-seat='1']:has-text('Bram')", timeout=TIMEOUT)
    ada.select_option("#bot-difficulty", "hard")
    ada.click("#add-bots")
    ada.wait_for_selector("#start-button:not([disabled])", timeout=TIMEOUT)
    ada.click("#start-button")
    for page in (ada, bram):
        page.wait_for_url(TABLE_URL, timeout=TIMEOUT)
        page.wait_for_function("() => window.__rampart && window.__rampart.view", timeout=TIMEOUT)

    # Every seat by its player, the castle beside it; the bot by its level.
    for page in (ada, bram):
        page.wait_for_selector(f".dial-name:has-text('{ada_name} (Yarrowdale)')", timeout=TIMEOUT)
        page.wait_for_selector(f".dial-name:has-text('{bram_name}')", timeout=TIMEOUT)
        page.wait_for_selector(".dial-name:has-text('Bot · hard (')", timeout=TIMEOUT)
    bram.screenshot(path=str(artifacts / "names-ambush-table.png"))
    # A chat line goes under the player's name too, not the castle's alone.
    ada.fill("input[aria-label='chat message']", "good luck")
    ada.press("input[aria-label='chat message']", "Enter")
    bram.wait_for_selector(
        f".feed li:has-text('{ada_name} (Yarrowdale): good luck')", timeout=TIMEOUT
    )

    # Both resign: the bot wins, and Ada offers a rematch; Bram is the one waited for.
    for page in (ada, bram):
        page.click("#resign-button")
    for page in (ada, bram):
        page.wait_for_selector(".result #rematch-offer", timeout=TIMEOUT)
    rows = bram.inner_text(".result-table tbody")
    assert f"{ada_name} (Yarrowdale)" in rows and "Bot · hard (" in rows, rows
    ada.click("#rematch-offer")
    state = bram.locator("#rematch-state")
    state.filter(has_text="waiting for you").wait_for(timeout=TIMEOUT)
    text = state.inner_text()
    assert f"Accepted: {ada_name} (Yarrowdale)" in text, text
    assert bram_name not in text, text
    bram.screenshot(path=str(artifacts / "names-rematch-offer.png"))

    # History: the match by its players, not its castles.
    match_id = int(re.sub(r"\D", "", bram.url.rsplit("/", 1)[1]))
    bram.goto(server_url + "/matches")
    row = bram.locator(f"tr[data-match='{match_id}']")
    row.wait_for(timeout=TIMEOUT)
    listed = row.inner_text()
    assert f"{ada_name} (Yarrowdale) vs {bram_name} vs Bot · hard (" in listed, listed
    bram.goto(server_url + f"/matches/{match_id}")
    bram.wait_for_selector("#match-result:has-text('Bot · hard')", timeout=TIMEOUT)
    bram.screenshot(path=str(artifacts / "names-history-match.png"))
    assert not errors, errors
