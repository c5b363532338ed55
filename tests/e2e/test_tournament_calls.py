"""A tournament calls its players to their tables: two humans in two browsers, one on the
tournament page and one elsewhere, are counted down and taken to their table when the
organiser starts; after a match the result leads back to the tournament, the next round's
call reaches them on the result dialog, a player who stays is shown a notice on every page
until he goes, and nobody is forfeited."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import running_server
from tests.e2e.steps import guest

pytestmark = pytest.mark.e2e

TIMEOUT = 10_000
# The countdown is 5 s; a call must be on screen well before it ends.
CALL_TIMEOUT = 15_000


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("e2e-calls")) as base:
        yield base


def table_id(page: Any) -> int:
    page.wait_for_url(re.compile(r"/table/\d+$"), timeout=CALL_TIMEOUT)
    page.wait_for_function("() => window.__rampart && window.__rampart.view", timeout=TIMEOUT)
    return int(page.url.rsplit("/", 1)[1])


def resign(page: Any) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign-button", timeout=TIMEOUT)


def test_players_are_called_to_their_tables_and_led_back_to_the_tournament(
    browser: Any, url: str, artifacts: Path
) -> None:
    wide = browser.new_context(viewport={"width": 1280, "height": 800})
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    olga, bram = wide.new_page(), phone.new_page()
    errors: list[str] = []
    for page in (olga, bram):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # Olga proclaims a two-round Swiss of Ambush! with a game option set by its own field.
    guest(olga, url, "Olga")
    olga.goto(url + "/tournaments")
    olga.wait_for_selector("#create-tournament-button", timeout=TIMEOUT)
    olga.fill("#t-name", "Call Cup")
    olga.select_option("#t-game", "ambush")
    olga.select_option("#t-format", "swiss")
    olga.fill("#t-rounds", "2")
    assert olga.locator("#t-options").count() == 0  # no JSON to type
    assert olga.locator("fieldset[data-game='rampage']").count() == 0  # nothing to set there
    olga.select_option("#t-game", "ember")
    assert olga.locator("#t-opt-max-rounds").is_visible()
    assert not olga.locator("#t-opt-castle-hp").is_visible()
    olga.select_option("#t-game", "ambush")
    olga.fill("#t-opt-castle-hp", "12")
    olga.click("#create-tournament-button")
    olga.wait_for_url(re.compile(r"/tournaments/\d+$"), timeout=TIMEOUT)
    tid = int(olga.url.rsplit("/", 1)[1])
    olga.click("#t-open")
    olga.wait_for_selector("#t-register", timeout=TIMEOUT)
    assert olga.locator("#t-bot-level option").all_inner_texts() == ["Easy", "Normal", "Hard"]
    olga.click("#t-register")
    olga.wait_for_selector(".t-you", timeout=TIMEOUT)

    # Bram registers, then looks at the ladders: he is elsewhere when the event starts.
    guest(bram, url, "Bram")
    bram.goto(f"{url}/tournaments/{tid}")
    bram.click("#t-register", timeout=TIMEOUT)
    bram.wait_for_selector(".t-you", timeout=TIMEOUT)
    bram.goto(f"{url}/ladders")
    bram.wait_for_selector("#ladder-list", timeout=TIMEOUT)
    olga.wait_for_selector("#t-entry-list li.t-entry:has-text('Bram')", timeout=TIMEOUT)

    olga.click("#t-start")
    for page, size in ((olga, "1280x800"), (bram, "390x844")):
        page.wait_for_selector("#call-notice.counting #call-seconds", timeout=CALL_TIMEOUT)
        text = page.locator("#call-notice").inner_text()
        assert "Your round 1 match starts" in text and "Call Cup" in text, text
        page.wait_for_timeout(400)  # the notice's fade-in
        page.screenshot(path=str(artifacts / f"tournament-call-{size}.png"))
    first = table_id(olga)
    assert table_id(bram) == first
    # At the table the call is answered: no notice left over the board.
    for page in (olga, bram):
        assert page.locator("#call-notice").is_hidden()
    assert olga.evaluate("() => window.__rampart.view.castles[0].hp") == 12

    # Bram resigns; each result leads back to the tournament instead of a rematch.
    resign(bram)
    for page in (olga, bram):
        page.wait_for_selector(".result #result-tournament", timeout=TIMEOUT)
        assert page.locator(".result #rematch-offer").count() == 0
    # Round 2 is paired at once: its call counts down over the result dialog.
    for page, size in ((olga, "1280x800"), (bram, "390x844")):
        page.wait_for_selector("#call-notice.counting", timeout=CALL_TIMEOUT)
        assert "Your round 2 match starts" in page.locator("#call-notice").inner_text()
        page.wait_for_timeout(400)
        page.screenshot(path=str(artifacts / f"tournament-call-result-{size}.png"))
    # Olga goes at once. Bram stays: a notice keeps waiting for him on every page he opens.
    olga.click("#call-go")
    second = table_id(olga)
    assert second != first
    bram.click("#call-stay")
    waiting = "#call-notice:not(.counting) #call-go:has-text('Go to your table')"
    bram.wait_for_selector(waiting, timeout=TIMEOUT)
    bram.click(".result #result-tournament")
    bram.wait_for_url(re.compile(rf"/tournaments/{tid}$"), timeout=TIMEOUT)
    bram.wait_for_selector(".t-round[data-round='2']", timeout=TIMEOUT)
    assert "Your table is waiting for you" in bram.locator("#call-notice").inner_text()
    bram.screenshot(path=str(artifacts / "tournament-call-waiting-390x844.png"))
    bram.click("#call-go")
    bram.wait_for_url(re.compile(rf"/table/{second}$"), timeout=TIMEOUT)
    assert table_id(bram) == second
    assert bram.locator("#call-notice").is_hidden()

    # Olga resigns the last round; "Back to the tournament" shows the final standings.
    resign(olga)
    for page in (olga, bram):
        page.click(".result #result-tournament", timeout=TIMEOUT)
        page.wait_for_url(re.compile(rf"/tournaments/{tid}$"), timeout=TIMEOUT)
        page.wait_for_selector("#t-final", timeout=TIMEOUT)
        assert page.locator("#call-notice").is_hidden()

    with httpx.Client(base_url=url, timeout=10) as client:
        tournament = client.get(f"/api/tournaments/{tid}").json()
        rounds = client.get(f"/api/tournaments/{tid}/rounds").json()
    assert tournament["options"] == {"castle_hp": 12}
    assert [e["status"] for e in tournament["entries"]] == ["active", "active"]
    tables = [table for r in rounds for table in r["pairings"]]
    assert [t["match_id"] for t in tables] == [first, second]
    assert all(t["forfeited"] == [] for t in tables), tables
    assert not errors, errors
    wide.close()
    phone.close()
