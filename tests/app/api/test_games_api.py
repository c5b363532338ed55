"""``GET /api/games/{id}``: one game with the JSON Schema of its actions; ``GET
/api/games/{id}/cards``: its card data, the engine's own."""

from __future__ import annotations

import dataclasses
import importlib
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from engines import registry
from tests.app.support import Api

GAMES = ("ambush", "rampage", "castles", "ember")
ROOT = Path(__file__).resolve().parents[3]
# The field of each game's cards.json entries that names the card.
CARD_KEY = {"ambush": "id", "rampage": "kind", "castles": "id", "ember": "id"}


@pytest.mark.parametrize("game", GAMES)
async def test_a_game_serves_the_schema_of_its_actions(api: Api, game: str) -> None:
    reply = await api.get(f"/api/games/{game}")
    assert reply.status_code == 200
    body = reply.json()
    engine = registry.get(game)
    assert {k: v for k, v in body.items() if k != "actions"} == {
        "id": game,
        "title": engine.title,
        "min_seats": engine.min_seats,
        "max_seats": engine.max_seats,
        "bots": True,
        "correspondence": game != "ambush",  # grab races need everyone at once
    }
    schema = body["actions"]
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    assert schema["discriminator"]["propertyName"] == "type"
    # The opening actions of a fresh match, as the server lists them, are valid; an unknown
    # action type and an unknown field are not.
    state = engine.setup(engine.min_seats, 7, {})
    listed = [a for seat in range(engine.min_seats) for a in engine.legal_actions(state, seat)]
    assert listed
    for action in listed:
        validator.validate(action)
    assert not validator.is_valid({"type": "teleport"})
    assert not validator.is_valid({**listed[0], "extra": 1})


async def test_an_unknown_game_is_not_found(api: Api) -> None:
    reply = await api.get("/api/games/chess")
    assert reply.status_code == 404
    assert reply.json()["error"]["code"] == "game/not_found"


async def test_a_game_without_published_actions_says_null(api: Api) -> None:
    # The benchmark's "tally" game the test server registers has no action schema.
    assert (await api.get("/api/games/tally")).json()["actions"] is None


async def test_the_route_is_typed_in_openapi(api: Api) -> None:
    document = (await api.client.get("/openapi.json")).json()
    reply = document["paths"]["/api/games/{game_id}"]["get"]["responses"]
    assert reply["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/GameOut"
    }
    assert "404" in reply
    fields = document["components"]["schemas"]["GameOut"]["properties"]
    assert set(fields) == {
        "id",
        "title",
        "min_seats",
        "max_seats",
        "bots",
        "correspondence",
        "actions",
    }


def plain(value: Any) -> Any:
    """An engine value as JSON has it: dataclasses as objects, tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


@pytest.mark.parametrize("game", GAMES)
async def test_a_game_serves_the_card_data_its_engine_plays(api: Api, game: str) -> None:
    reply = await api.get(f"/api/games/{game}/cards")
    assert reply.status_code == 200
    body = reply.json()
    assert body["game"] == game
    engine_cards = importlib.import_module(f"engines.{game}.cards").CARDS
    key = CARD_KEY[game]
    # Every card of the data file, in its order, and each served field is the engine's value.
    data = json.loads((ROOT / "engines" / game / "cards.json").read_text())
    assert [card[key] for card in body["cards"]] == [entry[key] for entry in data["cards"]]
    for card in body["cards"]:
        played = engine_cards[card[key]]
        for field, value in card.items():
            if game == "ember" and field == "effects":
                assert [(e["effect"], e["amount"]) for e in value] == list(played.effects)
            else:
                assert value == plain(getattr(played, field)), (card[key], field)
    if game == "ember":
        heroes = importlib.import_module("engines.ember.cards").HEROES
        assert [hero["id"] for hero in body["heroes"]] == list(heroes)
        for hero in body["heroes"]:
            played = heroes[hero["id"]]
            assert (hero["name"], hero["color"], hero["strategy"]) == (
                played.name,
                played.color,
                played.strategy,
            )
            assert [(e["card"], e["count"]) for e in hero["deck"]] == list(played.deck)


async def test_card_data_of_an_unknown_game_or_a_game_without_cards_is_not_found(
    api: Api,
) -> None:
    unknown = await api.get("/api/games/chess/cards")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "game/not_found"
    # The benchmark's "tally" game has no cards.
    tally = await api.get("/api/games/tally/cards")
    assert tally.status_code == 404
    assert tally.json()["error"]["code"] == "game/no_cards"


async def test_the_card_data_is_typed_in_openapi(api: Api) -> None:
    document = (await api.client.get("/openapi.json")).json()
    reply = document["paths"]["/api/games/{game_id}/cards"]["get"]["responses"]
    schema = reply["200"]["content"]["application/json"]["schema"]
    assert schema["discriminator"]["propertyName"] == "game"
    refs = {option["$ref"].rsplit("/", 1)[1] for option in schema["oneOf"]}
    assert refs == {"AmbushCards", "RampageCards", "CastlesCards", "EmberCards"}
    assert "404" in reply
