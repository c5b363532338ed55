"""REST inspection: list and filter, one match, its NDJSON log, its state at any version."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from tests.app.support import Api, Client, Server


async def play_tally(
    api: Api, server: Server, target: int, rated: bool = False
) -> tuple[int, list[str], Client, Client]:
    tokens = [await api.guest("p0"), await api.guest("p1")]
    options = {"target": target, "secrets": True}
    if rated:  # api.table raises casual tables only
        body = {"game": "tally", "seats": 2, "options": options, "rated": True}
        lobby = await api.ok("/api/lobbies", tokens[0], body)
        await api.ok(f"/api/lobbies/{lobby['id']}/join", tokens[1])
        match_id = int((await api.ok(f"/api/lobbies/{lobby['id']}/start", tokens[0]))["match_id"])
    else:
        match_id = await api.table("tally", tokens, options=options)
    clients = [await Client(server, match_id, t).connect() for t in tokens]
    return match_id, tokens, clients[0], clients[1]


async def test_running_log_is_redacted_and_finished_log_complete(
    api: Api, shared_server: Server
) -> None:
    match_id, tokens, ann, bob = await play_tally(api, shared_server, target=2)
    await ann.act({"type": "move", "cell": 0})
    await bob.wait_for("patch", version=1)
    running = (await api.get(f"/api/matches/{match_id}/events", tokens[1])).text.splitlines()
    head, first = json.loads(running[0]), json.loads(running[1])
    assert "seed" not in head and "options" not in head
    assert "action" not in first  # ann's action, shown to bob
    assert first["events"] == [
        {"type": "moved", "seat": 0, "cell": 0, "n": 1},
        {"type": "drew", "seat": 0},
    ]
    state = (await api.get(f"/api/matches/{match_id}/state", tokens[1], version=1)).json()
    assert "state" not in state and state["view"]["secret"] == bob.view["secret"]  # type: ignore[index]
    for seat, client, cell in ((1, bob, 8), (0, ann, 14)):
        await client.wait_until(lambda c: c.legal and c.legal[0]["type"] == "move")
        seq = await client.act({"type": "move", "cell": cell})
        await client.wait_for("ack", client_seq=seq)
        assert seat in (0, 1)
    await ann.wait_until(lambda c: c.view["outcome"] is not None)
    finished = [
        json.loads(line)
        for line in (await api.get(f"/api/matches/{match_id}/events")).text.splitlines()
    ]
    assert finished[0]["seed"] and finished[0]["options"]["secrets"] is True
    assert finished[1]["action"] == {"type": "move", "cell": 0}
    assert finished[1]["events"][1]["visible_to"] == [0] and "secret" in finished[1]["events"][1]
    at_two = (await api.get(f"/api/matches/{match_id}/state", version=2)).json()
    assert at_two["version"] == 2 and at_two["view"]["n"] == 2 and at_two["state"]["n"] == 2
    missing = await api.get(f"/api/matches/{match_id}/state", version=99)
    assert missing.json()["error"]["code"] == "match/no_version"


async def test_match_page_lists_seats_result_and_ledger(api: Api, shared_server: Server) -> None:
    match_id, tokens, ann, _bob = await play_tally(api, shared_server, target=1, rated=True)
    await ann.act({"type": "move", "cell": 0})
    await ann.wait_until(lambda c: c.view["outcome"] is not None)
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["status"] == "finished" and match["result"]["placings"] == [[0], [1]]
    assert [s["ledger_delta"] for s in match["seats"]] == [
        match["ledger"]["0"],
        match["ledger"]["1"],
    ]
    assert sum(match["ledger"].values()) == 0
    me = (await api.get("/api/accounts/me", tokens[1])).json()["id"]
    mine = (await api.get("/api/matches", player=me)).json()
    assert [m["id"] for m in mine["matches"]] == [match_id]
    finished = (await api.get("/api/matches", game="tally", status="finished")).json()
    assert match_id in [m["id"] for m in finished["matches"]]
    future = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    assert (await api.get("/api/matches", since=future)).json()["total"] == 0
    unknown = await api.get("/api/matches", game="nothing")
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "request/invalid"
    missing = await api.get("/api/matches/987654")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "match/not_found"


async def test_one_process_names_no_node_for_a_match_socket(api: Api) -> None:
    route = await api.get("/api/matches/12345/route")
    assert route.status_code == 200
    assert route.json() == {"match_id": 12345, "node": None}
