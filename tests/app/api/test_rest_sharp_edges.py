"""REST edges a client would trip on: another's seat, a casual match's ledger, a filter value
that names nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.app.support import Api, Client, Server, app_command


async def tally_match(api: Api, server: Server, names: tuple[str, str], **lobby: Any) -> list[Any]:
    """A two-seat tally table to 1 point, played to its end: [match id, token 0, token 1]."""
    tokens = [await api.guest(names[0]), await api.guest(names[1])]
    body = {"game": "tally", "seats": 2, "options": {"target": 1}, **lobby}
    table = await api.ok("/api/lobbies", tokens[0], body)
    await api.ok(f"/api/lobbies/{table['id']}/join", tokens[1])
    match_id = (await api.ok(f"/api/lobbies/{table['id']}/start", tokens[0]))["match_id"]
    first = await Client(server, match_id, tokens[0]).connect()
    await first.act({"type": "move", "cell": 0})
    for _ in range(200):
        if (await api.get(f"/api/matches/{match_id}")).json()["status"] != "running":
            break
        await asyncio.sleep(0.05)
    return [match_id, *tokens]


async def test_a_seat_the_caller_does_not_hold_is_refused(api: Api, shared_server: Server) -> None:
    ann, bob = await api.guest("seat-ann"), await api.guest("seat-bob")
    watcher = await api.guest("seat-watcher")
    match_id = await api.table("tally", [ann, bob], options={"target": 5, "secrets": True})
    for path in (f"/api/matches/{match_id}/state", f"/api/matches/{match_id}/events"):
        for token in (bob, watcher, None):
            reply = await api.get(path, token, seat=0)
            assert reply.status_code == 403, (path, token, reply.text)
            assert reply.json()["error"]["code"] == "match/not_your_seat"
        assert (await api.get(path, ann, seat=0)).status_code == 200
    mine = (await api.get(f"/api/matches/{match_id}/state", bob, seat=1)).json()
    assert mine["seat"] == 1
    spectator = (await api.get(f"/api/matches/{match_id}/state", watcher)).json()
    assert spectator["seat"] is None


async def test_a_casual_match_carries_no_ledger(api: Api, shared_server: Server) -> None:
    casual, ann, _bob = await tally_match(api, shared_server, ("casual-ann", "casual-bob"))
    rated, *_ = await tally_match(api, shared_server, ("rated-ann", "rated-bob"), rated=True)
    shown = (await api.get(f"/api/matches/{casual}")).json()
    assert shown["status"] == "finished" and shown["rated"] is False
    assert shown["result"]["placings"] == [[0], [1]]
    assert shown["ledger"] is None
    assert [s["ledger_delta"] for s in shown["seats"]] == [None, None]
    listed = (await api.get("/api/matches", game="tally", status="finished")).json()
    (row,) = [m for m in listed["matches"] if m["id"] == casual]
    assert row["ledger"] is None and {s["ledger_delta"] for s in row["seats"]} == {None}
    head = (await api.get(f"/api/matches/{casual}/events")).text.splitlines()[0]
    assert '"ledger_delta":null' in head.replace(" ", "")
    me = (await api.get("/api/accounts/me", ann)).json()["id"]
    profile = (await api.get(f"/api/players/{me}")).json()
    (recent,) = [m for m in profile["matches"] if m["id"] == casual]
    assert recent["ledger_delta"] is None
    # A rated match still shows its ledger, zero-sum, on the match and its seats.
    settled = (await api.get(f"/api/matches/{rated}")).json()
    assert settled["ledger"] is not None and sum(settled["ledger"].values()) == 0
    assert [s["ledger_delta"] for s in settled["seats"]] == [
        settled["ledger"]["0"],
        settled["ledger"]["1"],
    ]
    assert settled["seats"][0]["ledger_delta"] > 0


@pytest.mark.parametrize(
    ("path", "params", "allowed"),
    [
        ("/api/matches", {"status": "bogus"}, "'running', 'finished', 'aborted' or 'voided'"),
        ("/api/matches", {"game": "bogus"}, "ambush, rampage, castles, ember"),
        ("/api/tournaments", {"status": "bogus"}, "'draft', 'registration', 'running' or"),
        ("/api/tournaments", {"game": "bogus"}, "ambush, rampage, castles, ember"),
        ("/api/ladders", {"game": "bogus"}, "ambush, rampage, castles, ember"),
        ("/api/lobbies", {"game": "bogus"}, "ambush, rampage, castles, ember"),
    ],
)
async def test_a_filter_value_that_names_nothing_is_refused(
    api: Api, path: str, params: dict[str, str], allowed: str
) -> None:
    reply = await api.get(path, **params)
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["code"] == "request/invalid"
    assert allowed in error["details"][0]["msg"], error
    (name,) = params
    assert error["details"][0]["loc"] == ["query", name]


async def test_the_filters_list_their_values_in_the_openapi_document(api: Api) -> None:
    document = (await api.get("/openapi.json")).json()
    parameters = {
        (path, p["name"]): p["schema"]
        for path in ("/api/matches", "/api/tournaments", "/api/ladders")
        for p in document["paths"][path]["get"]["parameters"]
    }
    assert {"ambush", "rampage", "castles", "ember"} <= set(
        parameters["/api/matches", "game"]["enum"]
    )
    statuses = parameters["/api/matches", "status"]["anyOf"][0]["enum"]
    assert statuses == ["running", "finished", "aborted", "voided"]
    tournament = parameters["/api/tournaments", "status"]["anyOf"][0]["enum"]
    assert tournament == ["draft", "registration", "running", "finished"]
    assert "enum" in parameters["/api/ladders", "game"]


async def test_the_audit_log_refuses_an_action_it_never_records(
    api: Api, shared_server: Server
) -> None:
    token = await api.guest("audit-admin")
    name = (await api.get("/api/accounts/me", token)).json()["name"]
    granted = app_command(shared_server.database_url, "admin", "grant", name)
    assert granted.returncode == 0, granted.stderr
    bogus = await api.get("/api/admin/audit", token, action="bogus")
    assert bogus.status_code == 422, bogus.text
    assert "'grant_admin'" in bogus.json()["error"]["details"][0]["msg"]
    grants = (await api.get("/api/admin/audit", token, action="grant_admin")).json()
    assert any(a["detail"].get("name") == name for a in grants["actions"])
