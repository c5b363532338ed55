"""Browser notifications of "your turn": the start page's list offers them while the browser
has not been asked; once allowed, a match that starts waiting for the player while his tab is
hidden shows one, naming the game and the opponent, and only once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import running_server
from tests.e2e.steps import guest
from tests.e2e.test_your_turn import TIMEOUT, awaited, end_turn, start_match

pytestmark = pytest.mark.e2e

# The page's Notification, recorded: the permission the browser would ask for, and each
# notification shown; ``document.hidden`` as the test sets it (a tab in the background).
RECORDER = """
window.__notes = [];
window.__hidden = false;
window.Notification = class {
  static permission = "default";
  static async requestPermission() { window.Notification.permission = "granted"; return "granted"; }
  constructor(title, options) { window.__notes.push({ title, ...options }); }
};
Object.defineProperty(Document.prototype, "hidden", {
  get: () => window.__hidden, configurable: true,
});
"""


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("e2e-notes")) as base:
        yield base


def notes(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("() => window.__notes")
    return found


def test_a_hidden_tab_shows_a_notification_when_a_match_awaits(
    browser: Any, url: str, artifacts: Path
) -> None:
    mine, theirs = browser.new_context(), browser.new_context()
    mine.add_init_script(RECORDER)
    home, away = mine.new_page(), theirs.new_page()
    errors: list[str] = []
    for page in (home, away):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    ann = guest(home, url, "Ann Notified")
    bob = guest(away, url, "Bob Notifier")
    first_match = start_match(url, ann, bob)
    if awaited(url, ann, first_match):  # Ann moves: the list now waits for Bob
        other = mine.new_page()
        other.goto(f"{url}/table/{first_match}")
        end_turn(other)
        other.close()
    home.goto(url + "/")
    home.wait_for_selector("#turn-none", timeout=TIMEOUT)
    home.click("#turn-notify", timeout=TIMEOUT)
    home.wait_for_selector("#turn-notify", state="detached", timeout=TIMEOUT)
    home.screenshot(path=str(artifacts / "turn-notifications-allowed.png"))

    home.evaluate("() => { window.__hidden = true; }")
    away.goto(f"{url}/table/{first_match}")
    end_turn(away)  # Bob moves: the match waits for Ann, whose tab is hidden
    home.wait_for_function("() => window.__notes.length === 1", timeout=TIMEOUT)
    (note,) = notes(home)
    assert note["title"] == "Your turn" and note["tag"] == f"turn-{first_match}"
    assert note["body"] == "Castles deck against Bob Notifier", note

    # A second match while the tab is in view: seen on the page, no notification.
    home.evaluate("() => { window.__hidden = false; }")
    second = start_match(url, bob, ann)
    if awaited(url, ann, second):
        home.wait_for_selector(f"#turn-list li[data-match='{second}']", timeout=TIMEOUT)
    home.wait_for_timeout(500)
    assert len(notes(home)) == 1
    assert not errors, errors
    mine.close()
    theirs.close()
