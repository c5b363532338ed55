"""The axe-core accessibility scan (the copy bundled in the axe-playwright-python package, so it
runs offline) finds nothing critical or serious on any page: the start page, history,
tournaments, ladders, How to play, each of the four tables in play and a match's replay."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e import steps
from tests.e2e.fit import DESKTOP, PHONE

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000
BLOCKING = ("critical", "serious")
# A chronicle long enough to scroll, as after a long match (lines as the feed draws them).
LONG_FEED = """() => { for (const feed of document.querySelectorAll('ol.feed')) {
  for (let i = 0; i < 80; i += 1) {
    const line = document.createElement('li'); line.className = 'feed-turn';
    line.textContent = `Line ${i} of a long match.`; feed.append(line);
  } } }"""


def findings(page: Any) -> list[str]:
    """The critical and serious axe findings on ``page`` as it is drawn now, one line each
    (rule, impact, and the first few elements it names)."""
    from axe_playwright_python.sync_playwright import Axe

    page.evaluate("() => new Promise((done) => setTimeout(done, 300))")  # let the page settle
    results = Axe().run(page)
    lines = []
    for violation in results.response["violations"]:
        if violation["impact"] in BLOCKING:
            where = [" ".join(map(str, node["target"])) for node in violation["nodes"][:4]]
            lines.append(f"{violation['id']} ({violation['impact']}): {where}")
    return lines


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_site_pages_have_no_serious_findings(
    browser: Any, server_url: str, viewport: dict[str, int]
) -> None:
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    try:
        page.goto(server_url + "/")
        steps.sign_in_as_guest(page, "Axe", TIMEOUT)
        found = {}
        for path, ready in (
            ("/", "#qp-ambush-2"),
            ("/matches", ".matches tbody tr"),
            ("/tournaments", "main h1, main h2"),
            ("/ladders", "main h1, main h2"),
            *((f"/howto/{game}", "main h1") for game in ("ambush", "rampage", "castles", "ember")),
        ):
            page.goto(server_url + path)
            page.wait_for_selector(ready, timeout=TIMEOUT)
            found[path] = findings(page)
        assert not any(found.values()), found
    finally:
        ctx.close()


@pytest.mark.parametrize("game", ["ambush", "rampage", "castles", "ember"])
def test_tables_in_play_and_their_replay_have_no_serious_findings(
    browser: Any, server_url: str, game: str
) -> None:
    desk_ctx = browser.new_context(viewport=DESKTOP)
    phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    desk, phone = desk_ctx.new_page(), phone_ctx.new_page()
    for page in (desk, phone):
        page.on("dialog", lambda dialog: dialog.accept())
    try:
        match_id = steps.open_private_duel(desk, phone, server_url, game, {}, TIMEOUT)
        found = {}
        for page, size in ((desk, "1280x800"), (phone, "390x844")):
            page.wait_for_selector(".board-wrap > *", timeout=TIMEOUT)
            found[f"table at {size}"] = findings(page)
        desk.evaluate(LONG_FEED)
        found["table with a long chronicle"] = findings(desk)
        # Whoever may act resigns (in Ember's hero choice only the seat choosing may).
        (desk if desk.locator("#resign-button").count() else phone).click("#resign-button")
        steps.wait_model(desk, "window.__rampart.view.outcome", TIMEOUT)
        desk.wait_for_selector(".result", timeout=TIMEOUT)
        found["result"] = findings(desk)
        desk.goto(f"{server_url}/matches/{match_id}")
        desk.wait_for_selector(".replay-stage .board-wrap > *", timeout=TIMEOUT)
        found["replay"] = findings(desk)
        desk.evaluate(LONG_FEED)
        found["replay with a long feed"] = findings(desk)
        assert not any(found.values()), found
    finally:
        desk_ctx.close()
        phone_ctx.close()
