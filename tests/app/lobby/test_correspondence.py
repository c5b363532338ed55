"""Correspondence tables in ``POST /api/lobbies``: days per move from a fixed list, alone,
never for Ambush!; the match runs a day clock and forgives being away."""

from __future__ import annotations

import asyncio
import time

import pytest

from app.sessions.timecontrol import DAY_MS
from tests.app.support import Api, Client, Server


def table(game: str, control: object, seats: int = 2) -> dict[str, object]:
    return {"game": game, "seats": seats, "time_control": control}


async def test_a_rampage_table_takes_days_per_move(api: Api) -> None:
    token = await api.guest("postal")
    lobby = await api.ok("/api/lobbies", token, table("rampage", {"days_per_move": 3}))
    assert lobby["time_control"] == {"days_per_move": 3}
    shown = (await api.get(f"/api/lobbies/{lobby['id']}", token)).json()
    assert shown["time_control"] == {"days_per_move": 3}


@pytest.mark.parametrize(
    "control",
    [
        {"days_per_move": 4},
        {"days_per_move": 0},
        {"days_per_move": "3"},
        {"days_per_move": 30},
        {"days_per_move": 3, "turn_ms": 60_000},
        {"days_per_move": 3, "match_ms": 60_000},
        {"days_per_move": 3, "grace_ms": 0},
        {"days_per_move": 3, "on_timeout": "pass"},
    ],
)
async def test_other_days_or_days_with_real_time_clocks_are_refused(
    api: Api, control: dict[str, object]
) -> None:
    token = await api.guest("postal")
    reply = await api.post("/api/lobbies", token, table("rampage", control))
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["code"] == "request/invalid"
    assert any("days_per_move" in d["loc"] or "days_per_move" in d["msg"] for d in error["details"])


async def test_ambush_is_real_time_only(api: Api) -> None:
    token = await api.guest("racer")
    reply = await api.post("/api/lobbies", token, table("ambush", {"days_per_move": 1}, 3))
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["code"] == "lobby/realtime_only"
    assert "grab races need everyone at the table at once" in error["message"]
    # The same game with a real-time clock is welcome.
    await api.ok("/api/lobbies", token, table("ambush", {"turn_ms": 30_000}, 3))


async def test_a_correspondence_match_runs_a_day_clock_and_nobody_forfeits_for_being_away(
    api: Api, shared_server: Server
) -> None:
    tokens = [await api.guest("early"), await api.guest("late")]
    match_id = await api.table(
        "tally", tokens, options={"target": 5}, time_control={"days_per_move": 1}
    )
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["time_control"] == {"days_per_move": 1}
    ann = await Client(shared_server, match_id, tokens[0]).connect()
    clock = await ann.wait_for("clock")
    assert clock["turn_ms"] == DAY_MS and set(clock["deadlines"]) == {"0"}
    assert clock["deadlines"]["0"] - clock["now_ms"] > DAY_MS - 60_000
    mine = (await api.get("/api/accounts/me/matches", tokens[0])).json()["matches"]
    deadline_ms = next(m["deadline_ms"] for m in mine if m["match_id"] == match_id)
    # Match time runs 20x faster in these servers: a day of it is 72 minutes of wall time.
    assert abs(deadline_ms - (time.time() * 1000 + DAY_MS / 20)) < 120_000
    seq = await ann.act({"type": "move", "cell": 0})
    await ann.wait_for("ack", client_seq=seq)
    # Bob never connects: past the server's grace (60 s of match time, 3 s here) his seat
    # would forfeit at a real-time table.
    await asyncio.sleep(3.5)
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["status"] == "running" and not match.get("forfeits")


async def test_the_openapi_document_types_days_per_move(api: Api) -> None:
    schema = (await api.get("/openapi.json")).json()["components"]["schemas"]["TimeControlIn"]
    (days,) = [s for s in schema["properties"]["days_per_move"]["anyOf"] if "enum" in s]
    assert days["enum"] == [1, 2, 3, 5, 7, 14]
    # With days per move, no real-time clock field may be sent (the schema says so too).
    assert schema["if"]["required"] == ["days_per_move"]
    assert schema["then"]["properties"] == dict.fromkeys(
        ["turn_ms", "match_ms", "on_timeout", "grace_ms"], False
    )


async def test_the_games_list_says_which_games_take_days_per_move(api: Api) -> None:
    listed = {g["id"]: g["correspondence"] for g in (await api.get("/api/games")).json()}
    assert listed["ambush"] is False
    assert listed["rampage"] is listed["castles"] is listed["ember"] is True
    assert (await api.get("/api/games/ember")).json()["correspondence"] is True
