"""Accounts and lobbies over REST, and the lobby websocket's live updates."""

from __future__ import annotations

import asyncio
import json

import websockets

from tests.app.support import Api, Client, Server


def code(reply: object) -> str:
    return str(reply.json()["error"]["code"])  # type: ignore[attr-defined]


async def test_guests_and_registered_players(api: Api) -> None:
    sam = await api.client.post("/api/accounts", json={"name": "Sam"})
    again = await api.client.post("/api/accounts", json={"name": " SAM "})
    assert sam.status_code == 201 and code(again) == "account/name_taken"  # guests too
    made = await api.client.post(
        "/api/accounts", json={"name": "Ada", "password": "hunter2hunter2"}
    )
    assert made.status_code == 201 and made.json()["account"]["guest"] is False
    again = await api.client.post("/api/accounts", json={"name": "ada", "password": "x" * 10})
    assert again.status_code == 409 and code(again) == "account/name_taken"
    login = await api.client.post(
        "/api/sessions", json={"name": "ADA", "password": "hunter2hunter2"}
    )
    assert login.status_code == 200
    me = await api.get("/api/accounts/me", login.json()["token"])
    assert me.json()["name"] == "Ada"
    wrong = await api.client.post("/api/sessions", json={"name": "Ada", "password": "nope"})
    assert wrong.status_code == 401 and code(wrong) == "auth/bad_credentials"
    assert code(await api.get("/api/accounts/me", "v1.1.1.forged")) == "auth/bad_token"
    assert code(await api.client.post("/api/accounts", json={"nam": "x"})) == "request/invalid"


async def test_openapi_docs_are_served(api: Api) -> None:
    assert (await api.client.get("/docs")).status_code == 200
    paths = (await api.client.get("/openapi.json")).json()["paths"]
    assert "/api/lobbies/{lobby_id}/start" in paths and "/api/matches/{match_id}/state" in paths


async def test_games_lists_every_playable_engine(api: Api) -> None:
    games = {g["id"]: g for g in (await api.get("/api/games")).json()}
    assert games["tally"]["max_seats"] == 4


async def test_lobby_refusals(api: Api) -> None:
    host, guest, third = await api.guest("h"), await api.guest("g"), await api.guest("t")
    assert (
        code(await api.post("/api/lobbies", None, {"game": "tally", "seats": 2})) == "auth/required"
    )
    assert (
        code(await api.post("/api/lobbies", host, {"game": "chess", "seats": 2}))
        == "lobby/unknown_game"
    )
    assert (
        code(await api.post("/api/lobbies", host, {"game": "tally", "seats": 9}))
        == "lobby/bad_seats"
    )
    bad = await api.post(
        "/api/lobbies", host, {"game": "tally", "seats": 2, "options": {"target": "x"}}
    )
    assert code(bad) == "lobby/bad_options" and "tally/bad_option" in bad.json()["error"]["message"]
    lobby = await api.ok("/api/lobbies", host, {"game": "tally", "seats": 2})
    lid = lobby["id"]
    assert code(await api.post(f"/api/lobbies/{lid}/join", host)) == "lobby/already_seated"
    assert code(await api.post(f"/api/lobbies/{lid}/start", host)) == "lobby/not_full"
    await api.ok(f"/api/lobbies/{lid}/join", guest)
    assert code(await api.post(f"/api/lobbies/{lid}/join", third)) == "lobby/full"
    assert code(await api.post(f"/api/lobbies/{lid}/bots", guest)) == "lobby/not_host"
    assert code(await api.post(f"/api/lobbies/{lid}/start", guest)) == "lobby/not_host"
    assert (
        code(await api.post(f"/api/lobbies/{lid}/vote", guest, {"for_seat": 1}))
        == "lobby/self_vote"
    )
    # The host leaves: the guest becomes host; a seat opens for the third player.
    left = await api.ok(f"/api/lobbies/{lid}/leave", host)
    assert left["host_id"] != lobby["host_id"]
    await api.ok(f"/api/lobbies/{lid}/join", third, {"seat": 0})
    assert code(await api.post(f"/api/lobbies/{lid}/leave", host)) == "lobby/not_seated"
    assert (await api.ok(f"/api/lobbies/{lid}/start", guest))["match_id"]
    assert code(await api.post(f"/api/lobbies/{lid}/join", host)) == "lobby/not_open"
    assert code(await api.post("/api/lobbies/999999/join", host)) == "lobby/not_found"


