"""A correspondence table in Chromium: raised with days per move from the form (a choice the
real-time-only Ambush! does not offer), its turn clock shown as a local date and time."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.e2e.steps import LOBBY_URL, TABLE_URL, sign_in_as_guest, wait_model

pytestmark = pytest.mark.e2e

TIMEOUT = 10_000
ZONE = "America/Sao_Paulo"  # not the server's UTC: the date must be the player's own
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def when(moment: datetime) -> str:
    """As the table writes a date: "Tue 1 Dec, 14:05", in the page's own time zone."""
    return (
        f"{DAYS[moment.weekday()]} {moment.day} {MONTHS[moment.month - 1]}, "
        f"{moment.hour:02d}:{moment.minute:02d}"
    )


def test_a_correspondence_table_shows_its_turn_clock_as_a_date(
    browser: Any, server_url: str
) -> None:
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 800}, timezone_id=ZONE)
        for _ in range(2)
    ]
    host, guest = (ctx.new_page() for ctx in contexts)
    errors: list[str] = []
    for page in (host, guest):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        host.goto(server_url + "/")
        sign_in_as_guest(host, "Postal", TIMEOUT)
        host.select_option("#new-game", "ambush")
        assert host.is_hidden("#new-days")  # Ambush! is real-time only
        host.select_option("#new-game", "rampage")
        host.select_option("#new-privacy", "private")
        host.select_option("#new-days", "2")
        host.click("#create-button")
        host.wait_for_url(LOBBY_URL, timeout=TIMEOUT)
        host.wait_for_selector(".tag:has-text('2 days per move')", timeout=TIMEOUT)
        guest.goto(host.input_value("#invite-link"))
        sign_in_as_guest(guest, "Courier", TIMEOUT)
        guest.wait_for_url(LOBBY_URL, timeout=TIMEOUT)
        host.wait_for_selector("#start-button:not([disabled])", timeout=TIMEOUT)
        host.click("#start-button")
        host.wait_for_url(TABLE_URL, timeout=TIMEOUT)
        guest.wait_for_url(TABLE_URL, timeout=TIMEOUT)
        started = datetime.now(ZoneInfo(ZONE))
        for page in (host, guest):
            wait_model(page, "Object.keys(window.__rampart.deadlines).length > 0", TIMEOUT)
            page.wait_for_selector("#move-by:has-text('Move by')", timeout=TIMEOUT)
            shown = page.inner_text("#move-by")
            # Every seat awaited at the start has two days from then.
            due = started + timedelta(days=2)
            dates = {when(due + timedelta(minutes=m)) for m in (-1, 0, 1)}
            assert any(shown.endswith(f" by {date}") for date in dates), shown
            mine = page.evaluate("() => String(__rampart.seat) in __rampart.deadlines")
            assert shown.startswith("Move by ") == mine, shown
            # No countdown of 172,800 seconds beside the players.
            assert "172" not in page.inner_text(".rp-player-meta >> nth=0")
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()


def test_the_ladders_page_lists_one_rating_pool_at_a_time(browser: Any, server_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto(server_url + "/ladders")
        rows = page.locator("#ladder-list .table-row")
        page.wait_for_selector("#ladder-list .table-row:has-text('Castle Rampage')")
        assert "(correspondence)" not in rows.all_inner_texts()[0]
        page.select_option("#l-filter-pool", "correspondence")
        page.wait_for_selector("#ladder-list strong:has-text('Castle Rampage (correspondence)')")
        names = page.locator("#ladder-list .table-row strong").all_inner_texts()
        assert names and all(name.endswith("(correspondence)") for name in names), names
        assert not any(name.startswith("Ambush") for name in names)  # real-time only
        assert page.url.endswith("/ladders?pool=correspondence")
    finally:
        context.close()
