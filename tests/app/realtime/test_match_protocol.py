"""The match websocket protocol against a real server: play, resume, spectators, bad input."""

from __future__ import annotations

import asyncio
import json

from tests.app.conftest import ServerFactory
from tests.app.support import Api, Client, Server


async def two_player_tally(
    api: Api, server: Server, **options: object
) -> tuple[int, Client, Client]:
    tokens = [await api.guest("ann"), await api.guest("bob")]
    match_id = await api.table("tally", tokens, options={"target": 50, **options})
    ann = await Client(server, match_id, tokens[0]).connect()
    bob = await Client(server, match_id, tokens[1]).connect()
    return match_id, ann, bob


async def test_welcome_then_ack_and_patch_for_everyone(api: Api, shared_server: Server) -> None:
    _, ann, bob = await two_player_tally(api, shared_server)
    welcome = ann.of_type("welcome")[0]
    assert welcome["seat"] == 0 and welcome["version"] == 0
    assert welcome["legal"][0] == {"type": "move", "cell": 0}
    seq = await ann.act({"type": "move", "cell": 0})
    assert (await ann.wait_for("ack", client_seq=seq))["version"] == 1
    patch = await bob.wait_for("patch", version=1)
    assert patch["events"] == [{"type": "moved", "seat": 0, "cell": 0, "n": 1}]
    assert patch["view"]["turn"] == 1 and bob.legal[0]["type"] == "move"
    await ann.close()
    await bob.close()


async def test_the_welcome_says_whether_the_match_is_rated(api: Api, shared_server: Server) -> None:
    tokens = [await api.guest("cas"), await api.guest("rae")]
    casual = await api.table("tally", tokens, options={"target": 50})
    rated = await api.table("tally", tokens, options={"target": 50}, rated=True)
    for match_id, expected in ((casual, False), (rated, True)):
        seated = await Client(shared_server, match_id, tokens[0]).connect()
        watching = await Client(shared_server, match_id, None).connect()
        for client in (seated, watching):
            assert client.of_type("welcome")[0]["rated"] is expected
            await client.close()


async def test_bad_inputs_get_stable_error_codes_and_the_connection_carries_on(
    api: Api, shared_server: Server
) -> None:
    _, ann, bob = await two_player_tally(api, shared_server)
    other_id, carl, _dave = await two_player_tally(api, shared_server)

    async def expect(code: str, send: object) -> dict[str, object]:
        start = len(ann.messages)
        if isinstance(send, str):
            await ann.send_raw(send)
        else:
            await ann.send(send)  # type: ignore[arg-type]
        return await ann.wait_for("error", start=start, code=code)

    await expect("message/bad_json", "{not json")
    await expect("message/unknown_type", {"type": "teleport"})
    await expect("message/invalid", {"type": "action", "client_seq": "one", "action": {}})
    await expect("message/too_large", json.dumps({"type": "chat", "text": "x" * 20_000}))
    await expect("hello/repeated", {"type": "hello", "token": ann.token})
    # An action for someone else's seat, and one the engine refuses (not your turn).
    await expect(
        "action/not_your_seat",
        {"type": "action", "client_seq": 1, "action": {"type": "move", "cell": 0}, "seat": 1},
    )
    start = len(bob.messages)
    await bob.act({"type": "move", "cell": 0})
    assert (await bob.wait_for("error", start=start))["code"] == "tally/not_your_turn"
    # Stale and replayed actions: an old version, a resent client_seq, an older client_seq.
    await expect(
        "action/stale_version",
        {"type": "action", "client_seq": 5, "action": {"type": "move", "cell": 0}, "version": 3},
    )
    start = len(ann.messages)
    await ann.send({"type": "action", "client_seq": 6, "action": {"type": "move", "cell": 0}})
    await ann.wait_for("ack", start=start, client_seq=6)
    start = len(ann.messages)
    await ann.send({"type": "action", "client_seq": 6, "action": {"type": "move", "cell": 0}})
    duplicate = await ann.wait_for("ack", start=start, client_seq=6)
    assert duplicate["duplicate"] is True
    await expect(
        "action/stale_seq",
        {"type": "action", "client_seq": 4, "action": {"type": "move", "cell": 0}},
    )
    # The replay was not applied twice: still version 1, and bob is on turn.
    await bob.wait_for("patch", version=1)
    await asyncio.sleep(0.2)
    assert not bob.of_type("patch")[1:]
    # A flood: the bucket refuses the excess with one rate/limited error per second.
    start = len(ann.messages)
    for _ in range(150):
        await ann.send({"type": "chat", "text": "spam"})
    await ann.wait_for("error", start=start, code="rate/limited")
    # Every other match carries on, and so does this connection once the flood is over.
    seq = await carl.act({"type": "move", "cell": 0})
    await carl.wait_for("ack", client_seq=seq)
    await asyncio.sleep(2.5)
    start = len(bob.messages)
    seq = await bob.act({"type": "move", "cell": (1 * 7 + 1) % 20})
    await bob.wait_for("ack", start=start, client_seq=seq)
    assert other_id
    for client in (ann, bob, carl):
        await client.close()