async def test_private_tables_need_their_invite_code(api: Api) -> None:
    host, guest = await api.guest("h"), await api.guest("g")
    lobby = await api.ok("/api/lobbies", host, {"game": "tally", "seats": 2, "public": False})
    assert lobby["invite_code"]
    listed = [lb["id"] for lb in (await api.get("/api/lobbies")).json()]
    assert lobby["id"] not in listed
    assert "invite_code" not in (await api.get(f"/api/lobbies/{lobby['id']}", guest)).json()
    refused = await api.post(f"/api/lobbies/{lobby['id']}/join", guest, {"invite_code": "nope"})
    assert code(refused) == "lobby/bad_invite"
    await api.ok(f"/api/lobbies/{lobby['id']}/join", guest, {"invite_code": lobby["invite_code"]})


async def test_lobby_socket_streams_table_changes(api: Api, shared_server: Server) -> None:
    host, guest = await api.guest("feed host"), await api.guest("feed guest")
    async with websockets.connect(f"{shared_server.ws}/ws/lobby") as feed:
        await feed.send(json.dumps({"type": "hello"}))  # else closed after the hello timeout
        first = json.loads(await feed.recv())
        assert first["type"] == "lobbies"
        lobby = await api.ok("/api/lobbies", host, {"game": "tally", "seats": 2})
        created = json.loads(await asyncio.wait_for(feed.recv(), 5))
        assert created["type"] == "lobby" and created["lobby"]["id"] == lobby["id"]
        await api.ok(f"/api/lobbies/{lobby['id']}/join", guest)
        joined = json.loads(await asyncio.wait_for(feed.recv(), 5))
        assert joined["lobby"]["members"][1]["name"] == "feed guest"
        await api.ok(f"/api/lobbies/{lobby['id']}/castle", guest, {"name": "Owl Tower"})
        named = json.loads(await asyncio.wait_for(feed.recv(), 5))
        assert named["lobby"]["members"][1]["castle"] == "Owl Tower"
        await feed.send("{oops")
        assert json.loads(await asyncio.wait_for(feed.recv(), 5))["code"] == "message/bad_json"
        # A private table is announced to its members only.
        await api.ok("/api/lobbies", host, {"game": "tally", "seats": 2, "public": False})
        await api.ok(f"/api/lobbies/{lobby['id']}/start", host)
        started = json.loads(await asyncio.wait_for(feed.recv(), 5))
        assert started["lobby"]["status"] == "started" and started["lobby"]["match_id"]
        # Every change is one revision later, whichever way a client hears of it.
        revisions = [m["lobby"]["revision"] for m in (created, joined, named, started)]
        assert revisions == [1, 2, 3, 4]
        fetched = await api.client.get(f"/api/lobbies/{lobby['id']}")
        assert fetched.json()["revision"] == 4


async def test_hot_seat_player_holds_several_seats(api: Api, shared_server: Server) -> None:
    host = await api.guest("solo")
    lobby = await api.ok(
        "/api/lobbies",
        host,
        {"game": "tally", "seats": 2, "hot_seat": True, "options": {"target": 1}},
    )
    await api.ok(f"/api/lobbies/{lobby['id']}/join", host)
    match_id = (await api.ok(f"/api/lobbies/{lobby['id']}/start", host))["match_id"]
    seat0 = await Client(shared_server, match_id, host).connect()
    seat1 = Client(shared_server, match_id, host)
    seat1.ws = await websockets.connect(seat1.url)
    seat1._reader = asyncio.create_task(seat1._read())
    await seat1.send({"type": "hello", "token": host, "seat": 1})
    welcome = await seat1.wait_for("welcome")
    assert welcome["seat"] == 1 and welcome["seats"] == [0, 1]
    await seat0.act({"type": "move", "cell": 0})
    await seat1.wait_for("patch", version=1)
    await seat1.act({"type": "move", "cell": 8})
    await seat0.wait_until(lambda c: c.view["outcome"] is not None)
