"""A tournament calls each player to his table: ``table_ready`` on every page he has open when
a round is paired, again on a page that connects while the table waits, ``table_closed`` once
it is over; and a seat's abandonment grace counts from the first call that reached him."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

from app.sessions.commands import SeatInfo
from app.sessions.connections import Connections
from tests.app.support import Api, Client, Server

GAME = "rampage"


class LobbyPage:
    """One open page's lobby socket, signed in as ``token``: every message it receives."""

    def __init__(self, server: Server, token: str | None) -> None:
        self.url = f"{server.ws}/ws/lobby"
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.ws: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> LobbyPage:
        self.ws = await websockets.connect(self.url)
        self._reader = asyncio.create_task(self._read())
        if self.token:
            await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        return self

    async def _read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            if message["type"] == "ping":
                await self.ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
            self.messages.append(message)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]

    async def wait_for(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        deadline = asyncio.get_running_loop().time() + timeout
        while not self.of_type(kind):
            assert asyncio.get_running_loop().time() < deadline, (kind, self.messages)
            await asyncio.sleep(0.02)
        return self.of_type(kind)[0]

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        await self.ws.close()


async def duel(api: Api, grace_ms: int) -> tuple[int, str, str]:
    """A one-round Swiss of two guests, registered but not started: (id, organiser-player
    Ann's token, Bob's token)."""
    ann, bob = await api.guest("Ann"), await api.guest("Bob")
    control = {"grace_ms": grace_ms}
    body = {"game": GAME, "format": "swiss", "rounds": 1, "time_control": control}
    tid = (await api.ok("/api/tournaments", ann, body))["id"]
    await api.ok(f"/api/tournaments/{tid}/open", ann)
    for token in (ann, bob):
        await api.ok(f"/api/tournaments/{tid}/register", token)
    return int(tid), ann, bob


def test_a_first_call_starts_the_grace_again_and_later_ones_do_not() -> None:
    seats = [SeatInfo(7, None, "Ann"), SeatInfo(8, None, "Bob"), SeatInfo(None, "heuristic", "B")]
    connections = Connections(seats, now=0)
    assert connections.next_abandonment(60_000) == 60_000  # nobody told: as at any table
    assert connections.told(7, 20_000) == [0]
    assert connections.away == {0: 20_000, 1: 0}
    assert connections.told(7, 50_000) == []  # only the first call counts
    assert connections.next_abandonment(60_000) == 60_000  # Bob's, never told
    assert connections.abandoned(60_000, 60_000) == 1
    assert connections.abandoned(60_000, 79_999) is None
    assert connections.abandoned(60_000, 80_000) == 0


def test_a_call_to_a_seated_player_only_marks_him_told() -> None:
    connections = Connections([SeatInfo(7, None, "Ann"), SeatInfo(8, None, "Bob")], now=0)

    class Page:
        seat, account_id = 0, 7

        def send_text(self, text: str) -> None:
            pass

    page = Page()
    connections.join(page, playing=True)  # type: ignore[arg-type]
    assert connections.told(7, 5_000) == []
    connections.leave(page, 9_000, playing=True)  # type: ignore[arg-type]
    assert connections.away[0] == 9_000
    assert connections.told(7, 30_000) == []  # his call came while he sat there


async def test_every_page_of_a_player_is_called_to_his_table(
    api: Api, shared_server: Server
) -> None:
    tid, ann, bob = await duel(api, 3_600_000)
    ann_pages = [await LobbyPage(shared_server, ann).open() for _ in range(2)]
    bob_page = await LobbyPage(shared_server, bob).open()
    stranger = await LobbyPage(shared_server, await api.guest("Stranger")).open()
    await asyncio.sleep(0.2)  # the hellos are read before the start
    await api.ok(f"/api/tournaments/{tid}/start", ann)
    call = await bob_page.wait_for("table_ready")
    for page in ann_pages:
        assert await page.wait_for("table_ready") == call
    assert call["fresh"] is True and call["tournament_id"] == tid and call["round"] == 1
    assert call["game"] == GAME and sorted(n[:3] for n in call["names"]) == ["Ann", "Bob"]
    match_id = call["match_id"]
    (table,) = (await api.get(f"/api/tournaments/{tid}/rounds")).json()[0]["pairings"]
    assert table["match_id"] == match_id
    assert stranger.of_type("table_ready") == []

    # A page opened while the table waits is called at once, as a table already waiting.
    late = await LobbyPage(shared_server, bob).open()
    waiting = await late.wait_for("table_ready")
    assert waiting == {**call, "fresh": False}

    # Bob resigns at the table: every page of both hears the table is closed.
    client = await Client(shared_server, match_id, bob).connect()
    await client.act({"type": "resign"})
    for page in [*ann_pages, bob_page, late]:
        closed = await page.wait_for("table_closed")
        assert closed == {"type": "table_closed", "match_id": match_id, "tournament_id": tid}
    assert stranger.of_type("table_closed") == []
    # Nothing waits any more: a new page is not called.
    after = await LobbyPage(shared_server, ann).open()
    await after.wait_for("lobbies")
    await asyncio.sleep(0.3)
    assert after.of_type("table_ready") == []
    for page in [*ann_pages, bob_page, late, stranger, after]:
        await page.close()


async def test_no_forfeit_before_the_grace_has_run_from_the_first_call(
    api: Api, shared_server: Server
) -> None:
    """At the shared server's 20x clock a 60 s grace is 3 s of wall time. Bob has no page
    open when his table opens and opens one 1.5 s later: he is forfeited 3 s after that
    call, not 3 s after the opening."""
    tid, ann, bob = await duel(api, 60_000)
    await api.ok(f"/api/tournaments/{tid}/start", ann)
    ((table,),) = [r["pairings"] for r in (await api.get(f"/api/tournaments/{tid}/rounds")).json()]
    match_id = table["match_id"]
    opened = asyncio.get_running_loop().time()
    await Client(shared_server, match_id, ann).connect()  # Ann sits down at once
    await asyncio.sleep(1.5)
    page = await LobbyPage(shared_server, bob).open()
    await page.wait_for("table_ready")
    await asyncio.sleep(opened + 3.8 - asyncio.get_running_loop().time())
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["status"] == "running", match  # 3.8 s after the opening: not forfeited
    deadline = opened + 12
    while (await api.get(f"/api/matches/{match_id}")).json()["status"] == "running":
        assert asyncio.get_running_loop().time() < deadline, "the grace never ran out"
        await asyncio.sleep(0.2)
    rounds = (await api.get(f"/api/tournaments/{tid}/rounds")).json()
    bob_entry = [e for e in (await api.get(f"/api/tournaments/{tid}")).json()["entries"]]
    (bob_id,) = [e["id"] for e in bob_entry if e["name"].startswith("Bob")]
    assert rounds[0]["pairings"][0]["forfeited"] == [bob_id]
    assert asyncio.get_running_loop().time() - opened >= 4.4  # 1.5 s + 3 s, less slack
    await page.close()


async def test_tournament_bots_play_at_their_level_and_tables_name_their_tournament(
    api: Api, shared_server: Server
) -> None:
    organiser = await api.guest("Levels")
    body = {"game": GAME, "format": "swiss", "rounds": 1, "time_control": {"grace_ms": 0}}
    tid = (await api.ok("/api/tournaments", organiser, body))["id"]
    await api.ok(f"/api/tournaments/{tid}/open", organiser)
    hard = await api.ok(
        f"/api/tournaments/{tid}/bots", organiser, {"kind": "heuristic", "difficulty": "hard"}
    )
    easy = await api.ok(
        f"/api/tournaments/{tid}/bots", organiser, {"kind": "random", "difficulty": "easy"}
    )
    assert [(e["bot"], e["name"]) for e in hard + easy] == [
        ("heuristic:hard", "Heuristic bot 1 (hard)"),
        ("random:easy", "Random bot 2 (easy)"),
    ]
    bad = await api.post(
        f"/api/tournaments/{tid}/bots", organiser, {"kind": "heuristic", "difficulty": "wicked"}
    )
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "request/invalid"
    await api.ok(f"/api/tournaments/{tid}/start", organiser)
    ((table,),) = [r["pairings"] for r in (await api.get(f"/api/tournaments/{tid}/rounds")).json()]
    match = (await api.get(f"/api/matches/{table['match_id']}")).json()
    assert match["tournament_id"] == tid
    levels = sorted((s["bot"], s["difficulty"]) for s in match["seats"])
    assert levels == [("heuristic", "hard"), ("random", "easy")]
    # A table outside any tournament names none.
    ann, bob = await api.guest("Lone"), await api.guest("Wolf")
    lone = await api.table(GAME, [ann, bob])
    assert (await api.get(f"/api/matches/{lone}")).json()["tournament_id"] is None
