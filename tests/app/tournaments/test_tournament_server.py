"""Tournaments and ladders through a real server: an 8-bot Swiss to its final standings, a no-show,
elimination with byes, the REST refusals, ladders, and players' profiles."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from tests.app.support import PG_URL, Api, Client, Server

ServerFactory = Callable[..., Server]

GAME = "rampage"  # the shortest duels among the engines' bot games


async def wait_finished(rest: Api, tid: int, timeout: float = 120) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        tournament = (await rest.get(f"/api/tournaments/{tid}")).json()
        if tournament["status"] == "finished":
            return dict(tournament)
        assert asyncio.get_running_loop().time() < deadline, tournament
        await asyncio.sleep(0.25)


async def new_tournament(rest: Api, token: str, **fields: Any) -> int:
    body = {"game": GAME, "format": "swiss", **fields}
    created = await rest.ok("/api/tournaments", token, body)
    assert created["status"] == "draft"
    opened = await rest.ok(f"/api/tournaments/{created['id']}/open", token)
    assert opened["status"] == "registration"
    return int(created["id"])


BOT_FIELD = [("heuristic", "easy"), ("heuristic", "normal"), ("heuristic", "hard")]
BOT_FIELD += [("random", "easy"), ("random", "normal")]


def code(reply: Any) -> str:
    return str(reply.json()["error"]["code"])


async def test_eight_bot_swiss_runs_through_the_server_to_final_standings(
    rest: Api, fast_server: Server
) -> None:
    await eight_bot_swiss(rest, fast_server)


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="RAMPART_TEST_PG_URL is not set")
async def test_eight_bot_swiss_on_postgresql(make_server: ServerFactory) -> None:
    """The same tournament on PostgreSQL, where writes run through ``AsyncSession.run_sync``."""
    server = make_server("postgres", RAMPART_CLOCK_RATE="1000")
    rest = Api(server)
    try:
        await eight_bot_swiss(rest, server)
    finally:
        await rest.close()


async def eight_bot_swiss(rest: Api, fast_server: Server) -> None:
    """Eight heuristic bots (four normal, four hard), three Swiss rounds, to final standings;
    checked on the way."""
    organiser = await rest.guest("organiser")
    tid = await new_tournament(rest, organiser, name="Bot Swiss", rounds=3)
    for level in ("normal", "hard"):
        bots = {"kind": "heuristic", "count": 4, "difficulty": level}
        await rest.ok(f"/api/tournaments/{tid}/bots", organiser, bots)
    feed = await websockets.connect(f"{fast_server.ws}/ws/lobby")
    await feed.send(json.dumps({"type": "hello"}))  # else closed after RAMPART_HELLO_TIMEOUT_S
    pushed: list[dict[str, Any]] = []

    async def listen() -> None:
        async for raw in feed:
            message = json.loads(raw)
            if message["type"] == "tournament" and message["tournament"]["id"] == tid:
                pushed.append(message)

    listener = asyncio.create_task(listen())
    try:
        started = await rest.ok(f"/api/tournaments/{tid}/start", organiser)
        assert started["status"] == "running" and started["rounds"] == 3
        assert sorted(e["seed"] for e in started["entries"]) == list(range(1, 9))
        final = await wait_finished(rest, tid)
        await asyncio.sleep(0.3)
    finally:
        listener.cancel()
        await feed.close()
    assert final["current_round"] == 3

    rounds = (await rest.get(f"/api/tournaments/{tid}/rounds")).json()
    assert [r["number"] for r in rounds] == [1, 2, 3]
    met: set[frozenset[int]] = set()
    running: dict[int, int] = {}
    for round_info in rounds:
        assert round_info["status"] == "finished" and round_info["byes"] == []
        assert len(round_info["pairings"]) == 4
        for table in round_info["pairings"]:
            pair = frozenset(table["entries"])
            assert pair not in met, "no repeat pairing while avoidable"
            met.add(pair)
            assert table["status"] == "finished" and table["match_id"]
            for entry, change in table["changes"].items():
                running[int(entry)] = running.get(int(entry), 0) + change
        assert sum(running.values()) == 0, "the ledger stays zero-sum after every round"
    second = (await rest.get(f"/api/tournaments/{tid}/rounds/2/pairings")).json()
    assert second == rounds[1]["pairings"]

    standings = (await rest.get(f"/api/tournaments/{tid}/standings")).json()
    assert len(standings) == 8
    assert sum(s["points"] - 1500 for s in standings) == 0
    assert [s["points"] for s in standings] == sorted(
        (s["points"] for s in standings), reverse=True
    )
    assert {s["entry_id"]: s["points"] - 1500 for s in standings} == running
    assert all(s["played"] == 3 for s in standings)
    assert {"buchholz", "sonneborn_berger", "head_to_head", "rank"} <= set(standings[0])

    # Standings went out live on the lobby feed, the last one final.
    assert pushed and pushed[-1]["tournament"]["status"] == "finished"
    assert pushed[-1]["standings"] == standings

    # Every match was rated, and each level is a ladder player of its own: the matches between
    # the levels moved both entries alike; a level against itself moved nothing.
    ladders = (await rest.get("/api/ladders", game=GAME)).json()
    (ladder,) = [lad for lad in ladders if lad["kind"] == "game"]
    board = (await rest.get(f"/api/ladders/{ladder['id']}/entries")).json()
    entries = {row["bot"]: row for row in board if row["bot"]}
    normal, hard = entries["heuristic:normal"], entries["heuristic:hard"]
    assert (normal["name"], hard["name"]) == ("Heuristic bot (normal)", "Heuristic bot (hard)")
    assert 1 <= normal["played"] == hard["played"] <= 12
    assert "glicko2" in hard["ratings"] and normal["points"] + hard["points"] == 3000


async def test_a_no_show_forfeits_and_is_withdrawn_from_later_rounds(rest: Api) -> None:
    organiser = await rest.guest("host")
    absent = await rest.guest("absent")
    tid = await new_tournament(rest, organiser, rounds=2, time_control={"grace_ms": 2000})
    await rest.ok(f"/api/tournaments/{tid}/register", absent)
    await rest.ok(f"/api/tournaments/{tid}/bots", organiser, {"kind": "heuristic", "count": 3})
    await rest.ok(f"/api/tournaments/{tid}/start", organiser)
    final = await wait_finished(rest, tid)
    (entry,) = [e for e in final["entries"] if e["bot"] is None]
    assert entry["status"] == "withdrawn" and entry["withdrawn_round"] == 1
    rounds = (await rest.get(f"/api/tournaments/{tid}/rounds")).json()
    (first_table,) = [t for t in rounds[0]["pairings"] if entry["id"] in t["entries"]]
    assert first_table["forfeited"] == [entry["id"]]
    assert first_table["changes"][str(entry["id"])] <= -50  # forfeit = a destroyed castle
    assert all(entry["id"] not in t["entries"] for t in rounds[1]["pairings"])
    assert len(rounds[1]["byes"]) == 1  # three players left: one sits out


async def test_a_time_out_forfeits_the_match_but_keeps_the_player_in(rest: Api) -> None:
    organiser, sleeper = await rest.guest("timekeeper"), await rest.guest("sleeper")
    # Long enough for the bot's 1-3 s thinking, far too short for a player who never comes.
    control = {"turn_ms": 15_000, "on_timeout": "forfeit", "grace_ms": 3_600_000}
    tid = await new_tournament(rest, organiser, rounds=1, time_control=control)
    await rest.ok(f"/api/tournaments/{tid}/register", sleeper)
    await rest.ok(f"/api/tournaments/{tid}/bots", organiser, {"kind": "heuristic"})
    await rest.ok(f"/api/tournaments/{tid}/start", organiser)
    final = await wait_finished(rest, tid)
    (entry,) = [e for e in final["entries"] if e["bot"] is None]
    assert entry["status"] == "active"  # only abandonment withdraws a player
    ((table,),) = [r["pairings"] for r in (await rest.get(f"/api/tournaments/{tid}/rounds")).json()]
    assert table["forfeited"] == [entry["id"]]
    assert table["changes"][str(entry["id"])] <= -50  # a forfeit is a destroyed castle


async def test_a_casual_tournament_keeps_its_ledger_while_its_matches_show_none(
    rest: Api,
) -> None:
    """The tournament's standings settle its own 1500-point ledger from each outcome; its
    casual matches show no ledger of their own (no ladder moves)."""
    organiser = await rest.guest("casual organiser")
    tid = await new_tournament(rest, organiser, rounds=1, rated=False)
    await rest.ok(f"/api/tournaments/{tid}/bots", organiser, {"kind": "heuristic", "count": 2})
    await rest.ok(f"/api/tournaments/{tid}/start", organiser)
    await wait_finished(rest, tid)
    ((table,),) = [r["pairings"] for r in (await rest.get(f"/api/tournaments/{tid}/rounds")).json()]
    assert sum(table["changes"].values()) == 0 and any(table["changes"].values())
    standings = (await rest.get(f"/api/tournaments/{tid}/standings")).json()
    assert {s["entry_id"]: s["points"] - 1500 for s in standings} == {
        int(entry): change for entry, change in table["changes"].items()
    }
    match = (await rest.get(f"/api/matches/{table['match_id']}")).json()
    assert match["rated"] is False and match["ledger"] is None
    assert [s["ledger_delta"] for s in match["seats"]] == [None, None]


async def test_single_elimination_gives_byes_to_the_top_seeds(rest: Api) -> None:
    organiser = await rest.guest("referee")
    created = await rest.ok(
        "/api/tournaments", organiser, {"game": GAME, "format": "single_elimination"}
    )
    tid = created["id"]
    await rest.ok(f"/api/tournaments/{tid}/open", organiser)
    await rest.ok(f"/api/tournaments/{tid}/bots", organiser, {"kind": "heuristic", "count": 5})
    started = await rest.ok(f"/api/tournaments/{tid}/start", organiser)
    assert started["rounds"] == 3
    await wait_finished(rest, tid)
    rounds = (await rest.get(f"/api/tournaments/{tid}/rounds")).json()
    seeds = {e["id"]: e["seed"] for e in started["entries"]}
    assert sorted(seeds[e] for e in rounds[0]["byes"]) == [1, 2, 3]
    assert [len(r["pairings"]) for r in rounds] == [1, 2, 1]


async def test_rest_refusals_carry_stable_codes(rest: Api) -> None:
    organiser, other = await rest.guest("boss"), await rest.guest("other")
    bad = await rest.post("/api/tournaments", organiser, {"game": "nope", "format": "swiss"})
    assert bad.status_code == 404 and code(bad) == "tournament/unknown_game"
    bad = await rest.post(
        "/api/tournaments", organiser, {"game": GAME, "format": "swiss", "table_size": 4}
    )
    assert code(bad) == "tournament/bad_table_size"
    created = await rest.ok("/api/tournaments", organiser, {"game": GAME, "format": "swiss"})
    tid = created["id"]
    assert code(await rest.post(f"/api/tournaments/{tid}/register", other)) == (
        "tournament/registration_closed"
    )
    assert (
        code(await rest.post(f"/api/tournaments/{tid}/start", organiser)) == "tournament/not_open"
    )
    assert (
        code(await rest.post(f"/api/tournaments/{tid}/open", other)) == "tournament/not_organiser"
    )
    await rest.ok(f"/api/tournaments/{tid}/open", organiser)
    await rest.ok(f"/api/tournaments/{tid}/register", other)
    again = await rest.post(f"/api/tournaments/{tid}/register", other)
    assert again.status_code == 409 and code(again) == "tournament/already_registered"
    assert code(await rest.post(f"/api/tournaments/{tid}/start", organiser)) == (
        "tournament/too_few_players"
    )
    shown = await rest.ok(f"/api/tournaments/{tid}/withdraw", other)
    assert shown["entries"] == []
    assert code(await rest.post(f"/api/tournaments/{tid}/withdraw", other)) == (
        "tournament/not_registered"
    )
    missing = await rest.get("/api/tournaments/999999")
    assert missing.status_code == 404 and code(missing) == "tournament/not_found"
    listed = (await rest.get("/api/tournaments", status="registration")).json()
    assert tid in [t["id"] for t in listed]


async def test_rated_matches_move_ladders_and_show_on_profiles(
    rest: Api, fast_server: Server
) -> None:
    ann, bob = await rest.guest("ann"), await rest.guest("bob")
    me = (await rest.get("/api/players/1")).status_code
    assert me == 200
    ladders = (await rest.get("/api/ladders", game=GAME)).json()
    custom = await rest.ok("/api/ladders", ann, {"game": GAME, "name": "Friday club"})
    assert custom["kind"] == "custom"
    await rest.ok(f"/api/ladders/{custom['id']}/join", ann)
    await rest.ok(f"/api/ladders/{custom['id']}/join", bob)
    twice = await rest.post(f"/api/ladders/{custom['id']}/join", bob)
    assert code(twice) == "ladder/already_joined"
    game_ladder = next(lad for lad in ladders if lad["kind"] == "game")
    assert code(await rest.post(f"/api/ladders/{game_ladder['id']}/join", bob)) == (
        "ladder/not_custom"
    )

    # A long disconnect grace: bob never connects, and must not forfeit before ann resigns.
    body = {"game": GAME, "seats": 2, "rated": True, "time_control": {"grace_ms": 3_600_000}}
    lobby = await rest.ok("/api/lobbies", ann, body)
    await rest.ok(f"/api/lobbies/{lobby['id']}/join", bob)
    match_id = (await rest.ok(f"/api/lobbies/{lobby['id']}/start", ann))["match_id"]
    client = await Client(fast_server, match_id, ann).connect()
    await client.act({"type": "resign"})
    await client.wait_until(lambda c: c.view and c.view["outcome"] is not None)

    ann_id = (await rest.get(f"/api/matches/{match_id}")).json()["seats"][0]["account_id"]
    for _ in range(40):
        history = (await rest.get(f"/api/players/{ann_id}/ratings")).json()
        if len(history) == 2:
            break
        await asyncio.sleep(0.1)
    assert {h["ladder_id"] for h in history} == {game_ladder["id"], custom["id"]}
    assert all(h["match_id"] == match_id and h["system"] == "glicko2" for h in history)
    assert all(h["rating_after"]["mu"] < 1500 for h in history)  # ann resigned

    board = {
        row["name"]: row for row in (await rest.get(f"/api/ladders/{custom['id']}/entries")).json()
    }
    # An undamaged resignation moves no ledger points (d(loser) - d(winner) = 0), but the skill
    # rating still records who won.
    assert board["ann"]["points"] == board["bob"]["points"] == 1500
    assert board["bob"]["ratings"]["glicko2"]["mu"] > board["ann"]["ratings"]["glicko2"]["mu"]
    assert (board["bob"]["wins"], board["ann"]["losses"]) == (1, 1)
    assert all(row["provisional"] for row in board.values())

    profile = (await rest.get(f"/api/players/{ann_id}")).json()
    assert profile["name"] == "ann" and profile["matches"][0]["id"] == match_id
    assert {lad["ladder"]["id"] for lad in profile["ladders"]} == {
        game_ladder["id"],
        custom["id"],
    }
    assert (await rest.get("/api/players/999999")).status_code == 404


async def test_withdrawal_mid_match_resigns_and_a_late_bot_joins_the_next_round(
    rest: Api,
) -> None:
    organiser, quitter = await rest.guest("director"), await rest.guest("quitter")
    # A long grace: the quitter never connects but must not forfeit before withdrawing.
    tid = await new_tournament(rest, organiser, rounds=3, time_control={"grace_ms": 3_600_000})
    await rest.ok(f"/api/tournaments/{tid}/register", quitter)
    await rest.ok(f"/api/tournaments/{tid}/bots", organiser, {"kind": "heuristic", "count": 3})
    await rest.ok(f"/api/tournaments/{tid}/start", organiser)
    (late,) = await rest.ok(f"/api/tournaments/{tid}/bots", organiser, {"kind": "heuristic"})
    assert (late["seed"], late["joined_round"]) == (5, 2)
    shown = await rest.ok(f"/api/tournaments/{tid}/withdraw", quitter)
    (gone,) = [e for e in shown["entries"] if e["bot"] is None]
    assert (gone["status"], gone["withdrawn_round"]) == ("withdrawn", 1)
    await wait_finished(rest, tid)

    rounds = (await rest.get(f"/api/tournaments/{tid}/rounds")).json()
    (table,) = [t for t in rounds[0]["pairings"] if gone["id"] in t["entries"]]
    assert table["forfeited"] == [] and table["placings"][-1] == [gone["id"]]  # resigned
    for later in rounds[1:]:
        players = {e for t in later["pairings"] for e in t["entries"]} | set(later["byes"])
        assert gone["id"] not in players and late["id"] in players
        assert later["byes"] == []  # three bots and the late one: two tables
    assert all(late["id"] not in t["entries"] for t in rounds[0]["pairings"])
    standings = (await rest.get(f"/api/tournaments/{tid}/standings")).json()
    assert sum(s["points"] - 1500 for s in standings) == 0
    assert next(s for s in standings if s["entry_id"] == late["id"])["played"] == 2
    late_join = await rest.post(f"/api/tournaments/{tid}/register", organiser)
    assert code(late_join) == "tournament/registration_closed"


async def test_swiss_tables_of_three_and_two_for_ember(rest: Api) -> None:
    """Five players at up-to-4-seat tables: 3 + 2 each round; tables of three are rated with
    OpenSkill, duels with Glicko-2."""
    organiser = await rest.guest("ember-host")
    body = {"game": "ember", "format": "swiss", "table_size": 4, "rounds": 2}
    created = await rest.ok("/api/tournaments", organiser, body)
    tid = created["id"]
    await rest.ok(f"/api/tournaments/{tid}/open", organiser)
    # Five bot identities (kind and level): every table is rated, none plays itself.
    for kind, level in BOT_FIELD:
        bot = {"kind": kind, "count": 1, "difficulty": level}
        await rest.ok(f"/api/tournaments/{tid}/bots", organiser, bot)
    await rest.ok(f"/api/tournaments/{tid}/start", organiser)
    await wait_finished(rest, tid)
    rounds = (await rest.get(f"/api/tournaments/{tid}/rounds")).json()
    for round_info in rounds:
        assert sorted(len(t["entries"]) for t in round_info["pairings"]) == [2, 3]
    standings = (await rest.get(f"/api/tournaments/{tid}/standings")).json()
    assert sum(s["points"] - 1500 for s in standings) == 0
    ladders = (await rest.get("/api/ladders", game="ember")).json()
    (ladder,) = [lad for lad in ladders if lad["kind"] == "game"]
    bots = (await rest.get(f"/api/ladders/{ladder['id']}/entries")).json()
    assert sorted(row["bot"] for row in bots) == sorted(f"{k}:{v}" for k, v in BOT_FIELD)
    assert {system for row in bots for system in row["ratings"]} == {"glicko2", "openskill"}


async def test_a_tournament_survives_a_server_kill(make_server: ServerFactory) -> None:
    """SIGKILL while round 1 is being played: after the restart the matches resume from their
    logs, the results are recorded, and the remaining rounds are paired to the end."""
    server = make_server(RAMPART_CLOCK_RATE="200")
    rest = Api(server)
    organiser = await rest.guest("survivor")
    tid = await new_tournament(rest, organiser, rounds=2)
    await rest.ok(f"/api/tournaments/{tid}/bots", organiser, {"kind": "heuristic", "count": 4})
    await rest.ok(f"/api/tournaments/{tid}/start", organiser)
    await rest.close()
    server.kill()
    server.start(server.log_path.parent)  # type: ignore[union-attr]
    rest = Api(server)
    try:
        await wait_finished(rest, tid)
        rounds = (await rest.get(f"/api/tournaments/{tid}/rounds")).json()
        assert [len(r["pairings"]) for r in rounds] == [2, 2]
        standings = (await rest.get(f"/api/tournaments/{tid}/standings")).json()
        assert sum(s["points"] - 1500 for s in standings) == 0
        assert all(s["played"] == 2 for s in standings)
    finally:
        await rest.close()
