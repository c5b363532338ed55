"""Cards that ask for more than a cell, played in the browser on a stacked deck: Elven Archer
(two hidden placements), Scout (a look only its player sees), Trickster (a swap), Thief; the
opponent and a spectator never receive the card the Scout saw."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import steps
from tests.e2e.steps import record_frames

pytestmark = pytest.mark.e2e

DECK = [
    "elven_archer", "scout", "trickster", "thief", "knight",
    "footman", "footman", "footman", "knight", "healer",
    "treasure", "booby_trap", "dragon", "footman", "knight", "battering_ram", "ambush",
    "ambush", "healer",
]  # fmt: skip
TIMEOUT = 10_000
MY_TURN = "window.__rampart.view.turn === window.__rampart.seat"


def wait_model(page: Any, condition: str) -> None:
    steps.wait_model(page, condition, TIMEOUT)


def view(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("() => window.__rampart.view")
    return result


def expose(page: Any) -> None:
    wait_model(page, f"window.__rampart.view.step === 'expose' && {MY_TURN}")
    page.click(".grid button.cell.free.placeable >> nth=0")
    wait_model(page, f"window.__rampart.view.step === 'play' && {MY_TURN}")


def pass_turn(page: Any) -> None:
    expose(page)
    page.click("#pass-button")
    wait_model(page, f"!({MY_TURN})")


def test_archer_scout_trickster_thief(browser: Any, server_url: str, artifacts: Path) -> None:
    contexts = [browser.new_context(viewport={"width": 1200, "height": 860}) for _ in range(3)]
    ada, ben, spectator = (ctx.new_page() for ctx in contexts)
    errors: list[str] = []
    for page in (ada, ben, spectator):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    ben_frames, spectator_frames = record_frames(ben), record_frames(spectator)

    ada.goto(server_url + "/")
    ada.fill("#guest-name", "Ada")
    ada.click("#guest-button")
    ada.wait_for_selector("#account-badge:has-text('Ada')", timeout=TIMEOUT)
    ada.click("details summary")
    ada.fill("#opt-json", json.dumps({"deck": DECK, "first_seat": 0}))
    ada.click("#create-button")
    ada.wait_for_url(re.compile(r"/lobby/\d+$"), timeout=TIMEOUT)
    ben.goto(ada.input_value("#invite-link"))
    ben.fill("#guest-name", "Ben")
    ben.click("#guest-button")
    ben.wait_for_url(re.compile(r"/lobby/\d+$"), timeout=TIMEOUT)
    ada.wait_for_selector("#start-button:not([disabled])", timeout=TIMEOUT)
    ada.click("#start-button")
    ada.wait_for_url(re.compile(r"/table/\d+$"), timeout=TIMEOUT)
    ben.wait_for_url(re.compile(r"/table/\d+$"), timeout=TIMEOUT)
    spectator.goto(ada.url.replace("/table/", "/watch/"))
    wait_model(spectator, "window.__rampart.seat === null")

    # Elven Archer: played on a cell, then its two hidden cards placed one click each.
    expose(ada)
    ada.click(".hand button.hand-card[data-card='elven_archer']")
    ada.click(".grid button.cell.free.placeable >> nth=0")
    wait_model(ada, "window.__rampart.view.phase === 'placing'")
    ada.click(".grid button.cell.free.placeable >> nth=0")
    wait_model(ada, "window.__rampart.view.placing_left === 1")
    ada.click(".grid button.cell.free.placeable >> nth=0")
    wait_model(ada, "window.__rampart.view.turn === 1")
    assert len(view(ada)["battlefield"]) == 4
    pass_turn(ben)

    # Scout: choose a face-down card to look at, then the Scout's own cell.
    expose(ada)
    ada.click(".hand button.hand-card[data-card='scout']")
    ada.click(".grid button.cell.occupied.kind-card >> nth=0")
    ada.click(".grid button.cell.free.placeable >> nth=0")
    wait_model(ada, "window.__rampart.view.battlefield.some((b) => b.card)")
    ada.wait_for_selector(".grid .peek", timeout=TIMEOUT)
    ada.screenshot(path=str(artifacts / "scout-look.png"), full_page=True)
    pass_turn(ben)

    # Trickster: two face-down cards swapped, everyone sees which cells.
    expose(ada)
    ada.click(".hand button.hand-card[data-card='trickster']")
    ada.click(".grid button.cell.occupied.kind-card >> nth=0")
    ada.click(".grid button.cell.occupied.kind-card >> nth=1")
    ada.click(".grid button.cell.free.placeable >> nth=0")
    ben.wait_for_selector(".feed li:has-text('swapped')", timeout=TIMEOUT)
    pass_turn(ben)

    # Thief: the only opponent is the target; Ada learns the card, Ben learns what he lost.
    expose(ada)
    ada.click(".hand button.hand-card[data-card='thief']")
    ada.click(".grid button.cell.free.placeable >> nth=0")
    ada.wait_for_selector(".feed li:has-text('You stole')", timeout=TIMEOUT)
    ben.wait_for_selector(".feed li:has-text('stole')", timeout=TIMEOUT)
    wait_model(ben, "window.__rampart.view.hand.length === 4")

    # Nobody but Ada ever received the Scout's card.
    for frames in (ben_frames, spectator_frames):
        views = [f["view"] for f in frames if f.get("type") in ("welcome", "patch")]
        assert views
        for seen in views:
            assert all("card" not in entry for entry in seen["battlefield"])
        events = [e for f in frames if f.get("type") == "patch" for e in f["events"]]
        assert any(e["type"] == "looked" for e in events)
        assert all("card" not in e for e in events if e["type"] == "looked")
    assert not ben.query_selector(".peek") and not spectator.query_selector(".peek")
    assert not errors, errors
    for ctx in contexts:
        ctx.close()


def test_three_castles_choose_a_target(browser: Any, server_url: str) -> None:
    """With two opponents a damage card asks for its target: the dials become buttons."""
    contexts = [browser.new_context(viewport={"width": 1100, "height": 820}) for _ in range(3)]
    pages = [ctx.new_page() for ctx in contexts]
    host = pages[0]
    host.goto(server_url + "/")
    host.fill("#guest-name", "Una")
    host.click("#guest-button")
    host.wait_for_selector("#account-badge:has-text('Una')", timeout=TIMEOUT)
    host.fill("#new-seats", "3")
    host.select_option("#new-privacy", "private")
    host.click("details summary")
    host.fill("#opt-json", json.dumps({"deck": ["knight"], "first_seat": 0}))
    host.click("#create-button")
    host.wait_for_url(re.compile(r"/lobby/\d+$"), timeout=TIMEOUT)
    invite = host.input_value("#invite-link")
    for page, name in zip(pages[1:], ("Vic", "Wen"), strict=True):
        page.goto(invite)
        page.fill("#guest-name", name)
        page.click("#guest-button")
        page.wait_for_url(re.compile(r"/lobby/\d+$"), timeout=TIMEOUT)
    host.wait_for_selector("#start-button:not([disabled])", timeout=TIMEOUT)
    host.click("#start-button")
    for page in pages:
        page.wait_for_url(re.compile(r"/table/\d+$"), timeout=TIMEOUT)
    expose(host)
    host.click(".hand button.hand-card[data-card='knight']")
    host.wait_for_selector(".banner:has-text('choose an opponent castle')", timeout=TIMEOUT)
    host.click(".dial-button[data-seat='2']")
    host.click(".grid button.cell.free.placeable >> nth=0")
    wait_model(pages[2], "window.__rampart.view.castles[2].hp === 27")
    assert [c["hp"] for c in view(host)["castles"]] == [30, 30, 27]
    for ctx in contexts:
        ctx.close()
