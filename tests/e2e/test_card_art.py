"""Card pictures: every Ember card has its own picture (not one flame for all), and a Castles
card shows its side in the picture itself (a pennant with the side's device)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e

PICTURES = """async () => {
  const ember = await import('/static/js/games/ember/cards.js');
  const castles = await import('/static/js/games/castles/cards.js');
  await Promise.all([ember.loadCards(), castles.loadCards()]);
  const part = (markup, selector) => {
    const box = document.createElement('div');
    box.innerHTML = markup;
    const found = box.querySelector(selector);
    return found ? found.innerHTML : null;
  };
  return {
    ember: Object.keys(ember.CARDS).map((id) => [id, part(ember.cardFaceSvg(id), '.em-picture')]),
    castles: Object.keys(castles.CARDS).map((kind) => [kind,
      part(castles.faceSvg(kind, 0), '.cs-pennant'),
      part(castles.faceSvg(kind, 1), '.cs-pennant')]),
  };
}"""


def test_cards_have_their_own_pictures(browser: Any, server_url: str) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server_url + "/")
    found = page.evaluate(PICTURES)
    ember = dict(found["ember"])
    assert len(ember) >= 30
    assert all(ember.values()), [card for card, art in ember.items() if not art]
    assert len(set(ember.values())) == len(ember), "two Ember cards share a picture"
    for kind, red, blue in found["castles"]:
        assert red and blue and red != blue, f"{kind}: both sides draw the same picture"
    ctx.close()
