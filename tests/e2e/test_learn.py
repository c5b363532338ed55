"""Learning in the app: the Ambush! practice round played through from the start page by
following its hints, and the How to play pages with their card pictures and their links."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.steps import LOBBY_URL, TABLE_URL, model, sign_in_as_guest, wait_model

TIMEOUT = 30_000
PRACTICE_URL = re.compile(r"/practice/ambush/\d+$")
GAMES = {
    "ambush": ("Ambush!", ".card-art"),
    "rampage": ("Castle Rampage", ".rp-card svg"),
    "castles": ("Castles", ".cs-art"),
    "ember": ("Ember", ".em-art"),
}


def coach_at(page: Any, step: str) -> str:
    """Wait until the coach shows ``step``; its hint text."""
    page.wait_for_selector(f"#coach-hint[data-step='{step}']", timeout=TIMEOUT)
    text: str = page.inner_text("#coach-hint")
    return text


def click_free_cell(page: Any) -> None:
    page.click(".cell.free.placeable >> nth=0", timeout=TIMEOUT)


def exposed_cell(page: Any) -> tuple[int, int]:
    """Where the Ambush! card just exposed went, as the player saw it (the view shows the
    exposed card until the next turn)."""
    wait_model(page, "(window.__rampart.view.exposed || {}).card === 'ambush'", TIMEOUT)
    cell = model(page)["view"]["exposed"]["cell"]
    return int(cell[0]), int(cell[1])


def grab(page: Any, x: int, y: int, captured: int) -> None:
    """Grab the card at (x, y) until the dial counts ``captured`` cards: a grab inside the
    first 100 ms after the call, or while the hand is busy, is refused, as for anyone."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(10):
        page.click(f".cell.occupied[data-x='{x}'][data-y='{y}']", timeout=TIMEOUT)
        with contextlib.suppress(PlaywrightTimeout):
            wait_model(page, f"window.__rampart.view.castles[0].captured_count >= {captured}", 1500)
            return
    raise AssertionError(f"could not grab ({x}, {y})")


