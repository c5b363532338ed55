"""The client keeps no copy of what the server serves: every game's card data comes from
``GET /api/games/{id}/cards`` and the games' titles from ``GET /api/games``."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

GAMES = {"ambush": "id", "rampage": "kind", "castles": "id", "ember": "id"}
CARD_DATA = """async (games) => {
  const cards = {};
  for (const game of games) {
    const module = await import(`/static/js/games/${game}/cards.js`);
    await module.loadCards();
    cards[game] = module.CARDS || module.RAMPAGE_CARDS;
  }
  return cards;
}"""
OPTIONS = "(s) => [...document.querySelectorAll(s + ' option')].map((o) => [o.value, o.text])"


def test_the_client_draws_the_served_card_data(browser: Any, server_url: str) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server_url + "/")
    drawn = page.evaluate(CARD_DATA, list(GAMES))
    for game, key in GAMES.items():
        served = httpx.get(f"{server_url}/api/games/{game}/cards").json()["cards"]
        assert drawn[game] == {card[key]: card for card in served}, game
    ctx.close()


def test_pages_name_the_games_by_the_served_titles(browser: Any, server_url: str) -> None:
    titles = [[g["id"], g["title"]] for g in httpx.get(f"{server_url}/api/games").json()]
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server_url + "/tournaments")
    page.wait_for_selector("#t-filter-game option[value='ember']", state="attached")
    assert page.evaluate(OPTIONS, "#t-filter-game")[1:] == titles
    page.goto(server_url + "/matches")
    page.wait_for_selector("#filter-game option[value='ember']", state="attached")
    assert page.evaluate(OPTIONS, "#filter-game")[1:] == titles
    ctx.close()
