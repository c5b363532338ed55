"""Tournaments, ladders and profiles in the browser: an organiser runs a Swiss event with bots
and a second human to its final standings while the page updates live; a ladder shows the
ledger beside Glicko-2 and OpenSkill; a player's profile draws the rating-history chart."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import running_server
from tests.e2e.steps import guest

pytestmark = pytest.mark.e2e

TIMEOUT = 10_000
GAME = "ambush"
# Match time runs this much faster than wall time: a bot duel takes a few seconds, slow
# enough for the page to show each round before the next one is paired.
CLOCK_RATE = "40"
# The humans never move: 5 s turns (1/8 s of wall time) auto-play for them, and the long
# disconnect grace keeps their absence from forfeiting the match.
TIME_CONTROL = {"turn_ms": 5000, "on_timeout": "pass", "grace_ms": 3_600_000}


# Installed on the organiser's page: every distinct standings text drawn from now on.
RECORD_STANDINGS = """() => {
  window.__standings = [];
  const record = () => {
    const body = document.querySelector("#t-standings-table tbody");
    const seen = window.__standings;
    if (body && (!seen.length || seen[seen.length - 1] !== body.innerText)) {
      seen.push(body.innerText);
    }
  };
  record();
  new MutationObserver(record).observe(document.body, {
    subtree: true, childList: true, characterData: true,
  });
}"""


@pytest.fixture(scope="module")
def fast_url(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[str]:
    """A server of this module's own with a fast match clock (the shared one runs at 1x)."""
    tmp = tmp_path_factory.mktemp("e2e-tournaments")
    with running_server(tmp, RAMPART_CLOCK_RATE=CLOCK_RATE) as url:
        yield url


