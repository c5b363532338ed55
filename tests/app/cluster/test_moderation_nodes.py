"""Moderation in a two-process cluster: an admin acting through one process reaches the
matches and sockets the other serves (the ``moderation`` notices on the Redis bus)."""

from __future__ import annotations

import asyncio

from tests.app.cluster.conftest import NodeFactory, needs_cluster
from tests.app.cluster.test_two_nodes import eventually_async
from tests.app.matchmaking.test_queue import LobbyListener
from tests.app.moderation.test_moderation import cli, me
from tests.app.support import Api, Client

pytestmark = needs_cluster


async def test_ban_mute_and_abort_through_the_other_process(cluster: NodeFactory) -> None:
    one, two = cluster(), cluster()
    api_one, api_two = Api(one), Api(two)
    admin = await api_two.guest("Warden")
    granted = cli(two, "admin", "grant", (await me(api_two, admin))["name"])
    assert granted.returncode == 0, granted.stderr
    ann, bob = await api_one.guest("ann"), await api_one.guest("bob")
    bob_id = (await me(api_one, bob))["id"]
    match_id = await api_one.table("tally", [ann, bob])
    assert (await api_two.get(f"/api/matches/{match_id}/route")).json()["node"] == one.http
    ann_client = await Client(one, match_id, ann).connect()
    bob_client = await Client(one, match_id, bob).connect()

    # Muted through process two: process one refuses the chat.
    await api_two.ok(f"/api/admin/players/{bob_id}/mute", admin, {"minutes": 5})
    for _ in range(100):  # the notice reaches process one a moment later
        await bob_client.send({"type": "chat", "text": "spam"})
        await asyncio.sleep(0.1)
        if any(m.get("code") == "chat/muted" for m in bob_client.of_type("error")):
            break
    await bob_client.wait_for("error", code="chat/muted")

    # Banned through process two: process one closes his sockets (the match's and the
    # lobby's) and resigns his seat.
    bob_lobby = await LobbyListener().open(one, bob)
    await bob_lobby.wait_for("lobbies")
    banned = await api_two.ok(f"/api/admin/players/{bob_id}/ban", admin, {"reason": "abuse"})
    assert banned["resigned_in"] == []  # nothing of his runs on process two
    await bob_client.wait_for("error", code="auth/banned")
    assert (await bob_lobby.wait_for("error"))["code"] == "auth/banned"
    assert bob_lobby.reader is not None
    await asyncio.wait_for(bob_lobby.reader, 5)
    assert bob_lobby.ws.close_code == 1008
    refused = await LobbyListener().open(two, bob)  # and neither process takes his hello
    assert (await refused.wait_for("error"))["code"] == "auth/banned"
    await refused.close()
    await eventually_async(api_two, f"/api/matches/{match_id}", lambda m: m["status"] != "running")
    shown = (await api_two.get(f"/api/matches/{match_id}")).json()
    assert shown["result"]["seats"][str(bob_client.seat)]["resigned"] is True

    # Aborted through process two: forwarded to process one, which tells the sockets.
    cat = await api_one.guest("cat")
    other = await api_one.table("tally", [ann, cat])
    watcher = await Client(one, other, cat).connect()
    done = await api_two.ok(f"/api/admin/matches/{other}/abort", admin, {"reason": "stuck"})
    assert done["status"] == "forwarded"
    await watcher.wait_for("error", code="match/aborted")
    await eventually_async(api_two, f"/api/matches/{other}", lambda m: m["status"] == "aborted")
    assert ann_client.seat is not None
    await api_one.close()
    await api_two.close()
