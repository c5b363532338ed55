"""Smaller things a browser shows: form errors in the server's words, a
not-found page, the lobby for visitors and full tables, the start vote, casual results without
ledger changes, game titles, replays from the start, the flash beside the instruction, a
destroyed castle's player without race controls, and Ember's result in its own words."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.e2e import steps

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000
DESKTOP = {"width": 1280, "height": 800}


def test_a_short_password_gets_the_server_reason(browser: Any, server_url: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server_url + "/")
    page.fill("#login-name", "Shortpass")
    page.fill("#login-password", "abc")
    page.click("button:has-text('Register')")
    toast = page.wait_for_selector("#toasts .toast-error", timeout=TIMEOUT)
    text = toast.text_content() or ""
    assert "Password" in text and "8 characters" in text, text
    assert "Something in the form is not right" not in text
    ctx.close()


def test_unknown_browser_paths_get_a_page_and_api_paths_json(browser: Any, server_url: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    reply = page.goto(server_url + "/no/such/page")
    assert reply is not None and reply.status == 404
    assert reply.headers["content-type"].startswith("text/html")
    page.wait_for_selector("h1:has-text('Nothing here')", timeout=TIMEOUT)
    assert page.locator(".site-head nav").count() == 1
    ctx.close()
    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(server_url + "/api/no/such/thing")
    assert raised.value.code == 404
    assert json.loads(raised.value.read())["error"]["code"] == "http/404"


def fill_a_two_seat_ambush_table_with_bots(host: Any) -> None:
    """From the home page: raise a two-seat Ambush! table, fill it with bots, see Start."""
    host.select_option("#new-game", "ambush")
    host.fill("#new-seats", "2")
    host.click("#create-button")
    host.wait_for_url(steps.LOBBY_URL, timeout=TIMEOUT)
    host.click("#add-bots")
    host.wait_for_selector("#start-button:not([disabled])", timeout=TIMEOUT)


def test_a_signed_out_visitor_at_a_full_table_with_bots(browser: Any, server_url: str) -> None:
    host_ctx = browser.new_context(viewport=DESKTOP)
    visitor_ctx = browser.new_context(viewport=DESKTOP)
    host, visitor = host_ctx.new_page(), visitor_ctx.new_page()
    host.goto(server_url + "/")
    steps.sign_in_as_guest(host, "Hostess", TIMEOUT)
    fill_a_two_seat_ambush_table_with_bots(host)
    visitor.goto(host.url)
    visitor.wait_for_selector(".seat[data-seat='1']:has-text('bot')", timeout=TIMEOUT)
    visitor.wait_for_selector("#table-full", timeout=TIMEOUT)
    # Not seated: no invite link, no vote, no leave; full: no seat to take.
    assert visitor.locator("#invite-link").count() == 0
    assert visitor.locator(".vote-button").count() == 0
    assert visitor.locator("button:has-text('Leave')").count() == 0
    assert visitor.locator("#take-seat").count() == 0
    host_ctx.close()
    visitor_ctx.close()


def test_a_late_snapshot_of_the_table_does_not_undo_the_bots(browser: Any, server_url: str) -> None:
    """The lobby page hears of its table three ways (its request's reply, a refetch, the feed)
    and they race: the page's first fetch is held here until the bots are seated, then
    answered with the table as it was. The page keeps the newer revision: start stays
    enabled. (CI once saw exactly this order, and a host who could not start.)"""
    ctx = browser.new_context(viewport=DESKTOP)
    host = ctx.new_page()
    held: list[tuple[Any, Any]] = []
    gets = []

    def hold_first_fetch(route: Any) -> None:
        if route.request.method == "GET":
            gets.append(route)
            if len(gets) == 1:  # counted before fetching: handlers interleave while they fetch
                held.append((route, route.fetch()))
                return
        route.continue_()

    host.goto(server_url + "/")
    steps.sign_in_as_guest(host, "Hostess", TIMEOUT)
    host.route(re.compile(r".*/api/lobbies/\d+$"), hold_first_fetch)
    fill_a_two_seat_ambush_table_with_bots(host)
    assert len(held) == 1
    route, stale = held[0]
    assert stale.json()["members"][1]["bot"] is None
    with host.expect_response(re.compile(r".*/api/lobbies/\d+$")):
        route.fulfill(response=stale)
    host.wait_for_timeout(500)  # the page has had ample time to (wrongly) redraw
    assert host.locator("#start-button:not([disabled])").count() == 1
    assert host.locator("#add-bots").count() == 0
    ctx.close()


def test_the_start_vote_line(browser: Any, server_url: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server_url + "/")
    members = [{"seat": 0, "castle": "Eaglecrest"}, {"seat": 1, "castle": "Thornwall"}]
    lines = page.evaluate(
        """(members) => import('/static/js/lobby.js').then((m) => [
          m.voteLine({first_seat: 1, votes: {"0": 0, "1": 0}}, members),
          m.voteLine({first_seat: 0, votes: {"0": 1, "1": 1}}, members),
          m.voteLine({first_seat: 1, votes: {"0": 0, "1": 2}}, members)])""",
        members,
    )
    assert lines == [
        "Nobody voted: Thornwall goes first, drawn by lot",
        "A tied vote: Eaglecrest goes first, drawn by lot",
        "Thornwall won the vote",
    ]
    ctx.close()


def test_ember_result_uses_ember_words(browser: Any, server_url: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server_url + "/")
    html = page.evaluate(
        """() => import('/static/js/result.js').then((m) => m.resultEl({
          view: {game: 'ember', outcome: {placings: [[0], [1]], reason: 'stones',
            seats: {0: {destroyed: false, resigned: false},
                    1: {destroyed: false, resigned: false}}}},
          names: ['Ada', 'Ben'], seat: 0, record: {rated: true, seats: []},
          matchId: 1}).outerHTML)"""
    )
    assert "Castle" not in html and "standing" not in html, html
    assert "Player" in html and "in play" in html
    ctx.close()


def test_a_casual_match_table_result_history_and_replay(browser: Any, server_url: str) -> None:
    alice_ctx = browser.new_context(viewport=DESKTOP)
    bram_ctx = browser.new_context(viewport=DESKTOP)
    alice, bram = alice_ctx.new_page(), bram_ctx.new_page()
    errors: list[str] = []
    for page in (alice, bram):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    options = {"first_seat": 0}
    match_id = steps.open_private_duel(alice, bram, server_url, "ambush", options, TIMEOUT)
    steps.wait_model(alice, "window.__rampart.view.step === 'expose'", TIMEOUT)

    # A flash shows beside the instruction, not instead of it.
    prompt = alice.text_content(".banner .banner-prompt") or ""
    assert prompt.strip()
    alice.evaluate("() => window.__rampart.flash('AMBUSH!', 'ambush')")
    alice.wait_for_selector(".banner .banner-burst:has-text('AMBUSH!')", timeout=TIMEOUT)
    assert (alice.text_content(".banner .banner-prompt") or "") == prompt

    # A player whose castle is out sees no race controls and no card to grab.
    alice.evaluate(
        """() => { const t = window.__rampart;
          t.view = {...t.view, phase: 'ambush',
            castles: t.view.castles.map((c) => c.seat === t.seat ? {...c, alive: false, hp: 0} : c),
            battlefield: [{cell: [1, 0]}, {cell: [0, 1]}]};
          t.legal = [{type: 'grab'}, {type: 'call_ambush'}];
          t.rerender(); }"""
    )
    alice.wait_for_selector(".out-note", timeout=TIMEOUT)
    assert alice.locator("#ambush-button").count() == 0
    assert alice.locator("#pass-button").count() == 0
    assert alice.locator(".grid button.cell").count() == 0

    # Bram resigns: a casual match shows no ledger change anywhere.
    bram.on("dialog", lambda dialog: dialog.accept())
    bram.click("#resign-button")
    alice.wait_for_selector(".result", timeout=TIMEOUT)
    alice.wait_for_selector(".result:has-text('casual match, no ledger change')", timeout=TIMEOUT)
    assert alice.locator(".result .delta").count() == 0

    alice.goto(f"{server_url}/matches")
    row = f"tr[data-match='{match_id}']"
    alice.wait_for_selector(row, timeout=TIMEOUT)
    assert "Ambush!" in (alice.text_content(row) or "")
    alice.click(f"{row} a")
    # The replay opens at its start.
    alice.wait_for_selector("#replay-version:has-text('v0 /')", timeout=TIMEOUT)
    assert "Ambush!" in (alice.text_content("h1") or "")
    assert "+" not in (alice.text_content(".result-table") or "")
    # The profile lists the match as casual, not with a ledger change.
    alice.click("#badge-profile")
    alice.wait_for_selector(f"#p-match-table tr[data-match='{match_id}']", timeout=TIMEOUT)
    cell = alice.text_content(f"#p-match-table tr[data-match='{match_id}'] td.delta") or ""
    assert cell.strip() == "casual", cell
    assert not errors, errors
    alice_ctx.close()
    bram_ctx.close()
