"""Bot accounts: registered as bots, shown as bots wherever their name shows (account, seats,
lobby, welcome, ladders, tournaments), rated only where people see them (never at rated quick
play), admitted to tournaments only when the organiser says so; rated tables seat no server bot.
A bot account plays a rated match through the official client and lands on the ladder."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from rampart_client import Rampart, play

from tests.app.support import Api, Client, Server

PASSWORD = "correct horse battery"


async def bot_account(api: Api, name: str) -> tuple[str, dict[str, Any]]:
    """A new bot account's token and account (``name`` plus a number: names never repeat)."""
    wanted = f"{name} {random.randrange(10**6)}"
    body = {"name": wanted, "password": PASSWORD, "bot": True}
    reply = await api.client.post("/api/accounts", json=body)
    assert reply.status_code == 201, reply.text
    return reply.json()["token"], reply.json()["account"]


def code(reply: Any) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]["code"]


async def test_a_bot_account_is_registered_as_one_and_says_so(api: Api) -> None:
    token, account = await bot_account(api, "Botty")
    assert account["bot"] is True and account["guest"] is False
    me = (await api.get("/api/accounts/me", token)).json()
    assert me["bot"] is True
    assert (await api.get(f"/api/players/{account['id']}")).json()["bot"] is True
    person = await api.guest("Not A Bot")
    assert (await api.get("/api/accounts/me", person)).json()["bot"] is False
    # A bot account is registered: a guest cannot be one.
    refused = await api.client.post("/api/accounts", json={"name": "Guest Bot", "bot": True})
    assert code(refused) == (422, "account/bot_needs_password")


async def test_a_bot_account_is_labelled_at_the_table_and_in_the_match(
    api: Api, shared_server: Server
) -> None:
    token, account = await bot_account(api, "Seated Bot")
    human = await api.guest("Bot Opponent")
    lobby = await api.ok("/api/lobbies", token, {"game": "castles", "seats": 2, "rated": True})
    assert lobby["members"][0]["bot_account"] is True
    joined = await api.ok(f"/api/lobbies/{lobby['id']}/join", human)
    assert [m["bot_account"] for m in joined["members"]] == [True, False]
    match_id = (await api.ok(f"/api/lobbies/{lobby['id']}/start", token))["match_id"]
    seats = (await api.get(f"/api/matches/{match_id}")).json()["seats"]
    assert [(s["player"], s["bot_account"], s["bot"]) for s in seats] == [
        (account["name"], True, None),
        (seats[1]["player"], False, None),
    ]
    client = await Client(shared_server, match_id, human).connect()
    players = client.of_type("welcome")[0]["players"]
    assert [(p["bot_account"], p["bot"]) for p in players] == [(True, None), (False, None)]
    await client.close()


async def test_rated_play_seats_no_server_bot_and_queues_no_bot_account(api: Api) -> None:
    host = await api.guest("Rated Host")
    rated = await api.ok("/api/lobbies", host, {"game": "castles", "seats": 2, "rated": True})
    refused = await api.post(f"/api/lobbies/{rated['id']}/bots", host, {"kind": "heuristic"})
    assert code(refused) == (422, "lobby/rated_bots")
    casual = await api.ok("/api/lobbies", host, {"game": "castles", "seats": 2})
    await api.ok(f"/api/lobbies/{casual['id']}/bots", host, {"kind": "heuristic"})
    token, _ = await bot_account(api, "Queue Bot")
    ticket = {"game": "castles", "seats": 2, "rated": True}
    assert code(await api.post("/api/queue", token, ticket)) == (422, "queue/rated_bots")
    assert (await api.post("/api/queue", token, {**ticket, "rated": False})).status_code == 202
    await api.client.delete("/api/queue", headers={"authorization": f"Bearer {token}"})