def test_organiser_runs_a_swiss_tournament_to_final_standings(
    browser: Any, fast_url: str, artifacts: Path
) -> None:
    org_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    rival_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    org, rival = org_ctx.new_page(), rival_ctx.new_page()
    errors: list[str] = []
    for page in (org, rival):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    guest(org, fast_url, "Olga")
    org.click("nav a:has-text('Tournaments')")
    org.wait_for_selector("#create-tournament-button", timeout=TIMEOUT)
    org.fill("#t-name", "Winter Siege")
    org.select_option("#t-game", GAME)
    org.select_option("#t-format", "swiss")
    org.fill("#t-rounds", "3")
    org.fill("#t-turn", "5")
    org.fill("#t-grace", "3600")
    org.screenshot(path=str(artifacts / "tournament-create.png"), full_page=True)
    org.click("#create-tournament-button")
    org.wait_for_url(re.compile(r"/tournaments/\d+$"), timeout=TIMEOUT)
    tid = int(org.url.rsplit("/", 1)[1])
    org.wait_for_selector("#t-status:has-text('draft')", timeout=TIMEOUT)
    org.click("#t-open")
    org.wait_for_selector("#t-status:has-text('registration')", timeout=TIMEOUT)
    org.fill("#t-bot-count", "4")
    org.click("#t-add-bots")
    org.wait_for_selector("#t-entry-list li.t-entry >> nth=3", timeout=TIMEOUT)

    # A second human registers from another browser; the organiser's page hears of it live.
    guest(rival, fast_url, "Bram")
    rival.goto(f"{fast_url}/tournaments/{tid}")
    rival.click("#t-register", timeout=TIMEOUT)
    rival.wait_for_selector(".t-you", timeout=TIMEOUT)
    org.wait_for_selector("#t-entry-list li.t-entry:has-text('Bram')", timeout=TIMEOUT)
    org.evaluate("() => { window.__sameDocument = true; }")
    org.screenshot(path=str(artifacts / "tournament-registration.png"), full_page=True)

    org.click("#t-start")
    org.wait_for_selector(".t-round[data-round='1'] li.t-table >> nth=1", timeout=TIMEOUT)
    assert org.locator(".t-round[data-round='1'] .t-byes").count() == 1  # five players
    org.screenshot(path=str(artifacts / "tournament-round1.png"), full_page=True)
    # Bram, unrated, is seeded last and sits out round 1; round 2 calls him to his table
    # (static/js/calls.js). While it counts down, his own table offers him his seat (or, once
    # over, its history) while others' tables are for watching.
    rival.wait_for_selector(".t-round[data-round='1'] .t-byes:has-text('Bram')", timeout=TIMEOUT)
    rival.wait_for_selector("#call-notice.counting", timeout=40_000)
    own = rival.locator(".t-round[data-round='2'] li.t-table:has-text('Bram') a.t-match")
    own.wait_for(timeout=30_000)
    # Read link and label together: the table may finish (and redraw) between two reads.
    href, label = own.evaluate("(a) => [a.getAttribute('href'), a.textContent]")
    assert re.match(r"^/(table|matches)/\d+$", href), href
    assert href.startswith("/matches/") or label == "Play", (href, label)
    others = rival.locator(".t-round[data-round='2'] li.t-table:not(:has-text('Bram')) a.t-match")
    assert all(
        not h.startswith("/table/")
        for h in others.evaluate_all("(as) => as.map((a) => a.getAttribute('href'))")
    )

    # Standings change on the open page as matches finish, round after round, without reload.
    # The page itself records every standings text it draws (polling from here could miss a
    # round that finishes between two polls on a busy machine).
    org.evaluate(RECORD_STANDINGS)
    org.screenshot(path=str(artifacts / "tournament-live.png"), full_page=True)
    org.wait_for_selector("#t-final", timeout=90_000)
    seen: list[str] = org.evaluate("() => window.__standings")
    assert len(seen) >= 3, seen
    assert org.evaluate("() => window.__sameDocument === true")
    org.wait_for_selector(".t-round[data-round='3'] li.t-table", timeout=TIMEOUT)
    assert org.locator("#t-status").inner_text() == "finished"
    rows = org.locator("#t-standings-table tbody tr")
    assert rows.count() == 5
    assert org.locator("#t-standings-table th:has-text('Buchholz')").count() == 1
    played = [
        int(t) for t in org.locator("#t-standings-table tbody td:nth-child(4)").all_inner_texts()
    ]
    assert all(p + b == 3 for p, b in zip(played, byes(org), strict=True)), played
    # Finished tables link to their match history.
    org.click(".t-round[data-round='1'] a.t-match >> nth=0")
    org.wait_for_url(re.compile(r"/matches/\d+$"), timeout=TIMEOUT)
    org.go_back()
    org.wait_for_selector("#t-final", timeout=TIMEOUT)
    org.screenshot(path=str(artifacts / "tournament-final.png"), full_page=True)
    org.set_viewport_size({"width": 390, "height": 844})
    org.screenshot(path=str(artifacts / "tournament-final-phone.png"), full_page=True)
    org.set_viewport_size({"width": 1280, "height": 900})

    # The list shows the finished event.
    org.goto(f"{fast_url}/tournaments?status=finished")
    org.wait_for_selector(f"tr[data-tournament='{tid}']:has-text('Winter Siege')", timeout=TIMEOUT)
    org.screenshot(path=str(artifacts / "tournament-list.png"), full_page=True)
    assert not errors, errors
    org_ctx.close()
    rival_ctx.close()


def byes(page: Any) -> list[int]:
    return [
        int(t) for t in page.locator("#t-standings-table tbody td:nth-child(6)").all_inner_texts()
    ]


def run_tournament(
    client: httpx.Client, token: str, size: int, human: str | None
) -> tuple[int, int]:
    """Heuristic bots (and ``human``, who never moves) at tables of ``size``, started through
    the REST API; returns the human's account id (0 without one) and the tournament id. Bots
    of one level never play each other rated, so a table of bots alone mixes levels."""
    auth = {"authorization": f"Bearer {token}"}
    # Round robin is played in duels; a table of three is a one-round Swiss.
    shape = {"format": "round_robin"} if size == 2 else {"format": "swiss", "rounds": 1}
    body = {"game": GAME, "table_size": size, "time_control": TIME_CONTROL, **shape}
    tid = client.post("/api/tournaments", json=body, headers=auth).json()["id"]
    client.post(f"/api/tournaments/{tid}/open", headers=auth).raise_for_status()
    player = 0
    if human:
        made = client.post("/api/accounts", json={"name": human}).json()
        player = made["account"]["id"]
        headers = {"authorization": f"Bearer {made['token']}"}
        client.post(f"/api/tournaments/{tid}/register", headers=headers).raise_for_status()
    levels = ["normal", "normal"] if human else ["normal", "easy", "hard"][:size]
    for level in levels:
        bots = {"kind": "heuristic", "count": 1, "difficulty": level}
        client.post(f"/api/tournaments/{tid}/bots", json=bots, headers=auth).raise_for_status()
    client.post(f"/api/tournaments/{tid}/start", headers=auth).raise_for_status()
    return player, tid


