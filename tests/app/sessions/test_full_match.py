"""Whole matches from lobby to result: Ambush! with bots and scripted clients, every engine."""

from __future__ import annotations

import asyncio
import importlib
import json
from typing import Any

import pytest

from app.games import playable
from engines.base import events_for
from tests.app.support import Api, Client, Server, drive_with_bot

RATE = 20.0
ENGINES = sorted(playable())


def bots_module(game: str) -> Any:
    return importlib.import_module(f"engines.{game}.bots")


async def complete_log(api: Api, match_id: int) -> list[dict[str, Any]]:
    reply = await api.get(f"/api/matches/{match_id}/events")
    return [json.loads(line) for line in reply.text.splitlines()]


@pytest.mark.skipif("ambush" not in ENGINES, reason="the Ambush! engine is not installed yet")
async def test_four_player_ambush_from_lobby_to_result(api: Api, shared_server: Server) -> None:
    """Two scripted clients (the heuristic bot, playing over the wire) and two server bots;
    the castle-name vote picks the first seat; a spectator watches the whole match."""
    tokens = [await api.guest("ann"), await api.guest("bob")]
    lobby = await api.ok("/api/lobbies", tokens[0], {"game": "ambush", "seats": 4})
    lobby_id = lobby["id"]
    await api.ok(f"/api/lobbies/{lobby_id}/join", tokens[1])
    await api.ok(f"/api/lobbies/{lobby_id}/castle", tokens[0], {"name": "Eagle's Nest"})
    await api.ok(f"/api/lobbies/{lobby_id}/castle", tokens[1], {"name": "Bramblegate"})
    refused = await api.post(f"/api/lobbies/{lobby_id}/vote", tokens[0], {"for_seat": 0})
    assert refused.json()["error"]["code"] == "lobby/self_vote"
    await api.ok(f"/api/lobbies/{lobby_id}/vote", tokens[0], {"for_seat": 1})
    await api.ok(f"/api/lobbies/{lobby_id}/vote", tokens[1], {"for_seat": 0})
    await api.ok(f"/api/lobbies/{lobby_id}/bots", tokens[0], {"kind": "heuristic"})
    started = await api.ok(f"/api/lobbies/{lobby_id}/start", tokens[0])
    match_id, first = started["match_id"], started["first_seat"]
    assert sum(started["votes"].values()) == 4  # two players and two bots voted

    # From version 0: a server bot may have moved before the spectator is in.
    spectator = await Client(shared_server, match_id, None).connect(last_version=0)
    ann = await Client(shared_server, match_id, tokens[0]).connect()
    bob = await Client(shared_server, match_id, tokens[1]).connect()
    assert ann.view is not None and ann.view["turn"] == first
    assert [c["name"] for c in ann.view["castles"]][:2] == ["Eagle's Nest", "Bramblegate"]
    bots = bots_module("ambush")
    await asyncio.gather(
        drive_with_bot(ann, bots.HeuristicBot(0, 11), rate=RATE, timeout=90),
        drive_with_bot(bob, bots.RandomBot(1, 12), rate=RATE, timeout=90),
    )
    await spectator.wait_until(lambda c: c.view and c.view["outcome"] is not None)

    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["status"] == "finished"
    assert match["result"]["placings"]
    # A casual table moves no ledger: none recorded, none shown per seat.
    assert match["rated"] is False and match["ledger"] is None
    assert [s["ledger_delta"] for s in match["seats"]] == [None] * 4
    for result in ann.of_type("grab_result") + bob.of_type("grab_result"):
        assert isinstance(result["won"], bool) and "decided_at" in result

    # The spectator got exactly the public form of every event, and no hidden card.
    log = await complete_log(api, match_id)
    public = {line["version"]: events_for(line["events"], None) for line in log[1:]}
    received = {m["version"]: m["events"] for m in spectator.of_type("patch")}
    assert received == public
    for message in spectator.of_type("patch") + spectator.of_type("welcome"):
        view = message["view"]
        assert "hand" not in view
        assert all("card" not in cell for cell in view["battlefield"])
        for event in message.get("events", []):
            if event["type"] in ("grabbed", "captured", "looked", "returned"):
                assert "card" not in event and "cards" not in event, event
    # Seats saw their own hands, which never reached the other seat's wire.
    assert ann.view is not None and "hand" in ann.view


@pytest.mark.parametrize("game", ENGINES)
async def test_every_engine_plays_to_a_result_with_server_bots(
    api: Api, shared_server: Server, game: str
) -> None:
    """A human host (driven by the engine's bot over the wire) against server-side bots."""
    engine_seats = 2
    token = await api.guest("host")
    lobby = await api.ok("/api/lobbies", token, {"game": game, "seats": engine_seats})
    await api.ok(f"/api/lobbies/{lobby['id']}/bots", token, {"kind": "random"})
    match_id = (await api.ok(f"/api/lobbies/{lobby['id']}/start", token))["match_id"]
    host = await Client(shared_server, match_id, token).connect()
    await drive_with_bot(host, bots_module_for(game).HeuristicBot(0, 5), rate=RATE, timeout=90)
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["status"] == "finished" and match["ledger"] is None  # casual


def bots_module_for(game: str) -> Any:
    engine = playable()[game]
    return importlib.import_module(type(engine).__module__.rsplit(".", 1)[0] + ".bots")
