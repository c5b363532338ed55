"""Bot difficulty chosen when seats are filled: kept with the lobby seat, the match seat, and a
match rebuilt after a restart (one server, started twice)."""

from __future__ import annotations

import pytest

from app.sessions.bots import bot_label, bot_spec, make_bot, parse_bot_spec
from engines import registry
from tests.app.conftest import ServerFactory
from tests.app.support import Api, Client


def code(reply: object) -> str:
    return str(reply.json()["error"]["code"])  # type: ignore[attr-defined]


async def test_filled_seats_keep_their_difficulty_into_the_match_and_its_rebuild(
    make_server: ServerFactory,
) -> None:
    server = make_server()
    api = Api(server)
    host = await api.guest("lvl-host")
    lobby = await api.ok("/api/lobbies", host, {"game": "ambush", "seats": 4})
    bots = f"/api/lobbies/{lobby['id']}/bots"
    refused = await api.post(bots, host, {"kind": "heuristic", "difficulty": "impossible"})
    assert refused.status_code == 422 and code(refused) == "lobby/bad_difficulty"
    await api.ok(bots, host, {"kind": "heuristic", "difficulty": "hard", "count": 1})
    await api.ok(bots, host, {"kind": "random", "difficulty": "easy", "count": 1})
    shown = await api.ok(bots, host, {"kind": "heuristic"})  # the default: normal
    expected = [(None, None), ("heuristic", "hard"), ("random", "easy"), ("heuristic", "normal")]
    assert [(m["bot"], m.get("difficulty")) for m in shown["members"]] == expected
    match_id = (await api.ok(f"/api/lobbies/{lobby['id']}/start", host))["match_id"]
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert [(s["bot"], s["difficulty"]) for s in match["seats"]] == expected
    await api.close()

    # A restart rebuilds the match from its log, the bots from their stored seats.
    server.stop()
    server.start(server.log_path.parent)  # type: ignore[union-attr]
    api = Api(server)
    player = await Client(server, match_id, host).connect()
    assert player.view is not None and player.view["phase"] != "over"
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert [(s["bot"], s["difficulty"]) for s in match["seats"]] == expected
    await api.close()


def test_the_stored_bot_spec_builds_a_bot_of_that_level() -> None:
    """What ``match_seats.bot`` holds (a bare kind for normal bots, as before levels)."""
    engine = registry.get("ambush")
    assert bot_spec("heuristic", "normal") == "heuristic"
    # A ladder names a bot entry by its kind and level: each level is a player of its own.
    assert bot_label("heuristic") == "Heuristic bot (normal)"
    assert bot_label(bot_spec("heuristic", "hard")) == "Heuristic bot (hard)"
    assert parse_bot_spec(bot_spec("random", "hard")) == ("random", "hard")
    for game in ("ambush", "castles", "ember", "rampage"):
        built = make_bot(registry.get(game), "heuristic:easy", 1, 5)
        assert built.seat == 1 and built.level.name == "easy"  # type: ignore[attr-defined]
    assert make_bot(engine, "random", 0, 5).level.name == "normal"  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        make_bot(engine, "heuristic:impossible", 0, 5)
