"""Correspondence tournaments (days per move): each round starts when the last match of the one
before ends, nobody forfeits for not showing up, results go to the correspondence ladder, and
Ambush! is refused."""

from __future__ import annotations

import asyncio
from datetime import datetime
from itertools import pairwise

from tests.app.support import Api
from tests.app.tournaments.test_tournament_server import code, new_tournament, wait_finished

DAYS = {"days_per_move": 2}


async def test_a_correspondence_swiss_runs_round_after_round_to_its_end(rest: Api) -> None:
    organiser = await rest.guest("postmaster")
    tid = await new_tournament(rest, organiser, rounds=3, time_control=DAYS)
    for level in ("normal", "hard"):
        bots = {"kind": "heuristic", "count": 2, "difficulty": level}
        await rest.ok(f"/api/tournaments/{tid}/bots", organiser, bots)
    started = await rest.ok(f"/api/tournaments/{tid}/start", organiser)
    assert started["time_control"] == DAYS
    final = await wait_finished(rest, tid)
    assert final["current_round"] == 3
    rounds = (await rest.get(f"/api/tournaments/{tid}/rounds")).json()
    spans = []
    for round_info in rounds:
        matches = [
            (await rest.get(f"/api/matches/{table['match_id']}")).json()
            for table in round_info["pairings"]
        ]
        assert all(m["time_control"] == DAYS and m["status"] == "finished" for m in matches)
        starts = [datetime.fromisoformat(m["started_at"]) for m in matches]
        ends = [datetime.fromisoformat(m["ended_at"]) for m in matches]
        spans.append((min(starts), max(ends)))
    for (_, last_end), (next_start, _) in pairwise(spans):
        assert next_start >= last_end, "a round starts only once every match of the last ended"

    # Its rated matches moved the game's correspondence ladder, not the real-time one.
    by_pool = {}
    for pool in ("realtime", "correspondence"):
        listed = (await rest.get("/api/ladders", game="rampage", pool=pool)).json()
        (ladder,) = [lad for lad in listed if lad["kind"] == "game"]
        assert ladder["pool"] == pool
        by_pool[pool] = (await rest.get(f"/api/ladders/{ladder['id']}/entries")).json()
    assert by_pool["realtime"] == []
    played = {row["bot"]: row["played"] for row in by_pool["correspondence"]}
    assert set(played) == {"heuristic:normal", "heuristic:hard"} and sum(played.values()) > 0


async def test_nobody_forfeits_a_correspondence_table_for_not_showing_up(rest: Api) -> None:
    organiser, absent = await rest.guest("clerk"), await rest.guest("away")
    tid = await new_tournament(
        rest, organiser, format="round_robin", time_control={"days_per_move": 1}
    )
    await rest.ok(f"/api/tournaments/{tid}/register", absent)
    await rest.ok(f"/api/tournaments/{tid}/bots", organiser, {"kind": "heuristic"})
    await rest.ok(f"/api/tournaments/{tid}/start", organiser)
    # Match time runs 1000x here: a second is far past the 60 s grace a real-time table
    # gives a player who never comes, and far short of his day to move.
    await asyncio.sleep(1.5)
    ((table,),) = [r["pairings"] for r in (await rest.get(f"/api/tournaments/{tid}/rounds")).json()]
    match = (await rest.get(f"/api/matches/{table['match_id']}")).json()
    assert match["status"] == "running" and not match.get("forfeits")
    shown = (await rest.get(f"/api/tournaments/{tid}")).json()
    assert all(e["status"] == "active" for e in shown["entries"])


async def test_an_ambush_tournament_is_real_time_only(rest: Api) -> None:
    organiser = await rest.guest("racer")
    body = {"game": "ambush", "format": "swiss", "table_size": 3, "time_control": DAYS}
    reply = await rest.post("/api/tournaments", organiser, body)
    assert reply.status_code == 422 and code(reply) == "tournament/realtime_only"
    assert "grab races need everyone at the table at once" in reply.json()["error"]["message"]
