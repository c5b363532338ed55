"""No side door around bans and mutes: only a seated player chats on a match socket (a
spectator, signed in or not, is refused ``chat/spectator`` and stays connected), and the lobby
socket refuses a banned token's hello and is closed when its player is banned."""

from __future__ import annotations

import asyncio

from tests.app.matchmaking.test_queue import LobbyListener
from tests.app.moderation.test_moderation import admin_token, me, play
from tests.app.support import Api, Client, Server


async def test_spectators_cannot_chat(api: Api, shared_server: Server) -> None:
    ann, bob, eve = await api.guest("Ann"), await api.guest("Bob"), await api.guest("Eve")
    ann_client, _ = await play(api, shared_server, [ann, bob])
    match_id = int(ann_client.url.rsplit("/", 1)[1])
    anonymous = await Client(shared_server, match_id, None).connect()
    signed_in = await Client(shared_server, match_id, eve).connect()
    assert anonymous.seat is None and signed_in.seat is None
    for watcher in (anonymous, signed_in):
        await watcher.send({"type": "chat", "text": "psst"})
        await watcher.wait_for("error", code="chat/spectator")
    # Still connected: the next message is answered too, and players heard no chat.
    await anonymous.send({"type": "chat", "text": "again"})
    errors = [m for m in anonymous.of_type("error") if m["code"] == "chat/spectator"]
    await anonymous.wait_until(lambda c: len(c.of_type("error")) >= len(errors) + 1)
    await ann_client.send({"type": "chat", "text": "hello"})
    await anonymous.wait_for("chat", text="hello")  # a spectator still reads chat
    assert [m["text"] for m in ann_client.of_type("chat")] == ["hello"]


async def test_a_banned_token_cannot_say_hello_on_the_lobby_socket(
    api: Api, shared_server: Server
) -> None:
    admin = await admin_token(api, shared_server)
    bob = await api.guest("Lobby Bob")
    bob_id = (await me(api, bob))["id"]
    await api.ok(f"/api/admin/players/{bob_id}/ban", admin, {"reason": "abuse"})
    listener = await LobbyListener().open(shared_server, bob)
    refused = await listener.wait_for("error")
    assert refused["code"] == "auth/banned"
    await listener.close()


async def test_a_ban_closes_the_player_s_lobby_sockets(api: Api, shared_server: Server) -> None:
    admin = await admin_token(api, shared_server)
    bob, ann = await api.guest("Lobby Bob"), await api.guest("Lobby Ann")
    bob_id = (await me(api, bob))["id"]
    bob_lobby = await LobbyListener().open(shared_server, bob)
    ann_lobby = await LobbyListener().open(shared_server, ann)
    await bob_lobby.wait_for("lobbies")
    await ann_lobby.wait_for("lobbies")
    await asyncio.sleep(0.2)  # both hellos read
    await api.ok(f"/api/admin/players/{bob_id}/ban", admin, {"reason": "abuse"})
    told = await bob_lobby.wait_for("error")
    assert told["code"] == "auth/banned"
    assert bob_lobby.reader is not None
    await asyncio.wait_for(bob_lobby.reader, 5)  # the server closed it
    assert bob_lobby.ws.close_code == 1008
    assert ann_lobby.reader is not None and not ann_lobby.reader.done()
    await ann_lobby.close()
