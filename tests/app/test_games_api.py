"""``GET /api/games/{id}``: one game with the JSON Schema of its actions."""

from __future__ import annotations

import jsonschema
import pytest

from engines import registry
from tests.app.support import Api

GAMES = ("ambush", "rampage", "castles", "ember")


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
    assert set(fields) == {"id", "title", "min_seats", "max_seats", "bots", "actions"}
