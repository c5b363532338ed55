"""Details a new player meets around a running Castles match: each card in play says whose it
is (an owner band and a legend), the phone's start page shows the Rejoin box without
scrolling, the quick-play bots checkbox sits small on its label's line, and the phone's
History list fits the screen with a "watch live" link a tap opens to a table that fits."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e import steps
from tests.e2e.fit import DESKTOP, PHONE, check_both_sizes

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000
OWNER_BANDS = """() => [...document.querySelectorAll('.cs-board .cs-card')].map((card) => {
  const band = card.querySelector('.cs-owner');
  const box = band ? band.getBoundingClientRect() : null;
  return {side: Number(card.dataset.side), kind: card.dataset.kind,
          word: band ? band.textContent : null, height: box ? box.height : 0,
          width: box ? box.width : 0, cardWidth: card.getBoundingClientRect().width,
          colour: band ? getComputedStyle(band).backgroundColor : null};
})"""


def test_around_a_running_castles_match(browser: Any, server_url: str) -> None:
    from tests.e2e.test_castles_table import OPTIONS

    desk_ctx = browser.new_context(viewport=DESKTOP)
    phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    watch_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    alice, bram, watcher = desk_ctx.new_page(), phone_ctx.new_page(), watch_ctx.new_page()
    try:
        match_id = steps.open_private_duel(alice, bram, server_url, "castles", OPTIONS, TIMEOUT)

        # Whose card: a band across the top of every card in play, in the owner's colour,
        # "Yours" on Red's (Alice's) cards and "Enemy" on Blue's; the legend explains both.
        alice.wait_for_selector(".cs-board .cs-card", timeout=TIMEOUT)
        bands = alice.evaluate(OWNER_BANDS)
        assert {band["side"] for band in bands} == {0, 1}
        for band in bands:
            assert band["word"] == ("Yours" if band["side"] == 0 else "Enemy"), band
            assert band["height"] >= 10 and band["width"] >= band["cardWidth"] - 6, band
        colours = {band["side"]: band["colour"] for band in bands}
        assert colours[0] != colours[1] and None not in colours.values(), colours
        legend = alice.inner_text(".cs-legend")
        assert "Red: your side" in legend and "Blue: the enemy" in legend, legend

        # Bram's phone start page: his match's Rejoin button is on screen without scrolling.
        bram.goto(server_url + "/")
        bram.wait_for_selector(f"#my-matches a[href='/table/{match_id}']", timeout=TIMEOUT)
        rejoin = bram.locator(f"#my-matches a[href='/table/{match_id}']").bounding_box()
        assert rejoin and rejoin["y"] >= 0 and rejoin["y"] + rejoin["height"] <= PHONE["height"]

        # The bots checkbox: a small box, centred on its label's line.
        bram.wait_for_selector("#qp-bots", timeout=TIMEOUT)
        check = bram.evaluate(
            """() => { const box = document.querySelector('#qp-bots').getBoundingClientRect();
              const label = document.querySelector('.qp-bots');
              const range = document.createRange(); range.selectNodeContents(label);
              const text = [...range.getClientRects()].filter((r) => r.width > 20).pop();
              return {w: box.width, h: box.height, mid: box.top + box.height / 2,
                      textMid: text.top + text.height / 2}; }"""
        )
        assert check["w"] <= 22 and check["h"] <= 22, check
        assert abs(check["mid"] - check["textMid"]) <= 4, check

        # History on a phone: no wider than the screen; a tap on "watch live" opens the match.
        watcher.goto(server_url + "/matches")
        row = f".matches tr[data-match='{match_id}']"
        watcher.wait_for_selector(row, timeout=TIMEOUT)
        wide = watcher.evaluate(
            "() => [document.documentElement.scrollWidth,"
            " document.querySelector('.matches').getBoundingClientRect().right]"
        )
        assert wide[0] <= PHONE["width"] and wide[1] <= PHONE["width"], wide
        watcher.tap(f"{row} a:has-text('watch live')")
        watcher.wait_for_url(re.compile(rf"/watch/{match_id}$"), timeout=TIMEOUT)
        # The spectator's table fits one screen as a player's does.
        watcher.wait_for_selector(".board-wrap .cs-card", timeout=TIMEOUT)
        check_both_sizes(watcher, "the Castles table watched")
    finally:
        for ctx in (desk_ctx, phone_ctx, watch_ctx):
            ctx.close()
