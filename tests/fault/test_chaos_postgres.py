"""Chaos: PostgreSQL stopped mid-match, then started again (a cluster of the test's own).
While it is down: the move in flight is held, unacknowledged; new actions are refused at once
with ``server/unavailable`` (``retry: true``); a running match still welcomes a newcomer; a
REST read is a 503 with that code. Once it is back: the held move is acknowledged, the refused
one sent again is played, play goes on with no restart, and the log holds every ack."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.app.support import Api, Client, Server
from tests.fault.chaos_support import (
    DOWN_LOG_LINE,
    Duo,
    ThrowawayPostgres,
    assert_retryable_refusal,
    no_tracebacks,
    serving,
    stay_down,
    wait_for_log,
)


async def test_postgres_stopped_and_started_mid_match_loses_nothing_and_play_resumes(
    tmp_path: Path,
) -> None:
    postgres = ThrowawayPostgres()
    try:
        await asyncio.to_thread(postgres.create)
        async with serving(tmp_path, postgres.url) as (server, api):
            await down_mid_match(server, api, postgres)
    finally:
        await asyncio.to_thread(postgres.destroy)


async def down_mid_match(server: Server, api: Api, postgres: ThrowawayPostgres) -> None:
    one = await Duo.start(server, api, ("ann", "bob"))
    two = await Duo.start(server, api, ("cat", "dan"))
    await one.play(2)
    await two.play(2)
    await asyncio.to_thread(postgres.stop)
    held_by, held_seq, held_action = await one.send_move()
    await wait_for_log(server, DOWN_LOG_LINE)
    assert not any(m.get("client_seq") == held_seq for m in held_by.messages)
    mover, seq, action = await two.send_move()
    assert_retryable_refusal(await two.answer(mover, seq))
    await stay_down(two, mover, seq, action)
    watcher = await Client(server, two.match_id, None).connect()
    assert watcher.version == 2
    reply = await api.get(f"/api/matches/{two.match_id}/state", two.tokens[0])
    assert reply.status_code == 503, reply.text
    assert reply.json()["error"]["code"] == "server/unavailable"
    # A match not in memory cannot be loaded: a coded refusal and "come back later" (1013).
    stranger = Client(server, two.match_id + 1000, None)
    await stranger.connect(hello=False)  # the server looks the match up before any hello
    refusal = await stranger.wait_for("error")
    assert refusal["code"] == "server/unavailable", refusal
    await stranger.wait_until(lambda c: c._reader is not None and c._reader.done(), 10)
    assert stranger.ws.close_code == 1013
    assert not any(m.get("client_seq") == held_seq for m in held_by.messages)
    await asyncio.to_thread(postgres.start)
    reply_to_held = await one.answer(held_by, held_seq)
    one.record(held_by, reply_to_held, held_action)
    assert reply_to_held["version"] == 3
    start = len(mover.messages)
    await two.resend(mover, seq, action)
    two.record(mover, await two.answer(mover, seq, start), action)
    await watcher.wait_for("patch", version=3)
    await one.play(3)
    await two.play(3)
    await one.assert_log_holds_every_ack(api)
    await two.assert_log_holds_every_ack(api)
    no_tracebacks(server)
