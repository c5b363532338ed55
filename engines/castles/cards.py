"""The Castles deck card data: cards.json loaded and validated once, at import."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

TYPES = frozenset({"building", "special", "soldier", "civilian", "action"})
ACTION_CLASSES = frozenset({"action", "attack", "spell", "instant"})
SOURCES = frozenset({"rulebook", "house"})
PLACEMENTS = frozenset({"builder", "middle", "castle"})


@dataclass(frozen=True)
class CardSpec:
    """One card kind: its title, type, printed (or house) HP and the numbers its text uses."""

    id: str
    title: str
    type: str
    hp: int
    count: int
    source: str
    text: str
    action_class: str = ""
    move: int = 0
    damage: int = 0
    range: int = 0
    heal: int = 0
    carriers: int = 0
    placement: str = "builder"
    enters_enemy_castle: bool = False
    house_fields: tuple[str, ...] = ()

    @property
    def is_unit(self) -> bool:
        """Soldiers, Civilians and Specials: the cards that move on their own."""
        return self.type in ("soldier", "civilian", "special")


def _spec(entry: dict[str, Any]) -> CardSpec:
    return CardSpec(
        id=str(entry["id"]),
        title=str(entry["title"]),
        type=str(entry["type"]),
        hp=int(entry.get("hp", 0)),
        count=int(entry["count"]),
        source=str(entry["source"]),
        text=str(entry["text"]),
        action_class=str(entry.get("class", "")),
        move=int(entry.get("move", 0)),
        damage=int(entry.get("damage", 0)),
        range=int(entry.get("range", 0)),
        heal=int(entry.get("heal", 0)),
        carriers=int(entry.get("carriers", 0)),
        placement=str(entry.get("placement", "builder")),
        enters_enemy_castle=bool(entry.get("enters_enemy_castle", False)),
        house_fields=tuple(str(f) for f in entry.get("house_fields", ())),
    )


def _validate(card: CardSpec, colour: bool) -> None:
    """Raise ValueError when a card's data cannot be played by the rules code."""
    where = f"card {card.id!r}"
    if card.type not in TYPES:
        raise ValueError(f"{where}: unknown type {card.type!r}")
    if card.source not in SOURCES:
        raise ValueError(f"{where}: source must be rulebook or house")
    if (card.source == "house") != bool(card.house_fields):
        raise ValueError(f"{where}: a house card names its house_fields, a rulebook card none")
    if card.type == "action":
        if card.action_class not in ACTION_CLASSES or card.hp != 0:
            raise ValueError(f"{where}: an action needs a class and no HP")
    elif card.hp < 1:
        raise ValueError(f"{where}: a card in play needs HP >= 1")
    if card.placement not in PLACEMENTS:
        raise ValueError(f"{where}: unknown placement {card.placement!r}")
    if colour != (card.count == 0):
        raise ValueError(f"{where}: colour cards have count 0, shared cards count >= 1")
    if card.is_unit and card.move < 1:
        raise ValueError(f"{where}: a unit moves at least one zone")
    if min(card.damage, card.range, card.heal, card.carriers) < 0:
        raise ValueError(f"{where}: negative number")


def _load(path: Traversable) -> tuple[dict[str, CardSpec], tuple[str, ...], int]:
    raw: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    colour_set = tuple(str(card_id) for card_id in raw["colour_set"])
    cards: dict[str, CardSpec] = {}
    for entry in raw["cards"]:
        card = _spec(entry)
        if card.id in cards:
            raise ValueError(f"duplicate card id {card.id!r}")
        _validate(card, card.id in colour_set)
        cards[card.id] = card
    if colour_set[0] != "castle" or any(card_id not in cards for card_id in colour_set):
        raise ValueError("the colour set starts with the Castle and names known cards")
    castle_hp = int(raw["castle_hp"])
    if cards["castle"].hp != castle_hp:
        raise ValueError("castle_hp must match the Castle card")
    return cards, colour_set, castle_hp


# Beside the package, not ``__file__``: a compiled build of this module lives elsewhere.
CARDS, COLOUR_SET, CASTLE_HP = _load(files("engines.castles") / "cards.json")
SHARED_KINDS: tuple[str, ...] = tuple(c.id for c in CARDS.values() if c.count > 0)


def shared_deck() -> list[str]:
    """Every shared card once per copy, in data-file order (unshuffled)."""
    return [card.id for card in CARDS.values() for _ in range(card.count)]
