"""The AsyncAPI document publishes each game's actions: its union and every member under
``components.schemas``, and the ``action`` message points to them."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter

from app.protocol.actions import GAME_ACTIONS
from app.realtime.contract import REF, asyncapi_document
from engines import registry


def resolved(schema: dict[str, Any], document: dict[str, Any]) -> Any:
    """A validator for ``schema`` whose ``#/components/...`` references resolve in
    ``document``."""
    return jsonschema.Draft202012Validator({**schema, "components": document["components"]})


@pytest.mark.parametrize("game", sorted(GAME_ACTIONS))
def test_each_games_actions_are_components(game: str) -> None:
    document = asyncapi_document()
    schemas = document["components"]["schemas"]
    name, union = GAME_ACTIONS[game]
    published = schemas[name]
    assert published["discriminator"]["propertyName"] == "type"
    members = TypeAdapter(union).json_schema(ref_template=REF)["$defs"]
    assert sorted(ref["$ref"] for ref in published["oneOf"]) == sorted(
        REF.format(model=member) for member in members
    )
    for member, schema in members.items():
        # Each member is there under its own name, not overwritten by another schema.
        assert schemas[member] == schema
    # A fresh match's listed actions are valid against the published union, a stray field not.
    engine = registry.get(game)
    state = engine.setup(engine.min_seats, 3, {})
    validator = resolved(published, document)
    listed = [a for seat in range(engine.min_seats) for a in engine.legal_actions(state, seat)]
    for action in listed:
        validator.validate(action)
    assert not validator.is_valid({**listed[0], "stray": True})


def test_the_action_message_points_to_them() -> None:
    document = asyncapi_document()
    action = document["components"]["schemas"]["Action"]
    text = action["description"] + action["properties"]["action"]["description"]
    for name, _union in GAME_ACTIONS.values():
        assert name in text