async def test_a_tournament_admits_bot_accounts_only_when_its_organiser_says_so(
    api: Api,
) -> None:
    organiser = await api.guest("Bot Organiser")
    token, account = await bot_account(api, "Entrant Bot")
    spec = {"game": "castles", "format": "swiss", "rounds": 1}
    closed = await api.ok("/api/tournaments", organiser, spec)
    assert closed["allow_bots"] is False
    await api.ok(f"/api/tournaments/{closed['id']}/open", organiser)
    refused = await api.post(f"/api/tournaments/{closed['id']}/register", token)
    assert code(refused) == (403, "tournament/no_bots")
    person = await api.guest("Entrant Person")
    await api.ok(f"/api/tournaments/{closed['id']}/register", person)
    welcoming = await api.ok("/api/tournaments", organiser, {**spec, "allow_bots": True})
    assert welcoming["allow_bots"] is True
    await api.ok(f"/api/tournaments/{welcoming['id']}/open", organiser)
    entry = await api.ok(f"/api/tournaments/{welcoming['id']}/register", token)
    assert entry["bot_account"] is True and entry["account_id"] == account["id"]
    shown = (await api.get(f"/api/tournaments/{welcoming['id']}")).json()
    assert [e["bot_account"] for e in shown["entries"]] == [True]


def never_resign(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    return random.choice([a for a in legal if a["type"] != "resign"] or legal)


def resign(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    return next((a for a in legal if a["type"] == "resign"), legal[0])


async def test_a_bot_account_plays_rated_through_the_client_and_is_laddered_as_a_bot(
    api: Api, shared_server: Server
) -> None:
    async with Rampart(shared_server.http) as author:
        name = f"Ladder Bot {random.randrange(10**6)}"
        made = await author.register(name, PASSWORD, bot=True)
    token, account = made["token"], made["account"]
    assert account["bot"] is True
    human = await api.guest("Ladder Human")
    lobby = await api.ok("/api/lobbies", token, {"game": "castles", "seats": 2, "rated": True})
    await api.ok(f"/api/lobbies/{lobby['id']}/join", human)
    match_id = (await api.ok(f"/api/lobbies/{lobby['id']}/start", token))["match_id"]
    url = shared_server.http
    outcome, _ = await asyncio.gather(
        play(url, match_id, token, never_resign, timeout_s=60),
        play(url, match_id, human, resign, timeout_s=60),
    )
    assert outcome["placings"][0] == [0]  # the human resigned: the bot account won
    ladder = next(
        lad
        for lad in (await api.get("/api/ladders", game="castles")).json()
        if lad["kind"] == "game"
    )
    for _ in range(100):  # the ladder moves in a task of its own once the match is recorded
        entries = (await api.get(f"/api/ladders/{ladder['id']}/entries", limit=500)).json()
        mine = [e for e in entries if e["account_id"] == account["id"]]
        if mine:
            break
        await asyncio.sleep(0.1)
    assert mine and mine[0]["bot_account"] is True and mine[0]["bot"] is None
    assert mine[0]["name"] == account["name"] and mine[0]["wins"] == 1
    profile = (await api.get(f"/api/players/{account['id']}")).json()
    assert [lad["bot_account"] for lad in profile["ladders"]] == [True]


async def test_a_rematch_against_a_server_bot_is_casual(api: Api, shared_server: Server) -> None:
    """A rated tournament may seat a server bot; a rematch of that match is a table the players
    made themselves, so it is casual like any table with a server bot."""
    host, player = await api.guest("Cup Host"), await api.guest("Cup Player")
    cup = await api.ok("/api/tournaments", host, {"game": "ambush", "format": "round_robin"})
    await api.ok(f"/api/tournaments/{cup['id']}/open", host)
    await api.ok(f"/api/tournaments/{cup['id']}/register", player)
    await api.ok(f"/api/tournaments/{cup['id']}/bots", host, {"kind": "heuristic", "count": 1})
    await api.ok(f"/api/tournaments/{cup['id']}/start", host)
    match_id = None
    for _ in range(100):
        rounds = (await api.get(f"/api/tournaments/{cup['id']}/rounds")).json()
        if rounds and rounds[0]["pairings"] and rounds[0]["pairings"][0]["match_id"]:
            match_id = rounds[0]["pairings"][0]["match_id"]
            break
        await asyncio.sleep(0.1)
    assert match_id is not None
    assert (await api.get(f"/api/matches/{match_id}")).json()["rated"] is True
    client = await Client(shared_server, match_id, player).connect()
    await client.act({"type": "resign"})
    await client.wait_for("ended")
    offered = await api.post(f"/api/matches/{match_id}/rematch", player)
    assert offered.status_code == 200, offered.text
    started = await client.wait_for("rematch_started")
    rematch = (await api.get(f"/api/matches/{started['match_id']}")).json()
    assert rematch["rated"] is False
    assert [s["bot"] for s in rematch["seats"] if s["bot"]] == ["heuristic"]
    await client.close()
