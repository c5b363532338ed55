"""Every table fits one screen in every state, not only at rest: a card chosen, a choice or
payment panel open, a large hand, a long line of cards on the battlefield, and the match's
replay, for all four games at 1280x800 and at 390x844 (tests/e2e/fit.py measures). With a
panel open, the axe scan finds nothing critical or serious either."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e import steps
from tests.e2e.fit import DESKTOP, PHONE, check_both_sizes
from tests.e2e.test_accessibility import findings

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000
# A large hand, drawn by the client's own renderer: the hand in the client's model grows to
# ``n`` cards (copies of the first under new ids) and the table is drawn again.
GROW_HAND = """([n, kind]) => {
  const t = window.__rampart;
  const hand = t.view.hand || [];
  const extra = Array.from({length: n - hand.length}, (_, i) => {
    const c = hand[i % hand.length];
    if (kind === 'ember') return {...c, uid: 9000 + i};
    if (kind === 'castles') return {...c, id: 9000 + i};
    if (kind === 'rampage') return `${c.split('#')[0]}#${900 + i}`;
    return c;
  });
  t.view = {...t.view, hand: [...hand, ...extra]};
  t.rerender();
}"""


@pytest.fixture
def duel(browser: Any) -> Iterator[tuple[Any, Any]]:
    """Two players; the first is measured (its page is resized to both sizes), the second
    plays on a phone. Motion is reduced so that nothing is caught mid-animation."""
    first = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    second = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, reduced_motion="reduce"
    )
    pages = first.new_page(), second.new_page()
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("dialog", lambda dialog: dialog.accept())
    yield pages
    first.close()
    second.close()
    assert not errors, errors


def resign_and_check_replay(
    page: Any, server_url: str, match_id: int, game: str, resigner: Any = None
) -> None:
    """``resigner`` (else ``page``) resigns; ``page`` opens the match's replay (its seat's own
    view) at both sizes, at its first and its last version: under its controls, scrolled to
    the top, the replayed table fits."""
    (resigner or page).click("#resign-button")
    steps.wait_model(page, "window.__rampart.view.outcome", TIMEOUT)
    page.goto(f"{server_url}/matches/{match_id}")
    page.wait_for_selector(".replay-stage[data-version='0'] .board-wrap > *", timeout=TIMEOUT)
    check_both_sizes(page, f"the {game} replay at its start", ".replay", ".replay-controls")
    page.click("#replay-last")
    page.wait_for_selector(".replay-stage:not([data-version='0'])", timeout=TIMEOUT)
    check_both_sizes(page, f"the {game} replay at its end", ".replay", ".replay-controls")


def test_ambush_fits_with_a_large_hand_a_chosen_card_and_a_long_line(
    duel: tuple[Any, Any], server_url: str
) -> None:
    alice, bram = duel
    options = {"hand_size": 10, "hand_limit": 12, "first_seat": 0}
    match_id = steps.open_private_duel(alice, bram, server_url, "ambush", options, TIMEOUT)
    alice.wait_for_selector(".grid button.cell.free.placeable", timeout=TIMEOUT)
    check_both_sizes(alice, "Ambush! with a hand of 10 at the expose step")

    alice.click(".grid button.cell.free.placeable >> nth=0")
    steps.wait_model(alice, "window.__rampart.view.step === 'play'", TIMEOUT)
    alice.click(".hand button.hand-card >> nth=0")
    alice.wait_for_selector(".hand button.hand-card.selected", timeout=TIMEOUT)
    check_both_sizes(alice, "Ambush! with a card of 10 chosen")
    assert not findings(alice)

    # A long line of cards: the battlefield zooms out, it does not scroll.
    alice.evaluate(
        """() => { const t = window.__rampart;
          const line = Array.from({length: 18}, (_, i) => ({cell: [i + 1, 0], card: null}));
          t.view = {...t.view, battlefield: line, exposed: null}; t.rerender(); }"""
    )
    alice.wait_for_selector(".grid [data-x='18'][data-y='0']", timeout=TIMEOUT)
    check_both_sizes(alice, "Ambush! with a line of 18 cards")
    resign_and_check_replay(alice, server_url, match_id, "Ambush!")


def test_rampage_fits_in_set_up_with_a_card_chosen_and_paying(
    duel: tuple[Any, Any], server_url: str
) -> None:
    from tests.e2e.test_rampage_table import OPTIONS, split

    alice, bram = duel
    match_id = steps.open_private_duel(alice, bram, server_url, "rampage", OPTIONS, TIMEOUT)
    steps.wait_model(alice, "window.__rampart.view.phase === 'setup'", TIMEOUT)
    alice.wait_for_selector(".rp-deal", timeout=TIMEOUT)
    alice.click(".rp-deal >> nth=0 >> .rp-to-gate")
    check_both_sizes(alice, "Castle Rampage in the set-up")
    alice.click(".rp-deal >> nth=0 >> .rp-to-gate")  # undone: the split below starts afresh
    for round_number in (1, 2):
        split(alice, round_number)
        split(bram, round_number)
    steps.wait_model(alice, "window.__rampart.view.active === 0", TIMEOUT)
    check_both_sizes(alice, "Castle Rampage on turn")

    alice.click(".rp-hand button.hand-card[data-kind='siege_scheme']")
    alice.wait_for_selector(".rp-panel #rp-cancel", timeout=TIMEOUT)
    check_both_sizes(alice, "Castle Rampage with a Scheme chosen")
    assert not findings(alice)
    alice.click(".rp-hand button.hand-card[data-kind='mercenary']")
    alice.wait_for_selector(".rp-hand .hand-card.paying", timeout=TIMEOUT)
    alice.evaluate(GROW_HAND, [12, "rampage"])
    alice.wait_for_selector(".rp-hand .hand-card >> nth=11", timeout=TIMEOUT)
    check_both_sizes(alice, "Castle Rampage paying a Scheme from a hand of 12")
    resign_and_check_replay(alice, server_url, match_id, "Castle Rampage")


def test_castles_fits_with_a_card_chosen_and_a_large_hand(
    duel: tuple[Any, Any], server_url: str
) -> None:
    from tests.e2e.test_castles_table import OPTIONS, my_turn

    alice, bram = duel
    match_id = steps.open_private_duel(alice, bram, server_url, "castles", OPTIONS, TIMEOUT)
    my_turn(alice, 1)
    check_both_sizes(alice, "Castles on turn")
    alice.click(".cs-hand button.cs-hand-card >> nth=0")
    alice.wait_for_selector(".cs-hand .cs-hand-card.cs-selected", timeout=TIMEOUT)
    check_both_sizes(alice, "Castles with a card chosen")
    assert not findings(alice)
    alice.evaluate(GROW_HAND, [12, "castles"])
    alice.wait_for_selector(".cs-hand .cs-hand-card >> nth=11", timeout=TIMEOUT)
    check_both_sizes(alice, "Castles with a hand of 12")
    resign_and_check_replay(alice, server_url, match_id, "Castles")


def test_ember_fits_with_a_card_chosen_a_choice_or_a_response_open_and_a_full_hand(
    duel: tuple[Any, Any], server_url: str
) -> None:
    from tests.e2e.test_ember_table import OPTIONS, hand_card, my_phase

    alice, bram = duel
    match_id = steps.open_private_duel(alice, bram, server_url, "ember", OPTIONS, TIMEOUT)
    alice.wait_for_selector(".em-hero-card.em-hero-free", timeout=TIMEOUT)
    check_both_sizes(alice, "Ember at the hero choice")
    alice.click(".em-hero-card.em-hero-free[data-hero='rowl']")
    bram.click(".em-hero-card.em-hero-free[data-hero='yvera']")
    my_phase(alice, "mode")
    alice.click(hand_card("ember_shard"))
    alice.wait_for_selector("#em-confirm", timeout=TIMEOUT)
    check_both_sizes(alice, "Ember with a mode card chosen")
    alice.click("#em-confirm")
    my_phase(alice, "play")
    alice.click(hand_card("seductress"))
    alice.wait_for_selector(".em-choice-button", timeout=TIMEOUT)
    check_both_sizes(alice, "Ember with the Seductress's choice open")
    assert not findings(alice)
    alice.evaluate(GROW_HAND, [10, "ember"])
    alice.wait_for_selector(".em-hand .em-hand-slot >> nth=9", timeout=TIMEOUT)
    check_both_sizes(alice, "Ember with the choice open over a hand of 10")
    alice.click(".em-choice-button:has-text('Ember Shard')")
    steps.wait_model(alice, "window.__rampart.view.players[0].scape.length === 2", TIMEOUT)

    # Bram plays a Glimmer; Alice's Lethal Assassin aims at it: Bram's response prompt opens.
    my_phase(bram, "mode")
    bram.keyboard.press("1")
    bram.keyboard.press("Enter")
    my_phase(bram, "play")
    bram.click(hand_card("glimmer"))
    bram.keyboard.press("Enter")
    my_phase(alice, "mode")
    alice.keyboard.press("p")
    my_phase(alice, "play")
    alice.click(hand_card("lethal_assassin"))
    alice.click(".em-area[data-seat='1'] .em-card.em-target[data-card='glimmer']")
    my_phase(bram, "respond")
    bram.wait_for_selector(".em-respond #em-pass-window", timeout=TIMEOUT)
    check_both_sizes(bram, "Ember with the response prompt open")
    resign_and_check_replay(alice, server_url, match_id, "Ember", resigner=bram)


def test_quick_play_waiting_panel_is_in_view(browser: Any, server_url: str) -> None:
    """Play now on the second game (on screen without scrolling): the waiting panel (time
    waited, Cancel) is on screen at once, at both sizes."""
    for viewport in (DESKTOP, PHONE):
        ctx = browser.new_context(viewport=viewport, reduced_motion="reduce")
        page = ctx.new_page()
        try:
            page.goto(server_url + "/")
            steps.sign_in_as_guest(page, "Waiter", TIMEOUT)
            page.wait_for_selector("#qp-rampage-2", timeout=TIMEOUT)
            page.evaluate("() => window.scrollTo(0, 0)")
            page.click("#qp-rampage-2")
            page.wait_for_selector("#qp-waiting:not([hidden]) #qp-cancel", timeout=TIMEOUT)
            box = page.evaluate(
                """() => { const r = document.querySelector('#qp-waiting').getBoundingClientRect();
                  return {top: r.top, bottom: r.bottom, vh: window.innerHeight}; }"""
            )
            assert box["top"] >= 0 and box["bottom"] <= box["vh"], box
            page.click("#qp-cancel")
            page.wait_for_selector("#qp-waiting[hidden]", state="attached", timeout=TIMEOUT)
        finally:
            ctx.close()


@pytest.mark.parametrize("game", ["ambush", "rampage", "castles", "ember"])
def test_practice_tables_fit_with_the_coach(browser: Any, server_url: str, game: str) -> None:
    """A practice round: the coach's strip on top of the table, and still one screen."""
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = ctx.new_page()
    try:
        page.goto(server_url + "/")
        steps.sign_in_as_guest(page, "Learner", TIMEOUT)
        page.goto(f"{server_url}/practice/{game}")
        page.wait_for_selector("#coach .coach-hint", timeout=TIMEOUT)
        page.wait_for_selector(".board-wrap > *", timeout=TIMEOUT)
        check_both_sizes(page, f"the {game} practice table", "main")
    finally:
        ctx.close()


@pytest.mark.parametrize("game", ["ambush", "castles", "ember"])
def test_four_seat_tables_fit(browser: Any, server_url: str, game: str) -> None:
    """A table of four (the player and three easy bots) at rest, with every opponent shown."""
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = ctx.new_page()
    try:
        page.goto(server_url + "/")
        steps.sign_in_as_guest(page, "Four", TIMEOUT)
        page.select_option("#new-game", game)
        page.fill("#new-seats", "4")
        page.click("#create-button")
        page.wait_for_url(steps.LOBBY_URL, timeout=TIMEOUT)
        page.select_option("#bot-difficulty", "easy")
        page.click("#add-bots")
        page.wait_for_selector(".seat[data-seat='3'] .tag:has-text('bot')", timeout=TIMEOUT)
        page.click("#start-button")
        page.wait_for_url(steps.TABLE_URL, timeout=TIMEOUT)
        steps.wait_model(
            page,
            "window.__rampart.view.players || window.__rampart.view.castles"
            " || window.__rampart.view.in_play",
            TIMEOUT,
        )
        page.wait_for_selector(".board-wrap > *", timeout=TIMEOUT)
        check_both_sizes(page, f"{game} at a table of four")
    finally:
        ctx.close()
