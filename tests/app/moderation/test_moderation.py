"""Moderation against a real server: the admin role from the command line, ban (tokens and
sockets refused, seats resigned, no login), mute, void (ledger, ladders and ratings reversed
exactly, audited), abort (sockets told, no result), reports and the audit log."""

from __future__ import annotations

import asyncio
import subprocess
from typing import Any

import httpx

from app.scoring.ratings import SkillRating, rate_match, system_for
from engines.base import Outcome
from tests.app.support import Api, Client, Server, app_command

TALLY = "tally"


def cli(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    return app_command(server.database_url, *args)


def code(reply: httpx.Response) -> str:
    return str(reply.json()["error"]["code"])


async def me(api: Api, token: str) -> dict[str, Any]:
    reply = await api.get("/api/accounts/me", token)
    assert reply.status_code == 200, reply.text
    data: dict[str, Any] = reply.json()
    return data


async def admin_token(api: Api, server: Server) -> str:
    token = await api.guest("Warden")
    done = cli(server, "admin", "grant", (await me(api, token))["name"])
    assert done.returncode == 0, done.stderr
    return token


async def play(api: Api, server: Server, tokens: list[str], **lobby: Any) -> list[Client]:
    """A two-seat tally table, started, both players connected."""
    body = {"game": TALLY, "seats": 2, **lobby}
    table = await api.ok("/api/lobbies", tokens[0], body)
    await api.ok(f"/api/lobbies/{table['id']}/join", tokens[1])
    match_id = (await api.ok(f"/api/lobbies/{table['id']}/start", tokens[0]))["match_id"]
    return [await Client(server, match_id, token).connect() for token in tokens]


async def finished(api: Api, match_id: int) -> dict[str, Any]:
    """The match as REST shows it once its result is written."""
    for _ in range(200):
        shown: dict[str, Any] = (await api.get(f"/api/matches/{match_id}")).json()
        if shown["status"] != "running":
            return shown
        await asyncio.sleep(0.05)
    raise AssertionError(f"match {match_id} did not finish")


async def play_to_the_end(clients: list[Client], target: int) -> None:
    """Tally seats move in turn from seat 0, a point a move: seat 0 reaches ``target`` first."""
    by_seat = {client.seat: client for client in clients}
    for move in range(2 * target - 1):
        client = by_seat[move % 2]
        seq = await client.act({"type": "move", "cell": 0})
        await client.wait_for("ack", client_seq=seq)


async def rated_match(api: Api, server: Server, tokens: list[str]) -> int:
    """A rated tally match to 2 points (the first to move wins 2-1: a ledger change of 50
    each way); waits until the ladder has its events."""
    clients = await play(api, server, tokens, rated=True, options={"target": 2})
    await play_to_the_end(clients, 2)
    match_id = int(clients[0].url.rsplit("/", 1)[1])
    for client in clients:
        await client.close()
    account = (await me(api, tokens[0]))["id"]
    for _ in range(100):
        history = (await api.get(f"/api/players/{account}/ratings")).json()
        if any(h["match_id"] == match_id for h in history):
            return match_id
        await asyncio.sleep(0.05)
    raise AssertionError(f"match {match_id} never reached the ladder")


async def game_ladder(api: Api, names: list[str]) -> dict[str, dict[str, Any]]:
    ladders = (await api.get("/api/ladders", game=TALLY)).json()
    ladder = next(lad for lad in ladders if lad["kind"] == "game")
    rows = (await api.get(f"/api/ladders/{ladder['id']}/entries", limit=200)).json()
    return {row["name"]: row for row in rows if row["name"] in names}


async def test_admin_role_from_the_command_line(api: Api, shared_server: Server) -> None:
    player = await api.guest("Plain")
    assert (await api.get("/api/admin/reports")).status_code == 401
    refused = await api.get("/api/admin/reports", player)
    assert refused.status_code == 403 and code(refused) == "admin/required"
    name = (await me(api, player))["name"]
    granted = cli(shared_server, "admin", "grant", name.upper())  # names match as logins do
    assert granted.returncode == 0, granted.stderr
    assert name in cli(shared_server, "admin", "list").stdout
    assert (await api.get("/api/admin/reports", player)).status_code == 200
    assert cli(shared_server, "admin", "revoke", name).returncode == 0
    assert (await api.get("/api/admin/reports", player)).status_code == 403
    unknown = cli(shared_server, "admin", "grant", "nobody by this name")
    assert unknown.returncode == 1 and "no account named" in unknown.stderr
    audit = (await api.get("/api/admin/audit", await admin_token(api, shared_server))).json()
    actions = [(a["actor"], a["action"], a["detail"].get("name")) for a in audit["actions"]]
    assert ("cli", "grant_admin", name) in actions and ("cli", "revoke_admin", name) in actions


async def test_ban_refuses_tokens_closes_sockets_and_resigns_seats(
    api: Api, shared_server: Server
) -> None:
    admin = await admin_token(api, shared_server)
    ann = await api.guest("Ann")
    reply = await api.client.post("/api/accounts", json={"name": "Bad Bob", "password": "pw-12345"})
    assert reply.status_code == 201, reply.text
    bob = reply.json()["token"]
    bob_id = reply.json()["account"]["id"]
    ann_client, bob_client = await play(api, shared_server, [ann, bob])
    match_id = int(ann_client.url.rsplit("/", 1)[1])

    assert code(await api.post(f"/api/admin/players/{bob_id}/ban", ann)) == "admin/required"
    banned = await api.ok(f"/api/admin/players/{bob_id}/ban", admin, {"reason": "abuse"})
    assert banned["banned"] is True and banned["resigned_in"] == [match_id]

    refused = await api.get("/api/accounts/me", bob)
    assert refused.status_code == 401 and code(refused) == "auth/banned"
    await bob_client.wait_for("error", code="auth/banned")
    await bob_client.wait_until(lambda c: c._reader is not None and c._reader.done())
    shown = await finished(api, match_id)
    assert shown["result"]["seats"][str(bob_client.seat)]["resigned"] is True
    assert shown["result"]["placings"][0] == [ann_client.seat]
    assert shown["forfeits"] == {str(bob_client.seat): "banned"}
    again = await Client(shared_server, match_id, bob).connect(hello=False)
    await again.send({"type": "hello", "token": bob})
    await again.wait_for("error", code="auth/banned")
    login = await api.client.post("/api/sessions", json={"name": "Bad Bob", "password": "pw-12345"})
    assert login.status_code == 401 and code(login) == "auth/banned"

    await api.ok(f"/api/admin/players/{bob_id}/unban", admin, {"reason": "appeal"})
    assert (await api.get("/api/accounts/me", bob)).status_code == 200
    audit = (await api.get("/api/admin/audit", admin)).json()["actions"]
    mine = [(a["action"], a["reason"]) for a in audit if a["account_id"] == bob_id]
    assert ("ban", "abuse") in mine and ("unban", "appeal") in mine


async def test_a_muted_player_s_chat_is_refused(api: Api, shared_server: Server) -> None:
    admin = await admin_token(api, shared_server)
    ann, cat = await api.guest("Ann"), await api.guest("Loud Cat")
    cat_id = (await me(api, cat))["id"]
    ann_client, cat_client = await play(api, shared_server, [ann, cat])
    muted = await api.ok(f"/api/admin/players/{cat_id}/mute", admin, {"minutes": 30})
    assert muted["muted_until"] is not None
    await cat_client.send({"type": "chat", "text": "spam"})
    await cat_client.wait_for("error", code="chat/muted")
    await ann_client.send({"type": "chat", "text": "hello"})
    await cat_client.wait_for("chat", text="hello")  # the muted player still reads chat
    assert not [m for m in ann_client.of_type("chat") if m["text"] == "spam"]

    await api.ok(f"/api/admin/players/{cat_id}/unmute", admin)
    await cat_client.send({"type": "chat", "text": "sorry"})
    await ann_client.wait_for("chat", text="sorry")
    # A new socket of the muted player is refused too (the mute is per account, not socket).
    await api.ok(f"/api/admin/players/{cat_id}/mute", admin)
    second = await Client(shared_server, int(ann_client.url.rsplit("/", 1)[1]), cat).connect()
    await second.send({"type": "chat", "text": "again"})
    await second.wait_for("error", code="chat/muted")


def expected_after(outcome: dict[str, Any], seats: list[int]) -> dict[int, dict[str, Any]]:
    """What one rated duel does to two fresh ladder entries' skill ratings."""
    system = system_for(len(seats))
    before = {seat: SkillRating.initial(system) for seat in seats}
    after = rate_match(before, Outcome.from_json(outcome).placings)
    return {seat: after[seat].to_json() for seat in seats}


async def test_void_reverses_ledger_ladder_and_ratings_exactly(
    api: Api, shared_server: Server
) -> None:
    admin = await admin_token(api, shared_server)
    dee, eve = await api.guest("Dee"), await api.guest("Eve")
    names = [(await me(api, t))["name"] for t in (dee, eve)]
    first = await rated_match(api, shared_server, [dee, eve])
    second = await rated_match(api, shared_server, [eve, dee])
    board = await game_ladder(api, names)
    assert board[names[0]]["played"] == board[names[1]]["played"] == 2

    voided = await api.ok(f"/api/admin/matches/{first}/void", admin, {"reason": "rigged"})
    assert voided["status"] == "voided" and len(voided["reversed"]["rating_events"]) == 2
    shown = (await api.get(f"/api/matches/{first}")).json()
    assert shown["status"] == "voided" and shown["ledger"] is None
    assert all(seat["ledger_delta"] is None for seat in shown["seats"])

    # The ladder is as if only the second match had been played: its ledger, and ratings
    # re-rated from fresh entries.
    kept = (await api.get(f"/api/matches/{second}")).json()
    after = expected_after(kept["result"], [0, 1])
    board = await game_ladder(api, names)
    for seat in kept["seats"]:
        row = board[seat["name"]]
        assert row["points"] == 1500 + int(kept["ledger"][str(seat["seat"])])
        assert row["played"] == 1 and row["wins"] + row["losses"] == 1
        system = system_for(2)
        assert row["ratings"][system] == SkillRating.from_json(after[seat["seat"]]).to_json()
    for token in (dee, eve):
        account = (await me(api, token))["id"]
        history = (await api.get(f"/api/players/{account}/ratings")).json()
        assert [h["match_id"] for h in history] == [second]
        assert history[0]["points_before"] == 1500

    await api.ok(f"/api/admin/matches/{second}/void", admin, {"reason": "rigged too"})
    board = await game_ladder(api, names)
    assert all(
        r["points"] == 1500 and r["played"] == 0 and not r["ratings"] for r in board.values()
    )
    again = await api.post(f"/api/admin/matches/{first}/void", admin, {"reason": "x"})
    assert again.status_code == 409 and code(again) == "match/already_voided"
    audit = (await api.get("/api/admin/audit", admin, action="void")).json()["actions"]
    record = next(a for a in audit if a["match_id"] == first)
    assert record["reason"] == "rigged" and record["detail"]["ledger"] is not None
    assert len(record["detail"]["rating_events"]) == 2

    casual = await play(api, shared_server, [dee, eve], options={"target": 1})
    await play_to_the_end(casual, 1)
    casual_id = int(casual[0].url.rsplit("/", 1)[1])
    assert (await finished(api, casual_id))["status"] == "finished"
    refused = await api.post(f"/api/admin/matches/{casual_id}/void", admin, {"reason": "x"})
    assert refused.status_code == 409 and code(refused) == "match/not_rated"


async def test_abort_tells_every_socket_and_leaves_no_result(
    api: Api, shared_server: Server
) -> None:
    admin = await admin_token(api, shared_server)
    fay, gus = await api.guest("Fay"), await api.guest("Gus")
    clients = await play(api, shared_server, [fay, gus], rated=True)
    match_id = int(clients[0].url.rsplit("/", 1)[1])
    watcher = await Client(shared_server, match_id, None).connect()
    done = await api.ok(f"/api/admin/matches/{match_id}/abort", admin, {"reason": "stuck"})
    assert done["status"] == "aborted"
    for client in [*clients, watcher]:
        await client.wait_for("error", code="match/aborted")
        await client.wait_until(lambda c: c._reader is not None and c._reader.done())
        assert client.ws.close_code == 1000
    shown = (await api.get(f"/api/matches/{match_id}")).json()
    assert shown["status"] == "aborted" and shown["result"] is None and not shown["ledger"]
    assert all(seat["ledger_delta"] is None for seat in shown["seats"])
    again = await api.post(f"/api/admin/matches/{match_id}/abort", admin, {"reason": "x"})
    assert again.status_code == 409 and code(again) == "match/over"
    late = await Client(shared_server, match_id, fay).connect()
    seq = await late.act({"type": "move", "cell": 0})
    await late.wait_for("error", code="match/over", client_seq=seq)


async def test_reports_are_filed_listed_and_closed(api: Api, shared_server: Server) -> None:
    admin = await admin_token(api, shared_server)
    hal, ivy = await api.guest("Hal"), await api.guest("Ivy")
    clients = await play(api, shared_server, [hal, ivy])
    match_id = int(clients[0].url.rsplit("/", 1)[1])
    body = {"match_id": match_id, "reason": "insults", "seat": 1, "chat_text": "you suck"}
    assert (await api.post("/api/reports", None, body)).status_code == 401
    filed = await api.ok("/api/reports", hal, body)
    assert filed["status"] == "open" and filed["chat_text"] == "you suck"
    bad_seat = await api.post("/api/reports", hal, {**body, "seat": 5})
    assert bad_seat.status_code == 422 and code(bad_seat) == "report/bad_seat"
    nowhere = await api.post("/api/reports", hal, {**body, "match_id": 2**31 - 1})
    assert nowhere.status_code == 404 and code(nowhere) == "match/not_found"
    too_long = await api.post("/api/reports", hal, {**body, "reason": "x" * 501})
    assert too_long.status_code == 422

    assert (await api.get("/api/admin/reports", ivy)).status_code == 403
    listed = (await api.get("/api/admin/reports", admin, status="open")).json()
    assert filed["id"] in [r["id"] for r in listed["reports"]]
    closed = await api.ok(f"/api/admin/reports/{filed['id']}/close", admin, {"resolution": "ok"})
    assert closed["status"] == "closed" and closed["resolution"] == "ok"
    assert filed["id"] not in [
        r["id"]
        for r in (await api.get("/api/admin/reports", admin, status="open")).json()["reports"]
    ]
    assert filed["id"] in [
        r["id"]
        for r in (await api.get("/api/admin/reports", admin, status="closed")).json()["reports"]
    ]
    twice = await api.post(f"/api/admin/reports/{filed['id']}/close", admin)
    assert twice.status_code == 409 and code(twice) == "report/closed"
    audit = (await api.get("/api/admin/audit", admin, action="close_report")).json()["actions"]
    assert any(a["report_id"] == filed["id"] for a in audit)

    # Modestly rate limited: five reports in ten minutes per player.
    statuses = [(await api.post("/api/reports", ivy, body)).status_code for _ in range(6)]
    assert statuses == [201] * 5 + [429]
