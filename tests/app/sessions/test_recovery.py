"""The action log is the source of truth: SIGKILL the server mid-match, start it again, and
every acknowledged action is there and the players (and the server's bots) resume."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.app.conftest import BACKENDS, ServerFactory
from tests.app.support import Api, Client


def move_for(view: dict[str, object], seat: int) -> dict[str, object]:
    return {"type": "move", "cell": (int(view["n"]) * 7 + seat) % 20}  # type: ignore[call-overload]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_sigkill_mid_match_loses_no_acknowledged_action(
    make_server: ServerFactory, backend: str
) -> None:
    server = make_server(backend)
    api = Api(server)
    tokens = [await api.guest("ann"), await api.guest("bob")]
    # Seat 2 is a server bot: it must keep playing after the restart too.
    lobby = await api.ok(
        "/api/lobbies", tokens[0], {"game": "tally", "seats": 3, "options": {"target": 12}}
    )
    await api.ok(f"/api/lobbies/{lobby['id']}/join", tokens[1])
    await api.ok(f"/api/lobbies/{lobby['id']}/bots", tokens[0], {"kind": "heuristic"})
    match_id = (await api.ok(f"/api/lobbies/{lobby['id']}/start", tokens[0]))["match_id"]
    await api.close()
    players = [await Client(server, match_id, t).connect() for t in tokens]

    acked: list[tuple[int, int]] = []  # (seat, version)
    for _ in range(4):  # four rounds of ann, bob, bot
        for seat, player in enumerate(players):
            await player.wait_until(lambda c, s=seat: c.view["turn"] == s and c.legal)
            seq = await player.act(move_for(player.view, seat))  # type: ignore[arg-type]
            ack = await player.wait_for("ack", client_seq=seq)
            acked.append((seat, ack["version"]))
    # One more action in flight when the process dies: it may or may not have landed.
    await players[0].wait_until(lambda c: c.view["turn"] == 0 and c.legal)
    in_flight_seq = await players[0].act(move_for(players[0].view, 0))  # type: ignore[arg-type]
    server.kill()
    for player in players:
        await player.close()

    server.start(server.log_path.parent)  # type: ignore[union-attr]
    api = Api(server)
    events = (await api.get(f"/api/matches/{match_id}/events")).text.splitlines()
    logged = {}
    for line in events[1:]:
        row = json.loads(line)
        logged[row["version"]] = row
    for seat, version in acked:
        assert logged[version]["seat"] == seat
    assert len(logged) >= len(acked) + 4  # the bot's moves are logged too

    # The players reconnect with their last version and carry on. The in-flight action is
    # resent with its client_seq: applied now if it was lost, acknowledged as a duplicate if it
    # had landed; never applied twice. An older client_seq is refused as stale.
    last_seen = max(v for _, v in acked)
    ann = await Client(server, match_id, tokens[0]).connect(last_version=last_seen)
    bob = await Client(server, match_id, tokens[1]).connect(last_version=last_seen)
    assert ann.of_type("welcome")[0]["resumed"] is True
    landed = len(logged) > len(acked) + 4
    n_before = ann.view["n"]  # type: ignore[index]
    retry = {"type": "action", "client_seq": in_flight_seq, "action": move_for(ann.view, 0)}  # type: ignore[arg-type]
    if landed:
        retry["action"] = {"type": "move", "cell": 0}
    await ann.send(retry)
    reply = await ann.wait_for("ack", client_seq=in_flight_seq)
    assert reply.get("duplicate", False) is landed
    await ann.send({"type": "action", "client_seq": 1, "action": {"type": "move", "cell": 0}})
    assert (await ann.wait_for("error", client_seq=1))["code"] == "action/stale_seq"
    await ann.wait_until(lambda c: c.view["n"] >= n_before + (0 if landed else 1))  # type: ignore[index]

    ann.seq = bob.seq = 100
    clients = (ann, bob)
    while ann.view["outcome"] is None:  # type: ignore[index]
        for seat, player in enumerate(clients):
            view = player.view
            if view["outcome"] is None and view["turn"] == seat and player.legal:  # type: ignore[index]
                seq = await player.act(move_for(view, seat))  # type: ignore[arg-type]
                await player.wait_for("ack", client_seq=seq)
        await ann.wait_until(lambda c: c.version >= bob.version, timeout=10)
        await bob.wait_until(lambda c: c.version >= ann.version, timeout=10)
        await asyncio.sleep(0.02)
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["status"] == "finished"
    assert match["result"]["placings"][0] in ([0], [1], [2])
    await api.close()
