"""The Castle Rampage house deck: cards.json loaded and validated once, at import."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

UNIT_TYPES: tuple[str, ...] = ("knight", "archer", "warrior")
STRUCTURES: tuple[str, ...] = ("gate", "castle")
SOURCES = frozenset({"rulebook", "house"})
EFFECTS = frozenset(
    {
        "none",
        "draw",
        "veteran",
        "digger",
        "jester",
        "summoner",
        "priest",
        "archer",
        "castle_bonus",
        "gate_bonus",
        "banner",
        "palisade",
        "watchtower",
        "barracks",
        "fire_arrows",
        "earthquake",
        "bricklayer",
        "sapper",
        "thief",
        "bomber",
        "saboteur",
        "spy",
        "ogre",
    }
)
PURPLE_EFFECTS = frozenset({"bomber", "saboteur", "spy", "ogre"})
PERMANENT_EFFECTS = frozenset({"banner", "palisade", "watchtower", "barracks"})
# Cards that do something when played even without an attack value.
ACTION_EFFECTS = frozenset(
    {
        "draw",
        "summoner",
        "priest",
        "fire_arrows",
        "earthquake",
        "bricklayer",
        "sapper",
        "thief",
        "jester",
    }
)
OGRE_PLACEMENT_COST = 2


@dataclass(frozen=True)
class Scheme:
    """An Attack Scheme's price: the units to discard, and the optional bonus unit."""

    needs: tuple[str, ...]
    bonus: str
    bonus_strength: int


@dataclass(frozen=True)
class Card:
    """One card kind: defence values, unit symbols, attack, cost and the rule it follows."""

    kind: str
    name: str
    count: int
    source: str
    gate: int
    castle: int
    text: str
    purple: bool = False
    units: tuple[str, ...] = ()
    attack: int | None = None
    star: bool = False
    cost: int = 0
    permanent: bool = False
    effect: str = "none"
    amount: int = 0
    scheme: Scheme | None = None

    def defence(self, structure: str) -> int:
        """The printed defence value at ``structure`` ("gate" or "castle")."""
        return self.gate if structure == "gate" else self.castle

    @property
    def playable(self) -> bool:
        """Whether the card can be played from hand at all (purple cards only defend)."""
        return not self.purple and (
            self.attack is not None or self.permanent or self.effect in ACTION_EFFECTS
        )


def _card(entry: dict[str, Any]) -> Card:
    scheme_raw = entry.get("scheme")
    scheme = None
    if scheme_raw is not None:
        scheme = Scheme(
            needs=tuple(str(u) for u in scheme_raw["needs"]),
            bonus=str(scheme_raw["bonus"]),
            bonus_strength=int(scheme_raw["bonus_strength"]),
        )
    attack = entry.get("attack")
    return Card(
        kind=str(entry["kind"]),
        name=str(entry["name"]),
        count=int(entry["count"]),
        source=str(entry["source"]),
        gate=int(entry["gate"]),
        castle=int(entry["castle"]),
        text=str(entry["text"]),
        purple=bool(entry.get("purple", False)),
        units=tuple(str(u) for u in entry.get("units", [])),
        attack=None if attack is None else int(attack),
        star=bool(entry.get("star", False)),
        cost=int(entry.get("cost", 0)),
        permanent=bool(entry.get("permanent", False)),
        effect=str(entry.get("effect", "none")),
        amount=int(entry.get("amount", 0)),
        scheme=scheme,
    )


def _validate(card: Card) -> None:
    """Raise ValueError when a card breaks the deck's invariants."""
    problems: list[str] = []
    if card.count < 1 or card.gate < 0 or card.castle < 0 or card.cost < 0:
        problems.append("count >= 1; defence values and cost >= 0")
    if card.source not in SOURCES:
        problems.append(f"source must be one of {sorted(SOURCES)}")
    if card.effect not in EFFECTS:
        problems.append(f"unknown effect {card.effect!r}")
    if any(unit not in UNIT_TYPES for unit in card.units) or len(set(card.units)) != len(
        card.units
    ):
        problems.append("unit symbols must be distinct known unit types")
    if card.purple != (card.effect in PURPLE_EFFECTS):
        problems.append("purple cards (and only they) carry a purple effect")
    if card.permanent != (card.effect in PERMANENT_EFFECTS):
        problems.append("permanent cards (and only they) carry a permanent effect")
    if card.scheme is not None:
        needed = (*card.scheme.needs, card.scheme.bonus)
        if card.attack is None or any(unit not in UNIT_TYPES for unit in needed):
            problems.append("a scheme needs an attack value and known unit types")
    if card.purple and (card.attack is not None or card.cost or card.units):
        problems.append("purple cards have no attack, cost or unit symbol")
    if not card.purple and not card.playable:
        problems.append("every non-purple card must be playable")
    if problems:
        raise ValueError(f"card {card.kind!r}: " + "; ".join(problems))


def _load(path: Traversable) -> tuple[dict[str, Card], tuple[str, ...]]:
    """Parse and validate the card file; raises ValueError on any inconsistency."""
    raw: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if tuple(raw["unit_types"]) != UNIT_TYPES:
        raise ValueError("unit_types must be knight, archer, warrior")
    cards: dict[str, Card] = {}
    for entry in raw["cards"]:
        card = _card(entry)
        if card.kind in cards or "#" in card.kind:
            raise ValueError(f"duplicate or malformed card kind {card.kind!r}")
        _validate(card)
        cards[card.kind] = card
    if sum(card.count for card in cards.values()) != int(raw["deck_size"]):
        raise ValueError("card counts do not add up to deck_size")
    # Instance ids "kind#n" (n from 1) make every one of the 118 physical cards traceable.
    ids = tuple(f"{card.kind}#{n}" for card in cards.values() for n in range(1, card.count + 1))
    return cards, ids


# Beside the package, not ``__file__``: a compiled build of this module lives elsewhere.
CARDS, CARD_IDS = _load(files("engines.rampage") / "cards.json")
DECK_SIZE = len(CARD_IDS)
_CARD_ID_SET = frozenset(CARD_IDS)


# Every instance id's kind and card, parsed once here: rules, listings and bots look cards up
# by id tens of thousands of times a game.
KIND_BY_ID: dict[str, str] = {card_id: card_id.partition("#")[0] for card_id in CARD_IDS}
CARD_BY_ID: dict[str, Card] = {card_id: CARDS[kind] for card_id, kind in KIND_BY_ID.items()}


def kind_of(card_id: str) -> str:
    """The kind part of an instance id ("axe_man#3" -> "axe_man")."""
    kind = KIND_BY_ID.get(card_id)
    return card_id.partition("#")[0] if kind is None else kind


def card_of(card_id: str) -> Card:
    """The card kind of an instance id; raises KeyError for an unknown id."""
    card = CARD_BY_ID.get(card_id)
    return CARDS[card_id.partition("#")[0]] if card is None else card


def is_card_id(value: object) -> bool:
    """Whether ``value`` names one of the 118 instances."""
    return isinstance(value, str) and value in _CARD_ID_SET
