"""Your turn, everywhere: ``GET /api/accounts/me/matches`` lists a player's running matches
with whether each awaits him and his deadline, and every lobby socket of his hears
``your_turn`` when a match starts or stops awaiting him."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx

from app.lobby.feed import LobbyFeed
from app.sessions.commands import SeatInfo
from app.sessions.turns import TurnWatch
from tests.app.realtime.test_contract import check, server_messages
from tests.app.support import Api, Client, Server
from tests.app.tournaments.test_calls import LobbyPage

LONG_TURN = {"turn_ms": 3_600_000, "on_timeout": "pass", "grace_ms": 0}


async def my_matches(api: Api, token: str) -> dict[str, Any]:
    reply = await api.get("/api/accounts/me/matches", token)
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def turns(page: LobbyPage, match_id: int) -> list[bool]:
    return [m["awaiting_you"] for m in page.of_type("your_turn") if m["match_id"] == match_id]


async def settle(*pages: LobbyPage, counts: list[int], timeout: float = 10) -> None:
    """Wait until each page has heard ``counts[i]`` ``your_turn`` messages."""
    async with asyncio.timeout(timeout):
        while [len(p.of_type("your_turn")) for p in pages] != counts:
            await asyncio.sleep(0.02)


def test_a_watch_tells_only_the_accounts_whose_answer_changed() -> None:
    seats = [SeatInfo(7, None, "Ann"), SeatInfo(8, None, "Bob"), SeatInfo(None, "random", "B")]
    told: list[tuple[int, int, bool]] = []
    watch = TurnWatch(5, seats)
    watch.listener = lambda match, account, awaiting: told.append((match, account, awaiting))
    watch.moved([0])
    assert told == [(5, 7, True)]
    watch.moved([0, 2])  # the bot's seat joins: no account changed
    watch.moved([0])
    assert told == [(5, 7, True)]
    watch.moved([1])
    assert told[1:] == [(5, 8, True), (5, 7, False)]
    watch.moved([])  # over
    assert told[3:] == [(5, 8, False)]
    rebuilt = TurnWatch(6, seats)
    rebuilt.listener = watch.listener
    rebuilt.moved([1], tell=False)  # as the log left it: nobody told again
    rebuilt.moved([0])
    assert told[4:] == [(6, 7, True), (6, 8, False)]


async def test_the_list_and_the_lobby_sockets_follow_the_turn(
    api: Api, shared_server: Server
) -> None:
    ann, bob = await api.guest("Turn Ann"), await api.guest("Turn Bob")
    ann_tabs = [await LobbyPage(shared_server, ann).open() for _ in range(2)]
    bob_tab = await LobbyPage(shared_server, bob).open()
    await asyncio.sleep(0.3)  # the hellos are read
    match_id = await api.table("tally", [ann, bob], options={"target": 50}, time_control=LONG_TURN)
    # The match starts awaiting Ann (seat 0): both her pages hear it, Bob hears nothing.
    await settle(*ann_tabs, bob_tab, counts=[1, 1, 0])
    assert turns(ann_tabs[0], match_id) == turns(ann_tabs[1], match_id) == [True]

    listed = await my_matches(api, ann)
    assert listed["awaiting_count"] == 1
    (mine,) = [m for m in listed["matches"] if m["match_id"] == match_id]
    assert mine["game"] == "tally" and mine["your_seats"] == [0] and mine["awaiting_you"]
    assert [s["player"] for s in mine["seats"]] == ["Turn Ann", "Turn Bob"]
    now_ms = time.time() * 1000
    # An hour of match time, at the test servers' clock rate, from about now.
    rate = 20
    assert abs(mine["deadline_ms"] - (now_ms + 3_600_000 / rate)) < 30_000, mine
    assert mine["deadline"].startswith(time.strftime("%Y-%m-%d", time.gmtime()))
    theirs = [m for m in (await my_matches(api, bob))["matches"] if m["match_id"] == match_id]
    assert theirs[0]["awaiting_you"] is False and theirs[0]["deadline_ms"] is None

    # Ann moves (from a match socket): her pages hear "no longer", Bob's "now you".
    table = await Client(shared_server, match_id, ann).connect()
    seq = await table.act({"type": "move", "cell": 0})
    await table.wait_for("ack", client_seq=seq)
    await settle(*ann_tabs, bob_tab, counts=[2, 2, 1])
    assert turns(ann_tabs[1], match_id) == [True, False] and turns(bob_tab, match_id) == [True]
    assert (await my_matches(api, ann))["awaiting_count"] == 0
    bob_list = await my_matches(api, bob)
    assert bob_list["awaiting_count"] == 1 and bob_list["matches"][0]["match_id"] == match_id
    assert bob_list["matches"][0]["deadline_ms"] is not None

    # Bob resigns: the match is over, nobody is awaited, and it leaves both lists.
    bob_table = await Client(shared_server, match_id, bob).connect()
    seq = await bob_table.act({"type": "resign"})
    await bob_table.wait_for("ack", client_seq=seq)
    await settle(*ann_tabs, bob_tab, counts=[2, 2, 2])
    assert turns(bob_tab, match_id) == [True, False]
    for token in (ann, bob):
        assert match_id not in [m["match_id"] for m in (await my_matches(api, token))["matches"]]

    document = httpx.get(f"{shared_server.http}/asyncapi.json").json()
    seen = check(server_messages(document, "lobby"), bob_tab.messages)
    assert seen["YourTurn"] == 2, seen
    for page in [*ann_tabs, bob_tab]:
        await page.close()


async def test_newest_move_first_and_a_token_needed(api: Api, shared_server: Server) -> None:
    cy, dee = await api.guest("Order Cy"), await api.guest("Order Dee")
    first = await api.table("tally", [cy, dee], options={"target": 50})
    second = await api.table("tally", [cy, dee], options={"target": 50})
    listed = [m["match_id"] for m in (await my_matches(api, cy))["matches"]]
    assert listed == [second, first]  # nothing played: the later start first
    table = await Client(shared_server, first, cy).connect()
    seq = await table.act({"type": "move", "cell": 0})
    await table.wait_for("ack", client_seq=seq)
    listed = [m["match_id"] for m in (await my_matches(api, cy))["matches"]]
    assert listed == [first, second]
    reply = await api.get("/api/accounts/me/matches")
    assert reply.status_code == 401 and reply.json()["error"]["code"].startswith("auth/")


class _Page:
    """A lobby socket as the feed sees it: its account and what it was sent."""

    def __init__(self) -> None:
        self.account_id: int | None = None
        self.sent: list[str] = []

    def send_text(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: int = 1000) -> None:
        pass


def test_the_feed_finds_a_players_sockets_by_account() -> None:
    feed = LobbyFeed()
    pages = [_Page() for _ in range(3)]
    for page in pages:
        feed.add(page)
    pages[0].account_id = pages[1].account_id = 7
    feed.sign_in(pages[0])
    feed.sign_in(pages[1])
    feed.your_turn(3, 7, True)
    feed.your_turn(3, 8, True)  # nobody of 8's here: nothing encoded, nothing sent
    assert [len(p.sent) for p in pages] == [1, 1, 0]
    assert json.loads(pages[0].sent[0]) == {
        "type": "your_turn",
        "match_id": 3,
        "awaiting_you": True,
    }
    pages[1].account_id = 8  # a second hello, with another token
    feed.sign_in(pages[1])
    feed.remove(pages[0])
    assert feed.of(7) == [] and feed.of(8) == [pages[1]]
    assert feed.drop(8, "bye", 4403) == 1 and feed.subscribers == {pages[2]}