@pytest.fixture(scope="module")
def rated_player(fast_url: str) -> int:
    """Rated ambush played through the API: Cora's duels (Glicko-2) and a three-castle bot
    table (OpenSkill), so the game's ladder carries both ratings."""
    with httpx.Client(base_url=fast_url, timeout=10) as client:
        token = client.post("/api/accounts", json={"name": "Director"}).json()["token"]
        cora, duels = run_tournament(client, token, 2, "Cora")
        _, trio = run_tournament(client, token, 3, None)
        deadline = time.monotonic() + 90
        for tid in (duels, trio):
            while client.get(f"/api/tournaments/{tid}").json()["status"] != "finished":
                assert time.monotonic() < deadline
                time.sleep(0.3)
    return cora


def test_ladder_shows_ledger_beside_both_ratings(
    browser: Any, fast_url: str, artifacts: Path, rated_player: int
) -> None:
    ctx = browser.new_context(viewport={"width": 1200, "height": 820})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    guest(page, fast_url, "Lena")
    page.click("nav a:has-text('Ladders')")
    page.select_option("#l-filter-game", GAME)
    page.wait_for_selector("#ladder-list li.table-row", timeout=TIMEOUT)
    page.screenshot(path=str(artifacts / "tournament-ladders.png"), full_page=True)
    page.click("#ladder-list li.table-row:has-text('every rated match') a")
    page.wait_for_selector("#leaderboard tbody tr[data-entry]", timeout=TIMEOUT)
    headers = page.locator("#leaderboard thead th").all_inner_texts()
    assert {"Points", "Glicko-2", "OpenSkill"} <= set(headers)
    # Each bot level is a player of its own: the normal one played Cora and the trio.
    bot_row = page.locator("#leaderboard tbody tr:has-text('Heuristic bot (normal)')")
    for system in ("glicko2", "openskill"):
        assert re.match(r"^\d+", bot_row.locator(f"td[data-system='{system}']").inner_text())
    cora_row = page.locator("#leaderboard tbody tr:has-text('Cora')")
    assert re.match(r"^\d+", cora_row.locator("td[data-system='glicko2']").inner_text())
    # Two duels are too few to trust: Cora's rating carries the provisional marker.
    assert cora_row.locator("td[data-system='glicko2'] .prov").count() == 1
    page.screenshot(path=str(artifacts / "tournament-ladder.png"), full_page=True)

    # A custom ladder: found it, join it, appear on it.
    page.goto(fast_url + "/ladders")
    page.fill("#l-name", "Friday club")
    page.click("#create-ladder-button")
    page.wait_for_url(re.compile(r"/ladders/\d+$"), timeout=TIMEOUT)
    page.click("#l-join")
    page.wait_for_selector("#leaderboard tbody tr.mine:has-text('Lena')", timeout=TIMEOUT)
    assert page.locator("#l-join").count() == 0
    assert not errors, errors
    ctx.close()


def test_profile_draws_the_rating_history(
    browser: Any, fast_url: str, artifacts: Path, rated_player: int
) -> None:
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{fast_url}/players/{rated_player}")
    page.wait_for_selector("#p-name:has-text('Cora')", timeout=TIMEOUT)
    page.wait_for_selector("#p-chart svg.chart .chart-series path", timeout=TIMEOUT)
    series = page.locator("#p-chart .chart-series").evaluate_all(
        "(gs) => gs.map((g) => [g.dataset.series, g.querySelectorAll('circle').length])"
    )
    # The start (1500) and one point per rated duel; no three-castle game, so no OpenSkill.
    assert dict(series) == {"Ledger points": 3, "Glicko-2": 3}, series
    assert page.locator("#p-match-table tbody tr").count() == 2
    assert page.locator("#p-tournaments li.table-row").count() == 1
    assert page.locator("#p-ladder-table tbody tr").count() == 1
    page.screenshot(path=str(artifacts / "tournament-profile.png"), full_page=True)
    # The profile links on to the ladder.
    page.click("#p-ladder-table a")
    page.wait_for_selector("#leaderboard tbody tr:has-text('Cora')", timeout=TIMEOUT)
    assert not errors, errors
    ctx.close()
