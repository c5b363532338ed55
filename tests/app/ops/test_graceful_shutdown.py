"""SIGTERM of a single process mid-match: every acknowledged action is kept, the match sockets
close with 1012 (service restart), and the match resumes once the process is back."""

from __future__ import annotations

import asyncio
import json
import signal

import websockets

from tests.app.conftest import ServerFactory
from tests.app.support import Api, Client


async def test_sigterm_mid_match_closes_1012_keeps_every_ack_and_resumes(
    make_server: ServerFactory,
) -> None:
    server = make_server()
    api = Api(server)
    tokens = [await api.guest("ann"), await api.guest("bob")]
    match_id = await api.table("tally", tokens, seats=3, options={"target": 60}, bots="heuristic")
    players = [await Client(server, match_id, t).connect() for t in tokens]

    acked: dict[int, int] = {}  # version -> seat
    for _ in range(3):
        for seat, player in enumerate(players):
            await player.wait_until(lambda c, s=seat: c.view["turn"] == s and c.legal)
            seq = await player.act({"type": "move", "cell": (player.version + seat) % 20})
            acked[(await player.wait_for("ack", client_seq=seq))["version"]] = seat
    # One more move in flight as the signal arrives: acknowledged, or refused with
    # server/restarting (retry), or unanswered; never acknowledged and then lost.
    await players[0].wait_until(lambda c: c.view["turn"] == 0 and c.legal)
    in_flight = await players[0].act({"type": "move", "cell": 3})
    assert server.process is not None
    server.process.terminate()  # SIGTERM
    for player in players:
        assert player._reader is not None
        await asyncio.wait_for(player._reader, 20)
        assert player.ws.close_code == 1012, player.ws.close_code
    # uvicorn ends by raising the signal it caught once shutdown is done: -SIGTERM.
    assert await asyncio.to_thread(server.process.wait, 20) in (0, -signal.SIGTERM)
    assert "matches handed over" in server.log_text()
    for message in players[0].messages:
        if message.get("client_seq") == in_flight and message["type"] == "ack":
            acked[message["version"]] = 0
        elif message.get("client_seq") == in_flight:
            assert message["code"] == "server/restarting" and message["retry"] is True

    await api.close()
    # While it was down nothing could connect; once back, the match resumes from the log.
    server.start(server.log_path.parent)  # type: ignore[union-attr]
    api = Api(server)
    events = (await api.get(f"/api/matches/{match_id}/events")).text.splitlines()
    logged = {row["version"]: row for row in map(json.loads, events[1:])}
    for version, seat in acked.items():
        assert logged[version]["seat"] == seat
    ann = await Client(server, match_id, tokens[0]).connect(last_version=max(acked))
    bob = await Client(server, match_id, tokens[1]).connect(last_version=max(acked))
    assert ann.of_type("welcome")[0]["resumed"] is True
    before = len(logged)
    # Play on: each human moves when it is his turn (the server bot in seat 2 moves itself).
    ann.seq = bob.seq = 100
    for _ in range(4):
        await ann.wait_until(lambda c: c.view["turn"] in (0, 1))
        player = ann if ann.view["turn"] == 0 else bob  # type: ignore[index]
        await player.wait_until(lambda c: bool(c.legal) and c.version >= ann.version)
        seq = await player.act({"type": "move", "cell": 7})
        version = (await player.wait_for("ack", client_seq=seq))["version"]
        assert version > before
        await ann.wait_until(lambda c, v=version: c.version >= v)
    await api.close()
    assert "Traceback" not in server.log_text()


async def test_a_stopping_process_takes_no_new_match_socket(make_server: ServerFactory) -> None:
    """Between the signal and the end, a new socket is told to reconnect (1012), not served."""
    server = make_server()
    api = Api(server)
    tokens = [await api.guest("ann"), await api.guest("bob")]
    match_id = await api.table("tally", tokens, options={"target": 60})
    await api.close()
    ann = await Client(server, match_id, tokens[0]).connect()
    assert server.process is not None
    server.process.terminate()
    assert ann._reader is not None
    await asyncio.wait_for(ann._reader, 20)
    assert ann.ws.close_code == 1012
    # The listener is closed as soon as the hand-over is done: a late socket is either refused
    # at connect or told to restart; it is never welcomed.
    try:
        async with websockets.connect(f"{server.ws}/ws/matches/{match_id}") as late:
            await late.send(json.dumps({"type": "hello", "token": tokens[1]}))
            reply = json.loads(await asyncio.wait_for(late.recv(), 10))
            assert reply["type"] == "error" and reply["code"] == "server/restarting"
    except (OSError, websockets.ConnectionClosed, websockets.InvalidStatus):
        pass
    assert await asyncio.to_thread(server.process.wait, 20) in (0, -signal.SIGTERM)
