"""One screen: at 1280x800 and at 390x844 every table shows the board, the hand, the player's own
dial or castle, the action buttons and the instruction banner at once, without scrolling, and
toasts never cover them; the phone header does not overflow."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e import steps
from tests.e2e.fit import DESKTOP, PHONE, VISIBLE_BOX

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000
LONG_TOAST = "A long message to check that toasts never cover the table, even when it wraps twice."

# What must be visible at once, per game: (name, selector, required).
COMMON = [("board", ".board-wrap", True), ("banner", ".banner", True),
          ("resign", "#resign-button", False)]  # fmt: skip
WANTED: dict[str, list[tuple[str, str, bool]]] = {
    "ambush": [("hand", ".me .hand", True), ("own dial", ".me .my-dial .dial", True),
               ("ambush", "#ambush-button", True), ("pass", "#pass-button", True)],
    "rampage": [("hand", ".me .rp-hand", True), ("own castle", ".me .rp-player", True),
                ("set-up", ".rp-setup-bar .btn", False)],
    "castles": [("hand", ".cs-hand", True), ("own seat", ".cs-my-seat", True),
                ("own castle", ".cs-castle-hp", True), ("end turn", "#cs-end-turn", False)],
    "ember": [("hand", ".em-hand", True), ("own area", ".em-me .em-area", True)],
}  # fmt: skip

# The part of each element nothing clips (``VISIBLE_BOX``). Returns the element's box, the
# visible box and the document's scroll.
MEASURE = (
    """(selectors) => {
  const out = {};
"""
    + VISIBLE_BOX
    + """
  for (const [name, sel] of selectors) {
    const el = [...document.querySelectorAll(sel)].find((e) => e.getClientRects().length);
    if (!el) { out[name] = null; continue; }
    const r = el.getBoundingClientRect();
    const box = visibleBox(el);
    out[name] = {w: r.width, h: r.height,
                 vw: Math.max(0, box.r - box.l), vh: Math.max(0, box.b - box.t),
                 l: r.left, t: r.top, r: r.right, b: r.bottom};
  }
  const toasts = [...document.querySelectorAll("#toasts .toast")].map((e) => {
    const r = e.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom};
  });
  return {boxes: out, toasts, scrollY: window.scrollY};
}"""
)


def show_toast(page: Any) -> None:
    page.evaluate(f"() => import('/static/js/dom.js').then((m) => m.toast({LONG_TOAST!r}))")
    page.wait_for_selector("#toasts .toast:last-child", timeout=TIMEOUT)


def check_one_screen(page: Any, game: str, size: str) -> None:
    wanted = COMMON + WANTED[game]
    page.evaluate("() => window.scrollTo(0, 0)")
    found = page.evaluate(MEASURE, [[name, sel] for name, sel, _ in wanted])
    assert found["scrollY"] == 0
    boxes = found["boxes"]
    for name, sel, required in wanted:
        box = boxes[name]
        if box is None:
            assert not required, f"{game} at {size}: no {name} ({sel})"
            continue
        # Wholly visible: nothing clips it and it lies inside the viewport (1 px of slack).
        assert box["vw"] >= box["w"] - 1 and box["vh"] >= box["h"] - 1, (
            f"{game} at {size}: the {name} ({sel}) is not wholly on screen: {box}"
        )
        assert box["h"] > 0 and box["w"] > 0, f"{game} at {size}: the {name} is empty"
    assert boxes["board"]["h"] >= 150, f"{game} at {size}: the board is squeezed: {boxes}"
    assert found["toasts"], "the toast is missing"
    for toast in found["toasts"]:
        for name, box in boxes.items():
            if box is None:
                continue
            apart = (
                toast["r"] <= box["l"]
                or toast["l"] >= box["r"]
                or toast["b"] <= box["t"]
                or toast["t"] >= box["b"]
            )
            assert apart, f"{game} at {size}: a toast covers the {name}: {toast} / {box}"


@pytest.mark.parametrize("game", ["ambush", "rampage", "castles", "ember"])
def test_every_table_fits_one_screen(browser: Any, server_url: str, game: str) -> None:
    desk_ctx = browser.new_context(viewport=DESKTOP)
    phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    desk, phone = desk_ctx.new_page(), phone_ctx.new_page()
    try:
        steps.open_private_duel(desk, phone, server_url, game, {}, TIMEOUT)
        for page, size in ((desk, "1280x800"), (phone, "390x844")):
            page.wait_for_selector(".board-wrap > *", timeout=TIMEOUT)
            show_toast(page)
            check_one_screen(page, game, size)
    finally:
        desk_ctx.close()
        phone_ctx.close()


def test_phone_header_does_not_overflow(browser: Any, server_url: str) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    try:
        for signed_in in (False, True):
            page.goto(server_url + "/")
            if signed_in:
                steps.sign_in_as_guest(page, "Bram", TIMEOUT)
            page.wait_for_selector(".site-head nav a", timeout=TIMEOUT)
            clipped = page.evaluate(
                """() => [...document.querySelectorAll('.site-head nav a, #account-badge')]
                  .filter((e) => e.scrollWidth > e.clientWidth + 1
                    || e.getBoundingClientRect().right > window.innerWidth
                    || e.getBoundingClientRect().left < 0)
                  .map((e) => e.textContent)"""
            )
            assert clipped == [], f"clipped in the phone header: {clipped}"
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= PHONE["width"]
    finally:
        ctx.close()


def test_ember_with_heroes_and_hands_fits_one_screen(browser: Any, server_url: str) -> None:
    """Past the hero choice both areas and a full hand of five are on the table at once."""
    from tests.e2e.test_ember_table import OPTIONS

    desk_ctx = browser.new_context(viewport=DESKTOP)
    phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    desk, phone = desk_ctx.new_page(), phone_ctx.new_page()
    try:
        steps.open_private_duel(desk, phone, server_url, "ember", OPTIONS, TIMEOUT)
        desk.click(".em-hero-card.em-hero-free[data-hero='rowl']")
        phone.click(".em-hero-card.em-hero-free[data-hero='yvera']")
        for page, size in ((desk, "1280x800"), (phone, "390x844")):
            steps.wait_model(page, "(window.__rampart.view.hand || []).length === 5", TIMEOUT)
            show_toast(page)
            check_one_screen(page, "ember", size)
    finally:
        desk_ctx.close()
        phone_ctx.close()
