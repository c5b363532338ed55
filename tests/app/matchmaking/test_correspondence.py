"""Correspondence quick play: a days-per-move ticket meets only tickets of the same days,
and Ambush! is refused."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.app.support import Api


async def ticket(api: Api, token: str, control: dict[str, Any]) -> dict[str, Any]:
    body = {"game": "rampage", "seats": 2, "rated": True, "time_control": control}
    reply = await api.post("/api/queue", token, body)
    assert reply.status_code == 202, reply.text
    data: dict[str, Any] = reply.json()
    return data


async def state(api: Api, token: str, ticket_id: str) -> dict[str, Any]:
    data: dict[str, Any] = (await api.get(f"/api/queue/{ticket_id}", token)).json()
    return data


async def test_days_per_move_tickets_meet_only_their_own_days(api: Api) -> None:
    names = ("three a", "three b", "five", "realtime")
    tokens = [await api.guest(name) for name in names]
    controls = [{"days_per_move": 3}, {"days_per_move": 3}, {"days_per_move": 5}, {}]
    tickets = [await ticket(api, t, c) for t, c in zip(tokens, controls, strict=True)]
    for _ in range(100):
        first = await state(api, tokens[0], tickets[0]["ticket"])
        if first["status"] == "matched":
            break
        await asyncio.sleep(0.05)
    second = await state(api, tokens[1], tickets[1]["ticket"])
    assert first["status"] == second["status"] == "matched"
    assert first["match_id"] == second["match_id"]
    match = (await api.get(f"/api/matches/{first['match_id']}")).json()
    assert match["time_control"] == {"days_per_move": 3} and match["rated"] is True
    await asyncio.sleep(1.5)  # several pairing rounds: the other two never meet each other
    for token, waiting in zip(tokens[2:], tickets[2:], strict=True):
        assert (await state(api, token, waiting["ticket"]))["status"] == "waiting"


async def test_an_ambush_ticket_is_real_time_only(api: Api) -> None:
    token = await api.guest("grabber")
    body = {"game": "ambush", "seats": 2, "time_control": {"days_per_move": 1}}
    reply = await api.post("/api/queue", token, body)
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["code"] == "queue/realtime_only"
    assert "grab races need everyone at the table at once" in error["message"]