async def test_hello_is_required_and_spectators_cannot_act(api: Api, shared_server: Server) -> None:
    match_id, ann, bob = await two_player_tally(api, shared_server)
    raw = await Client(shared_server, match_id, None).connect(hello=False)
    await raw.send({"type": "action", "client_seq": 1, "action": {"type": "move", "cell": 0}})
    assert (await raw.wait_for("error"))["code"] == "hello/required"
    await raw.send({"type": "hello", "token": "v1.1.2.forged"})
    assert await raw.wait_for("error", code="auth/bad_token")
    spectator = await Client(shared_server, match_id, None).connect()
    assert spectator.seat is None and spectator.legal == []
    await spectator.act({"type": "move", "cell": 0})
    assert (await spectator.wait_for("error"))["code"] == "action/not_seated"
    for client in (ann, bob, raw, spectator):
        await client.close()


async def test_unknown_match_is_refused(shared_server: Server) -> None:
    client = await Client(shared_server, 999_999, None).connect(hello=False)
    assert (await client.wait_for("error"))["code"] == "match/not_found"
    await client.close()


async def test_reconnect_resumes_from_last_version(api: Api, shared_server: Server) -> None:
    match_id, ann, bob = await two_player_tally(api, shared_server)
    await ann.act({"type": "move", "cell": 0})
    await bob.wait_for("patch", version=1)
    await bob.close()
    # While bob is away ann moves... and bob's seat (1) must move first; so bob reconnects.
    bob2 = await Client(shared_server, match_id, bob.token).connect(last_version=0)
    welcome = bob2.of_type("welcome")[0]
    assert welcome["resumed"] is True and welcome["version"] == 1
    # What bob missed rides in the welcome as events; no message after it is older.
    assert [m["version"] for m in welcome["missed"]] == [1]
    assert welcome["missed"][0]["events"][0]["type"] == "moved"
    seq = await bob2.act({"type": "move", "cell": 8})
    await bob2.wait_for("ack", client_seq=seq)
    assert all(patch["version"] > 1 for patch in bob2.of_type("patch"))
    await ann.wait_for("patch", version=2)
    # A client that is too far behind (or ahead) gets a plain full welcome.
    late = await Client(shared_server, match_id, ann.token).connect(last_version=99)
    assert late.of_type("welcome")[0]["resumed"] is False
    for client in (ann, bob2, late):
        await client.close()


async def test_spectator_never_sees_hidden_information(api: Api, shared_server: Server) -> None:
    match_id, ann, bob = await two_player_tally(api, shared_server, secrets=True)
    spectator = await Client(shared_server, match_id, None).connect()
    await ann.act({"type": "move", "cell": 0})
    await bob.wait_for("patch", version=1)
    await spectator.wait_for("patch", version=1)
    assert "secret" in ann.view and "secret" in bob.view  # type: ignore[operator]
    drew = [e for m in ann.of_type("patch") for e in m["events"] if e["type"] == "drew"]
    assert drew and "secret" in drew[0]
    # With secrets dealt every seat is its own view audience: each patch carries its own.
    assert ann.view["secret"] == drew[0]["secret"]  # type: ignore[index]
    bob_welcome = bob.of_type("welcome")[0]
    assert bob.view["secret"] == bob_welcome["view"]["secret"]  # type: ignore[index]
    others = [e for m in bob.of_type("patch") for e in m["events"] if e["type"] == "drew"]
    assert others == [{"type": "drew", "seat": 0}]
    for message in spectator.messages:
        assert "secret" not in json.dumps(message)
    events = await api.get(f"/api/matches/{match_id}/events")
    assert "secret" not in events.text
    mine = await api.get(f"/api/matches/{match_id}/events", ann.token)
    assert '"secret"' in mine.text
    for client in (ann, bob, spectator):
        await client.close()


async def test_chat_reaches_everyone(api: Api, shared_server: Server) -> None:
    _, ann, bob = await two_player_tally(api, shared_server)
    await ann.send({"type": "chat", "text": "good luck"})
    chat = await bob.wait_for("chat")
    assert chat["text"] == "good luck" and chat["seat"] == 0
    await ann.close()
    await bob.close()


async def test_a_connection_that_never_says_hello_is_closed(make_server: ServerFactory) -> None:
    server = make_server(RAMPART_HELLO_TIMEOUT_S="0.5")
    api = Api(server)
    match_id, ann, _bob = await two_player_tally(api, server)
    silent = await Client(server, match_id, None).connect(hello=False)
    assert (await silent.wait_for("error", timeout=5))["code"] == "hello/timeout"
    # Everyone else carries on.
    seq = await ann.act({"type": "move", "cell": 0})
    await ann.wait_for("ack", client_seq=seq)
    await api.close()
