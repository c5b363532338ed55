"""The Ambush! house deck: cards.json loaded and validated once, at import."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

EFFECTS = frozenset({"none", "ambush", "archer", "splash", "heal", "ward", "look", "swap", "steal"})
TRIGGERS = frozenset({"capture_damage", "capture_heal"})
# Effects whose card names an opponent even when its damage is 0 (Thief robs a chosen hand).
TARGETED_EFFECTS = frozenset({"steal"})


@dataclass(frozen=True)
class Card:
    """One card kind of the deck: its damage value D, its text and how the rules read it."""

    id: str
    name: str
    count: int
    damage: int
    effect: str
    text: str
    amount: int = 0
    trigger: str | None = None

    @property
    def needs_target(self) -> bool:
        """Rule 2a: a card with D > 0 (or one that robs an opponent) names an opponent."""
        return self.damage > 0 or self.effect in TARGETED_EFFECTS


def _load(path: Traversable) -> tuple[dict[str, Card], int]:
    """Parse and validate the card file; raises ValueError on any inconsistency."""
    raw: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    cards: dict[str, Card] = {}
    for entry in raw["cards"]:
        card = Card(
            id=str(entry["id"]),
            name=str(entry["name"]),
            count=int(entry["count"]),
            damage=int(entry["damage"]),
            effect=str(entry["effect"]),
            text=str(entry["text"]),
            amount=int(entry.get("amount", 0)),
            trigger=entry.get("trigger"),
        )
        if card.id in cards:
            raise ValueError(f"duplicate card id {card.id!r}")
        if card.count < 1 or card.damage < 0 or card.amount < 0:
            raise ValueError(f"card {card.id!r}: count >= 1, damage and amount >= 0")
        if card.effect not in EFFECTS:
            raise ValueError(f"card {card.id!r}: unknown effect {card.effect!r}")
        if card.trigger is not None and card.trigger not in TRIGGERS:
            raise ValueError(f"card {card.id!r}: unknown trigger {card.trigger!r}")
        cards[card.id] = card
    size = int(raw["deck_size"])
    if sum(card.count for card in cards.values()) != size:
        raise ValueError(f"card counts do not add up to the deck size {size}")
    if "ambush" not in cards or cards["ambush"].effect != "ambush":
        raise ValueError("the deck needs the Ambush! card")
    return cards, size


# Beside the package, not ``__file__``: a compiled build of this module lives elsewhere.
CARDS, DECK_SIZE = _load(files("engines.ambush") / "cards.json")
AMBUSH = "ambush"
# Card ids in the order of the data file: hands and listings are sorted by it.
CARD_ORDER: dict[str, int] = {card_id: index for index, card_id in enumerate(CARDS)}
# ``Card.needs_target`` by id, read once here: listings ask it for every card in hand.
NEEDS_TARGET: dict[str, bool] = {card_id: card.needs_target for card_id, card in CARDS.items()}
# ``Card.effect`` by id, for the same listings.
EFFECT_OF: dict[str, str] = {card_id: card.effect for card_id, card in CARDS.items()}


def full_deck() -> list[str]:
    """Every card of the deck once per copy, in data-file order (unshuffled)."""
    return [card.id for card in CARDS.values() for _ in range(card.count)]
