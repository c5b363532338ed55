"""Every message of whole matches of the four games, and of the lobby socket, against the
published AsyncAPI document (``/asyncapi.json``)."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from typing import Any

import httpx
import jsonschema
import pytest
import websockets
from rampart_client import MatchClient, Rampart, play

from tests.app.support import Server

Messages = list[dict[str, Any]]


def server_messages(document: dict[str, Any], channel: str) -> dict[str, dict[str, Any]]:
    """The schemas of the messages the server sends on ``channel``, by message name, each
    with the document's components beside it so its references resolve."""
    operation = next(
        op
        for op in document["operations"].values()
        if op["action"] == "send" and op["channel"]["$ref"] == f"#/channels/{channel}"
    )
    out = {}
    for ref in operation["messages"]:
        key = ref["$ref"].rsplit("/", 1)[-1]
        message_ref = document["channels"][channel]["messages"][key]["$ref"]
        message = document["components"]["messages"][message_ref.rsplit("/", 1)[-1]]
        out[message["name"]] = {**message["payload"], "components": document["components"]}
    return out


def check(schemas: dict[str, dict[str, Any]], messages: Messages) -> Counter[str]:
    """Each message matches exactly one of ``schemas``; returns how many of each there were."""
    seen: Counter[str] = Counter()
    for message in messages:
        matches = [
            name
            for name, schema in schemas.items()
            if jsonschema.Draft202012Validator(schema).is_valid(message)
        ]
        assert len(matches) == 1, f"{json.dumps(message)[:300]} matches {matches}"
        seen[matches[0]] += 1
    return seen


@pytest.fixture(scope="module")
def document(shared_server: Server) -> dict[str, Any]:
    reply = httpx.get(f"{shared_server.http}/asyncapi.json")
    assert reply.status_code == 200
    body: dict[str, Any] = reply.json()
    assert body["asyncapi"].startswith("3.")
    return body


def choose(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    return random.choice([action for action in legal if action["type"] != "resign"] or legal)


async def test_every_document_reference_resolves(document: dict[str, Any]) -> None:
    text = json.dumps(document)
    for ref in {part.split('"')[0] for part in text.split('"$ref": "')[1:]}:
        node: Any = document
        for step in ref.removeprefix("#/").split("/"):
            node = node[step]
        assert isinstance(node, dict), ref


@pytest.mark.parametrize("game", ["ambush", "rampage", "castles", "ember"])
async def test_every_message_of_a_whole_match_is_in_the_contract(
    shared_server: Server, document: dict[str, Any], game: str
) -> None:
    random.seed(f"contract-{game}")
    received: Messages = []
    async with Rampart(shared_server.http) as api:
        await api.guest(f"k-{game}-{random.randrange(10**9)}")
        table = await api.create_table(game, 2, time_control={"turn_ms": 60_000})
        await api.add_bots(table["id"], 1, kind="random")
        match_id = await api.start(table["id"])
        assert api.token is not None
        async with MatchClient(api.base_url, match_id, api.token, on_message=received.append) as c:
            c.chat("good luck")
            c.act({"type": "no_such_action"})  # refused: an error with its client_seq
            await c.wait_for(lambda event: event.kind == "refused")
        await play(api.base_url, match_id, api.token, choose, on_message=received.append)
        async with MatchClient(api.base_url, match_id, api.token, on_message=received.append):
            pass  # a welcome to a finished match
    seen = check(server_messages(document, "match"), received)
    assert {"Welcome", "Ack", "Error", "Clock", "ChatLine"} <= set(seen), seen
    assert seen["Ended"] == 2, seen  # at the end, and after the welcome to the finished match
    ended = [m for m in received if m["type"] == "ended"]
    assert ended[0] == ended[1] and ended[0]["match_id"] == match_id
    assert ended[0]["rated"] is False and ended[0]["ledger"] is None  # a casual table
    assert seen["PatchWhole"] + seen["PatchDiff"] > 5, seen
    if game == "ambush":
        assert seen["GrabResult"] or seen["Ping"], seen


async def test_every_lobby_socket_message_is_in_the_contract(
    shared_server: Server, document: dict[str, Any]
) -> None:
    received: Messages = []
    async with Rampart(shared_server.http) as api:
        await api.guest(f"k-lobby-{random.randrange(10**9)}")
        async with websockets.connect(f"{shared_server.ws}/ws/lobby") as socket:
            await socket.send(json.dumps({"type": "hello", "token": api.token}))
            await socket.send(json.dumps({"type": "chat", "text": "hi"}))  # refused
            table = await api.create_table("rampage", 2)
            await api.add_bots(table["id"], 1)
            async with asyncio.timeout(10):
                while not any(m["type"] == "lobby" for m in received) or not any(
                    m["type"] == "error" for m in received
                ):
                    received.append(json.loads(await socket.recv()))
    seen = check(server_messages(document, "lobby"), received)
    assert {"Lobbies", "LobbyChanged", "Error"} <= set(seen), seen
