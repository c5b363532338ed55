"""Seats by name: the welcome tells each seat's player name (a bot's kind and level instead)
beside its castle name, for a fresh session and one rebuilt from the log."""

from __future__ import annotations

from typing import Any

from app.sessions.commands import SeatInfo
from app.sessions.seat_names import bot_json, players_json
from tests.app.support import Api, Client, Server


async def test_the_welcome_names_each_seat_by_player_beside_its_castle(
    api: Api, shared_server: Server
) -> None:
    host = await api.guest("Ada Names")
    guest = await api.guest("Bob Names")
    lobby = await api.ok("/api/lobbies", host, {"game": "ambush", "seats": 3})
    await api.ok(f"/api/lobbies/{lobby['id']}/join", guest)
    await api.ok(f"/api/lobbies/{lobby['id']}/castle", host, {"name": "Yarrowdale"})
    bots = f"/api/lobbies/{lobby['id']}/bots"
    await api.ok(bots, host, {"kind": "heuristic", "difficulty": "hard"})
    match_id = (await api.ok(f"/api/lobbies/{lobby['id']}/start", host))["match_id"]
    bob = await Client(shared_server, match_id, guest).connect()
    welcome: dict[str, Any] = bob.of_type("welcome")[0]
    players = welcome["players"]
    person = {"bot": None, "bot_account": False}
    assert players[0] == {"name": "Ada Names", "castle": "Yarrowdale", **person}
    assert players[1] == {"name": "Bob Names", "castle": "Bob Names", **person}
    assert players[2]["name"] is None
    assert players[2]["bot"] == {"kind": "heuristic", "level": "hard"}
    assert players[2]["castle"] == welcome["names"][2]
    await bob.close()
    # The match's REST record (History, Rejoin, the match page) names the players too.
    record = (await api.get(f"/api/matches/{match_id}")).json()
    seats = [(s["player"], s["name"], s["bot"]) for s in record["seats"]]
    assert seats[:2] == [("Ada Names", "Yarrowdale", None), ("Bob Names", "Bob Names", None)]
    assert seats[2][0] is None and seats[2][2] == "heuristic"
    listed = (await api.get("/api/matches", player=record["seats"][0]["account_id"])).json()
    assert [s["player"] for s in listed["matches"][0]["seats"]][:2] == ["Ada Names", "Bob Names"]
    # Ada's profile names whom she played against.
    profile = (await api.get(f"/api/players/{record['seats'][0]['account_id']}")).json()
    against = profile["matches"][0]["against"]
    assert [(s["player"], s["bot"], s["difficulty"]) for s in against] == [
        ("Bob Names", None, None),
        (None, "heuristic", "hard"),
    ]


def test_bot_seats_are_told_by_kind_and_level() -> None:
    seats = [
        SeatInfo(1, None, "Keep", "Ann"),
        SeatInfo(None, "heuristic", "Ironmere"),
        SeatInfo(None, "random:easy", "Stonehold"),
    ]
    assert [p["bot"] for p in players_json(seats)] == [
        None,
        {"kind": "heuristic", "level": "normal"},
        {"kind": "random", "level": "easy"},
    ]
    assert bot_json("heuristic:impossible") == {"kind": "heuristic", "level": "normal"}
