"""Time controls: a seat out of time is auto-passed or forfeits; a seat gone past the grace
period forfeits. Match time runs 20x faster than wall time in these servers."""

from __future__ import annotations

import json

from tests.app.support import Api, Client, Server


async def log_rows(api: Api, match_id: int) -> list[dict[str, object]]:
    reply = await api.get(f"/api/matches/{match_id}/events")
    return [json.loads(line) for line in reply.text.splitlines()[1:]]


async def test_out_of_time_seat_gets_its_default_action(api: Api, shared_server: Server) -> None:
    tokens = [await api.guest("slow"), await api.guest("slower")]
    control = {"turn_ms": 2000, "on_timeout": "pass", "grace_ms": 0}
    match_id = await api.table("tally", tokens, options={"target": 2}, time_control=control)
    ann = await Client(shared_server, match_id, tokens[0]).connect()
    clock = await ann.wait_for("clock")
    # Under load seat 0 may already have timed out when we connect: some seat's clock runs.
    assert clock["turn_ms"] == 2000 and clock["deadlines"]
    await ann.wait_until(lambda c: c.view["outcome"] is not None, timeout=10)
    rows = await log_rows(api, match_id)
    assert [row["cause"] for row in rows] == ["timeout"] * 3
    assert all(row["at_ms"] >= 2000 for row in rows)


async def test_out_of_time_seat_forfeits_when_the_table_says_so(
    api: Api, shared_server: Server
) -> None:
    tokens = [await api.guest("a"), await api.guest("b")]
    control = {"turn_ms": 2000, "on_timeout": "forfeit", "grace_ms": 0}
    match_id = await api.table(
        "tally", tokens, options={"target": 5}, time_control=control, rated=True
    )
    ann = await Client(shared_server, match_id, tokens[0]).connect()
    await ann.wait_until(lambda c: c.view["outcome"] is not None, timeout=10)
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["forfeits"] == {"0": "time"}
    # A forfeit counts as a destroyed castle in the ledger: 100 - d(winner) = 100.
    assert match["ledger"] == {"0": -100, "1": 100}
    assert (await log_rows(api, match_id))[0]["cause"] == "forfeit_time"


async def test_seat_disconnected_past_grace_forfeits(api: Api, shared_server: Server) -> None:
    tokens = [await api.guest("here"), await api.guest("gone")]
    control = {"grace_ms": 4000}
    match_id = await api.table("tally", tokens, options={"target": 5}, time_control=control)
    ann = await Client(shared_server, match_id, tokens[0]).connect()
    bob = await Client(shared_server, match_id, tokens[1]).connect()
    await bob.close()  # bob leaves; ann stays
    await ann.wait_until(lambda c: c.view["outcome"] is not None, timeout=10)
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["forfeits"] == {"1": "abandoned"}
    assert match["result"]["placings"][0] == [0]


async def test_reconnecting_within_grace_keeps_the_seat(api: Api, shared_server: Server) -> None:
    tokens = [await api.guest("x"), await api.guest("y")]
    match_id = await api.table(
        "tally", tokens, options={"target": 5}, time_control={"grace_ms": 20_000}
    )
    ann = await Client(shared_server, match_id, tokens[0]).connect()
    bob = await Client(shared_server, match_id, tokens[1]).connect()
    await bob.close()
    bob = await Client(shared_server, match_id, tokens[1]).connect(last_version=0)
    seq = await ann.act({"type": "move", "cell": 0})
    await ann.wait_for("ack", client_seq=seq)
    patch = await bob.wait_for("patch", version=1)
    assert patch["view"]["outcome"] is None


async def test_a_match_bank_runs_out_across_turns(api: Api, shared_server: Server) -> None:
    tokens = [await api.guest("bank"), await api.guest("vault")]
    control = {"turn_ms": 100_000, "match_ms": 3000, "on_timeout": "forfeit", "grace_ms": 0}
    match_id = await api.table("tally", tokens, options={"target": 50}, time_control=control)
    ann = await Client(shared_server, match_id, tokens[0]).connect()
    bob = await Client(shared_server, match_id, tokens[1]).connect()
    clock = await ann.wait_for("clock")
    assert clock["banks"]["1"] == 3000 and 0 < clock["banks"]["0"] <= 3000
    # Bob answers at once every time; ann never moves and loses on her bank, not the turn clock.
    await ann.wait_until(lambda c: c.view["outcome"] is not None, timeout=10)
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["forfeits"] == {"0": "time"}
    assert bob.view is not None
