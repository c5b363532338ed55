"""Quick play in Chromium: two browsers click "Play now", wait (one cancels once first), meet
at one table; back on the start page, Play now is refused with a link back to that table; one
resigns and both accept the rematch from the result screen, which takes them to a new match."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.steps import sign_in_as_guest

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000


def table_id(page: Any) -> int:
    page.wait_for_url(re.compile(r"/table/\d+$"), timeout=TIMEOUT)
    return int(page.url.rsplit("/", 1)[1])


def test_two_browsers_play_now_meet_and_rematch(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    contexts = [browser.new_context(viewport={"width": 1200, "height": 820}) for _ in range(2)]
    ann, bob = (ctx.new_page() for ctx in contexts)
    errors: list[str] = []
    for page, name in ((ann, "Quick Ann"), (bob, "Quick Bob")):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(server_url + "/")
        sign_in_as_guest(page, name, TIMEOUT)
        page.wait_for_selector("#qp-ambush-2", timeout=TIMEOUT)

    # Waiting shows the time waited, the estimate and Cancel; Cancel leaves the queue.
    ann.click("#qp-ambush-2")
    ann.wait_for_selector("#qp-waiting:not([hidden]) #qp-estimate", timeout=TIMEOUT)
    ann.screenshot(path=str(artifacts / "quickplay-waiting.png"), full_page=True)
    ann.click("#qp-cancel")
    ann.wait_for_selector("#qp-waiting[hidden]", state="attached", timeout=TIMEOUT)
    ann.wait_for_selector("#qp-ambush-2", timeout=TIMEOUT)

    ann.click("#qp-ambush-2")
    ann.wait_for_selector("#qp-waiting:not([hidden])", timeout=TIMEOUT)
    bob.click("#qp-ambush-2")
    first = table_id(ann)
    assert table_id(bob) == first
    for page in (ann, bob):
        page.wait_for_function("() => window.__rampart && window.__rampart.view", timeout=TIMEOUT)
    seats = {page.evaluate("() => window.__rampart.seat") for page in (ann, bob)}
    assert seats == {0, 1}

    # Seated there, Play now is refused with a link back to the table.
    ann.goto(server_url + "/")
    ann.click("#qp-ambush-2")
    rejoin = f"#qp-playing:not([hidden]) a#qp-rejoin[href='/table/{first}']"
    ann.wait_for_selector(rejoin, timeout=TIMEOUT)
    ann.screenshot(path=str(artifacts / "quickplay-already-playing.png"), full_page=True)
    assert ann.is_visible("#qp-waiting") is False
    ann.click("#qp-rejoin")
    ann.wait_for_url(re.compile(rf"/table/{first}$"), timeout=TIMEOUT)
    ann.wait_for_function("() => window.__rampart && window.__rampart.view", timeout=TIMEOUT)

    ann.click("#resign-button")
    for page in (ann, bob):
        page.wait_for_selector(".result #rematch-offer", timeout=TIMEOUT)
    ann.click("#rematch-offer")
    bob.wait_for_selector("#rematch-state:has-text('Accepted')", timeout=TIMEOUT)
    bob.screenshot(path=str(artifacts / "quickplay-rematch-offer.png"), full_page=True)
    bob.click("#rematch-offer:has-text('Accept')")
    ann.wait_for_url(re.compile(rf"/table/(?!{first}$)\d+$"), timeout=TIMEOUT)
    second = table_id(ann)
    bob.wait_for_url(re.compile(rf"/table/{second}$"), timeout=TIMEOUT)
    assert second != first
    ann.wait_for_function(
        "() => window.__rampart && window.__rampart.view && !window.__rampart.view.outcome",
        timeout=TIMEOUT,
    )
    assert not errors, errors
    for ctx in contexts:
        ctx.close()
