"""Each game's card data for ``GET /api/games/{id}/cards``, read from the card definitions its
engine loaded (the same objects the rules play with), built once per game."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import cache
from typing import Any

from app.api.responses.cards import AmbushCards, CastlesCards, EmberCards, RampageCards


def _fields(card: Any, *, drop: tuple[str, ...] = ()) -> dict[str, Any]:
    """A card definition (a dataclass) as a dict of its fields, nested ones included."""
    data = dataclasses.asdict(card)
    for name in drop:
        data.pop(name)
    return data


# Each builder imports its engine's card module on first use, as engines.registry imports the
# engines themselves: importing this module loads no game.


def _ambush() -> AmbushCards:
    from engines.ambush.cards import CARDS

    return AmbushCards.model_validate(
        {"game": "ambush", "cards": [_fields(card) for card in CARDS.values()]}
    )


def _rampage() -> RampageCards:
    from engines.rampage.cards import CARDS, UNIT_TYPES

    cards = [_fields(card) for card in CARDS.values()]
    return RampageCards.model_validate(
        {"game": "rampage", "unit_types": list(UNIT_TYPES), "cards": cards}
    )


def _castles() -> CastlesCards:
    from engines.castles.cards import CARDS, CASTLE_HP

    cards = [_fields(card) for card in CARDS.values()]
    return CastlesCards.model_validate({"game": "castles", "castle_hp": CASTLE_HP, "cards": cards})


def _ember() -> EmberCards:
    from engines.ember.cards import CARDS, HEROES

    cards = []
    for card in CARDS.values():
        # ``to_scape`` is the play symbol read once for the rules: the symbol is served.
        data = _fields(card, drop=("to_scape",))
        data["effects"] = [{"effect": do, "amount": n} for do, n in card.effects]
        cards.append(data)
    heroes = [
        {**_fields(hero, drop=("deck",)), "deck": [{"card": c, "count": n} for c, n in hero.deck]}
        for hero in HEROES.values()
    ]
    return EmberCards.model_validate({"game": "ember", "cards": cards, "heroes": heroes})


BUILDERS: dict[str, Callable[[], AmbushCards | RampageCards | CastlesCards | EmberCards]] = {
    "ambush": _ambush,
    "rampage": _rampage,
    "castles": _castles,
    "ember": _ember,
}


@cache
def game_cards(game_id: str) -> AmbushCards | RampageCards | CastlesCards | EmberCards | None:
    """``game_id``'s card data, or None for a game that publishes none (a benchmark's)."""
    build = BUILDERS.get(game_id)
    return None if build is None else build()
