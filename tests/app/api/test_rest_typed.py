"""The REST reads encoded without their response model at run time (``encoded``) hold to it:
a match's state, the match list, tournament rounds, tables and standings, a leaderboard,
read from a real server after a bot tournament and during a match against a bot."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import TypeAdapter

from app.api.responses.ladders import LadderEntryOut
from app.api.responses.matches import MatchList, StateOut
from app.api.responses.tournaments import RoundOut, StandingOut, TableOut
from tests.app.support import Api


def holds(model: Any, body: Any) -> None:
    """``body`` validates against ``model`` and dumps back to itself: nothing undocumented."""
    adapter = TypeAdapter(model)
    parsed = adapter.validate_python(body)
    assert adapter.dump_python(parsed, mode="json", exclude_unset=True) == body


async def test_hot_reads_hold_to_their_models(rest: Api) -> None:
    organiser = await rest.guest("typed organiser")
    body = {"game": "rampage", "format": "swiss", "rounds": 1}
    tid = (await rest.ok("/api/tournaments", organiser, body))["id"]
    await rest.ok(f"/api/tournaments/{tid}/open", organiser)
    # Two levels: one level alone at a table plays itself and moves no ladder.
    for level in ("normal", "hard"):
        bot = {"kind": "heuristic", "count": 1, "difficulty": level}
        await rest.ok(f"/api/tournaments/{tid}/bots", organiser, bot)
    await rest.ok(f"/api/tournaments/{tid}/start", organiser)
    for _ in range(1200):  # a bot duel at 1000x takes under a second, far more on a busy CI
        if (await rest.get(f"/api/tournaments/{tid}")).json()["status"] == "finished":
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the tournament did not finish")
    rounds = (await rest.get(f"/api/tournaments/{tid}/rounds")).json()
    holds(list[RoundOut], rounds)
    holds(list[TableOut], (await rest.get(f"/api/tournaments/{tid}/rounds/1/pairings")).json())
    holds(list[StandingOut], (await rest.get(f"/api/tournaments/{tid}/standings")).json())
    ladders = (await rest.get("/api/ladders", game="rampage")).json()
    (ladder,) = [lad for lad in ladders if lad["kind"] == "game"]
    for _ in range(100):  # the ladder moves in the background once the match is recorded
        board = (await rest.get(f"/api/ladders/{ladder['id']}/entries")).json()
        if board:
            break
        await asyncio.sleep(0.1)
    assert board
    holds(list[LadderEntryOut], board)

    match_id = rounds[0]["pairings"][0]["match_id"]
    finished = (await rest.get(f"/api/matches/{match_id}/state")).json()
    assert finished["view"]["outcome"] is not None and "state" in finished
    holds(StateOut, finished)
    holds(StateOut, (await rest.get(f"/api/matches/{match_id}/state", version=3)).json())

    # A running match against a bot: the player's view and a spectator's.
    player = await rest.guest("typed player")
    table = await rest.ok("/api/lobbies", player, {"game": "ember", "seats": 2})
    await rest.ok(f"/api/lobbies/{table['id']}/bots", player, {"kind": "heuristic"})
    running = (await rest.ok(f"/api/lobbies/{table['id']}/start", player))["match_id"]
    mine = (await rest.get(f"/api/matches/{running}/state", player)).json()
    assert mine["seat"] == 0 and mine["view"]["you"] == 0 and "hand" in mine["view"]
    holds(StateOut, mine)
    holds(StateOut, (await rest.get(f"/api/matches/{running}/state")).json())
    listed = (await rest.get("/api/matches", limit=200)).json()
    assert {m["status"] for m in listed["matches"]} >= {"running", "finished"}
    holds(MatchList, listed)