def test_the_ambush_practice_round_from_the_start_page(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server_url + "/")
    page.click("#learn-panel .practice-link[data-game='ambush']")  # a visitor: becomes a guest
    page.wait_for_url(PRACTICE_URL, timeout=TIMEOUT)
    hints: dict[str, str] = {}

    hints["expose"] = coach_at(page, "expose")
    page.screenshot(path=str(artifacts / "learn-practice-1-expose.png"))
    click_free_cell(page)
    ambushes = [exposed_cell(page)]

    hints["play"] = coach_at(page, "play")
    page.click(".hand-card[data-card='knight']")
    click_free_cell(page)

    hints["bot-turn"] = coach_at(page, "bot-turn")
    page.screenshot(path=str(artifacts / "learn-practice-2-bot-turn.png"))
    hints["expose-again"] = coach_at(page, "expose-again")
    click_free_cell(page)
    ambushes.append(exposed_cell(page))

    hints["call"] = coach_at(page, "call")
    page.screenshot(path=str(artifacts / "learn-practice-3-call.png"))
    page.click("#ambush-button")

    hints["race"] = coach_at(page, "race")
    for grabbed, (x, y) in enumerate(ambushes, 1):  # where the player saw them go
        grab(page, x, y, grabbed)
    page.screenshot(path=str(artifacts / "learn-practice-4-race.png"))

    hints["check"] = coach_at(page, "check")
    assert "true call" in hints["check"]
    assert "you captured 2 Ambush! card(s)" in hints["check"]
    page.screenshot(path=str(artifacts / "learn-practice-5-check.png"))
    page.click("#coach-next")

    hints["hand-limit"] = coach_at(page, "hand-limit")
    assert "over the limit of 5" in hints["hand-limit"]
    owed = int(re.search(r"Choose (\d+) card", hints["hand-limit"]).group(1))  # type: ignore[union-attr]
    page.screenshot(path=str(artifacts / "learn-practice-6-hand-limit.png"))
    for index in range(owed):
        page.click(f".hand-card >> nth={index}")
    page.click("#return-button:not([disabled])")

    hints["resume"] = coach_at(page, "resume")
    # The bot may still be choosing its own returns: the turn goes on once every hand is in.
    wait_model(page, "window.__rampart.legal.some((a) => a.type === 'play')", TIMEOUT)
    page.click(".hand-card[data-card='dragon']")
    click_free_cell(page)

    hints["free"] = coach_at(page, "free")
    page.screenshot(path=str(artifacts / "learn-practice-7-free.png"))
    assert page.is_visible("#coach-leave[href='/']")
    for step, text in hints.items():
        assert text and "{" not in text, (step, text)
    assert "Ambush! card" in hints["expose"]
    assert "Knight" in hints["play"]
    assert "Call Ambush!" in hints["call"]
    assert not errors
    # The match is casual: the history says so and no ladder moved.
    match_id = int(page.url.rsplit("/", 1)[1])
    record = page.evaluate(f"fetch('/api/matches/{match_id}').then(r => r.json())")
    assert record["rated"] is False
    page.close()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_how_to_play_page_shows_the_rules_with_card_pictures(
    browser: Any, server_url: str, game: str, artifacts: Path
) -> None:
    title, art = GAMES[game]
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server_url}/howto/{game}")
    page.wait_for_selector("article.howto", timeout=TIMEOUT)
    assert title in page.inner_text("h1")
    assert page.locator(".learn-section").count() >= 5
    gallery = page.locator(f".learn-gallery .learn-card {art}")
    assert gallery.count() >= 10
    box = gallery.first.bounding_box()
    assert box is not None and box["width"] > 40 and box["height"] > 60  # drawn, not collapsed
    assert page.get_attribute("#howto-practice", "href") == f"/practice/{game}"
    page.screenshot(path=str(artifacts / f"learn-howto-{game}.png"))
    page.close()


def test_how_to_play_is_linked_from_start_page_lobby_and_table(
    browser: Any, server_url: str
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server_url + "/")
    # The start page draws its panels once the game catalogue (GET /api/games) has arrived.
    page.wait_for_selector("#learn-panel a.howto-home", timeout=TIMEOUT)
    for game in GAMES:
        assert page.locator(f"#learn-panel a.howto-home[href='/howto/{game}']").count() == 1
    page.click("#learn-panel a.howto-home[href='/howto/castles']")
    page.wait_for_selector("article.howto[data-game='castles']", timeout=TIMEOUT)
    page.go_back()
    sign_in_as_guest(page, "Reader", TIMEOUT)
    page.select_option("#new-game", "rampage")
    page.click("#create-button")
    page.wait_for_url(LOBBY_URL, timeout=TIMEOUT)
    page.wait_for_selector("a.howto-lobby[href='/howto/rampage']", timeout=TIMEOUT)
    page.click("#add-bots")
    page.click("#start-button:not([disabled])")
    page.wait_for_url(TABLE_URL, timeout=TIMEOUT)
    link = page.wait_for_selector("a.howto-table[href='/howto/rampage']", timeout=TIMEOUT)
    assert link is not None and link.get_attribute("target") == "_blank"
    page.close()


def guided_rampage(page: Any) -> None:
    coach_at(page, "split-one")
    for round_number in (1, 2):
        wait_model(
            page,
            f"window.__rampart.view.setup_round === {round_number}"
            " && !window.__rampart.view.players[0].chosen",
            TIMEOUT,
        )
        deals = page.locator(".rp-deal")
        for index, structure in ((0, "gate"), (1, "gate"), (2, "castle"), (3, "castle")):
            deals.nth(index).locator(f".rp-to-{structure}").click()
        page.click("#rp-setup-confirm")
    coach_at(page, "defend")
    page.click(".rp-hand button.hand-card >> nth=0")
    page.click("#rp-defend-castle")
    coach_at(page, "attack")
    page.click(".rp-hand button.hand-card[data-kind='axe_man'] >> nth=0")
    page.click("#rp-play")
    coach_at(page, "end-turn")
    page.click("#end-turn-button")


