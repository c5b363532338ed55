"""Each game's action types (``app.protocol.actions``) against its engine: the same action
types, fields, required and nullable fields as the engine's own table (``engines.envelope``),
and every action the engines list or the bots play over seeded bot games validates against
the game's union."""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from typing import Any, get_args

import pytest
from pydantic import TypeAdapter, ValidationError

from app.protocol.actions import GAME_ACTIONS
from app.protocol.actions.ember import HeroId
from engines import registry
from engines.base import Decision
from engines.ember.cards import HERO_IDS
from engines.envelope import Actions
from engines.playout import play


def table(game: str) -> Actions:
    """The engine's action table (``engines.envelope``)."""
    actions: Actions = registry.get(game).actions  # type: ignore[attr-defined]
    return actions


# Each engine's table: the fields each action type may carry, "type" included.
ENGINE_FIELDS: dict[str, Mapping[str, frozenset[str]]] = {
    game: {kind: row.allowed for kind, row in table(game).rows.items()} for game in GAME_ACTIONS
}
# Seat counts and options per game: the Castles terrain opens the strike windows.
SETUPS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "ambush": [(2, {}), (4, {})],
    "rampage": [(2, {})],
    "castles": [
        (2, {}),
        (4, {"terrain": ["plains", "hills", "high_hills", "lake", "forest", "plains"]}),
        (
            2,
            {
                "terrain": ["plains", "marsh", "plains", "plains", "high_hills", "plains"],
                "rivers": [1, 2, 3],
            },
        ),
    ],
    "ember": [(2, {}), (4, {})],
}
SEEDS = range(3)


def union_schema(game: str) -> dict[str, Any]:
    return TypeAdapter(GAME_ACTIONS[game][1]).json_schema()


def schema_fields(game: str) -> dict[str, frozenset[str]]:
    """Per action type, the property names of its schema (JSON names: aliases applied)."""
    schema = union_schema(game)
    out: dict[str, frozenset[str]] = {}
    for member in schema["$defs"].values():
        if "properties" in member and "type" in member["properties"]:
            out[member["properties"]["type"]["const"]] = frozenset(member["properties"])
    return out


def schema_required(game: str) -> dict[str, frozenset[str]]:
    """Per action type, the fields its schema requires, "type" left out."""
    schema = union_schema(game)
    out: dict[str, frozenset[str]] = {}
    for member in schema["$defs"].values():
        if "properties" in member and "type" in member["properties"]:
            kind = member["properties"]["type"]["const"]
            out[kind] = frozenset(member.get("required", ())) - {"type"}
    return out


def schema_nullable(game: str) -> dict[str, frozenset[str]]:
    """Per action type, the fields its schema lets be null."""
    schema = union_schema(game)
    out: dict[str, frozenset[str]] = {}
    for member in schema["$defs"].values():
        if "properties" in member and "type" in member["properties"]:
            kind = member["properties"]["type"]["const"]
            out[kind] = frozenset(
                name
                for name, field in member["properties"].items()
                if {"type": "null"} in field.get("anyOf", [])
            )
    return out


@pytest.mark.parametrize("game", sorted(GAME_ACTIONS))
def test_action_types_and_fields_match_the_engine(game: str) -> None:
    assert schema_fields(game) == dict(ENGINE_FIELDS[game])
    required = {
        kind: frozenset(field.name for field in row.fields if field.required)
        for kind, row in table(game).rows.items()
    }
    assert schema_required(game) == required
    nullable = {
        kind: frozenset(field.name for field in row.fields if field.null)
        for kind, row in table(game).rows.items()
    }
    assert schema_nullable(game) == nullable


@pytest.mark.parametrize("game", sorted(GAME_ACTIONS))
def test_union_is_one_of_with_a_discriminator(game: str) -> None:
    schema = union_schema(game)
    assert schema["discriminator"]["propertyName"] == "type"
    assert len(schema["oneOf"]) == len(ENGINE_FIELDS[game])
    for member in schema["$defs"].values():
        assert member["additionalProperties"] is False
        for name, field in member["properties"].items():
            assert name == "type" or field.get("description"), (member["title"], name)


def test_the_heroes_are_the_engines() -> None:
    assert set(get_args(HeroId)) == set(HERO_IDS)


class Recorder:
    """Wraps a bot: keeps every legal action it was offered and every action it chose."""

    def __init__(self, bot: Any, listed: set[str], played: set[str]) -> None:
        self.bot, self.seat, self.listed, self.played = bot, bot.seat, listed, played

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        self.bot.observe(events, view)

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None:
        self.listed.update(json.dumps(action, sort_keys=True) for action in legal)
        decision = self.bot.decide(view, legal, now_ms)
        if decision is not None:
            self.played.add(json.dumps(decision.action, sort_keys=True))
        result: Decision | None = decision
        return result


def bot_games(game: str) -> tuple[set[str], set[str]]:
    """The distinct actions listed and played (as JSON) over seeded games of both bots."""
    engine = registry.get(game)
    bots = importlib.import_module(f"engines.{game}.bots")
    listed: set[str] = set()
    played: set[str] = set()
    for seed in SEEDS:
        for seats, options in SETUPS[game]:
            for kind in ("RandomBot", "HeuristicBot"):
                players = [
                    Recorder(getattr(bots, kind)(seat, seed * 31 + seat), listed, played)
                    for seat in range(seats)
                ]
                play(engine, players, seed, options)
    return listed, played


def refused(adapter: TypeAdapter[Any], actions: set[str]) -> list[tuple[str, str]]:
    """The actions (JSON, as a client sends them) the union refuses, in strict mode (no
    string taken for a number, no boolean for an integer), with pydantic's reason."""
    bad = []
    for text in sorted(actions):
        try:
            adapter.validate_json(text, strict=True)
        except ValidationError as error:
            bad.append((text, str(error)))
    return bad


@pytest.mark.parametrize("game", sorted(GAME_ACTIONS))
def test_every_listed_and_played_action_validates(game: str) -> None:
    listed, played = bot_games(game)
    adapter: TypeAdapter[Any] = TypeAdapter(GAME_ACTIONS[game][1])
    assert refused(adapter, listed) == []
    # Bots may play what a bounded listing leaves out (Ambush!'s returns, Trickster swaps).
    assert refused(adapter, played) == []
    # The games listed every action type, so every member of the union was tried.
    assert {json.loads(text)["type"] for text in listed} == set(ENGINE_FIELDS[game])


@pytest.mark.parametrize(
    ("game", "action"),
    [
        ("ambush", {"type": "expose", "cell": ["0", 1]}),
        ("ambush", {"type": "play", "card": "scout", "cell": [1, 0], "peek": [0, 1]}),
        ("rampage", {"type": "defend", "card": "ogre#1", "to": "moat"}),
        ("castles", {"type": "play", "card": 3, "zone": 6}),
        ("ember", {"type": "hero", "hero": "merlin"}),
        ("ember", {"type": "shuffle"}),
    ],
)
def test_malformed_actions_are_refused(game: str, action: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        TypeAdapter(GAME_ACTIONS[game][1]).validate_json(json.dumps(action), strict=True)