def guided_castles(page: Any) -> None:
    coach_at(page, "play")
    page.click(".cs-hand button.cs-hand-card[data-kind='spearman'] >> nth=0")
    page.click(".cs-board .cs-zone.cs-drop[data-zone='1']")
    coach_at(page, "act")
    page.click(".cs-board .cs-card[data-kind='wizard'][data-side='0']")
    page.click(".cs-board .cs-card.cs-target[data-kind='castle'][data-side='1']")
    coach_at(page, "move")
    page.click(".cs-board .cs-card[data-kind='general'][data-side='0']")
    page.click(".cs-board .cs-zone.cs-drop[data-zone='2']")
    coach_at(page, "end-turn")
    page.click("#cs-end-turn")


def guided_ember(page: Any) -> None:
    coach_at(page, "mode")
    page.click(".em-hand .em-card[data-card='ember_shard'] >> nth=0")
    page.click("#em-confirm")
    coach_at(page, "play")
    page.click(".em-hand .em-card[data-card='blade_dancer'] >> nth=0")
    page.click("#em-confirm")
    coach_at(page, "bot-turn")
    coach_at(page, "keep-mode")
    page.click("#em-keep-mode")
    coach_at(page, "play-again")
    page.click(".em-hand .em-card[data-card='glimmer'] >> nth=0")
    page.click("#em-confirm")


GUIDED = {"rampage": guided_rampage, "castles": guided_castles, "ember": guided_ember}


@pytest.mark.parametrize("game", sorted(GUIDED))
def test_each_guided_start_in_the_browser(browser: Any, server_url: str, game: str) -> None:
    """Doing what each hint asks, on the real table, brings the coach to free play."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{server_url}/howto/{game}")
    page.click("#howto-practice")
    page.wait_for_url(re.compile(rf"/practice/{game}/\d+$"), timeout=TIMEOUT)
    GUIDED[game](page)
    assert "How to play" in coach_at(page, "free")
    assert not errors
    page.close()


def test_the_coach_follows_a_newcomer_off_the_script(browser: Any, server_url: str) -> None:
    """A call with one Ambush! card down: the coach says what is legal during the race, and
    later refuses to say "call now" while the player knows of fewer than two."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server_url + "/practice/ambush")
    coach_at(page, "expose")
    click_free_cell(page)
    coach_at(page, "play")
    page.click("#ambush-button")  # too early: one Ambush! card is down
    wait_model(page, "window.__rampart.view.phase === 'ambush'", TIMEOUT)
    page.wait_for_selector("#coach-now:has-text('A race is on')", timeout=TIMEOUT)
    assert "coach-dim" in (page.get_attribute("#coach-hint", "class") or "")
    wait_model(page, "window.__rampart.view.phase === 'turn'", TIMEOUT)
    assert page.get_attribute("#coach-hint", "data-step") == "play"  # the turn goes on
    page.keyboard.press("p")  # pass instead of playing
    coach_at(page, "bot-turn")
    page.wait_for_selector("#coach-now:has-text('The bot is thinking')", timeout=TIMEOUT)
    coach_at(page, "expose-again")
    click_free_cell(page)
    text = coach_at(page, "call")
    # The race shuffled the battlefield back (the first Ambush! card with it) into the deck:
    # the bot's exposed card and this one may each be an Ambush! card. The coach says "call"
    # only when two are known to lie there, and otherwise says how many it knows of.
    known = re.search(r"You know of (\d) Ambush! card\(s\)", text)
    assert (known is not None and int(known.group(1)) < 2) or "A second Ambush! card" in text, text
    page.close()
