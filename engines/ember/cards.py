"""The Ember card data (``cards.json`` beside this file): loaded and validated once at import."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MODES = ("protection", "attack", "hasty", "greedy")
PLAYS = ("emberscape", "lasting", "face_down", "discard", "collection", "mode")
# Cards with these play symbols land in the emberscape and so need a free slot there.
SCAPE_PLAYS = frozenset({"emberscape", "lasting", "face_down"})
LASTING = ("extra_draw", "ward_hand", "ward_scape")
RESPONSES = ("martyr", "ward", "vengeance", "dispel")
SOURCES = ("rulebook", "house")

# Attacks name an opponent; the first group also names one card in that opponent's emberscape.
CARD_ATTACKS = frozenset(
    {"steal_scape", "destroy_scape", "capture", "collect_scape", "return_scape"}
)
HAND_ATTACKS = frozenset({"steal_hand", "destroy_hand"})
ATTACKS = CARD_ATTACKS | HAND_ATTACKS | {"hex"}
# Rulebook, Mode symbols: protection stops steal, destroy, capture and collect, nothing else.
PROTECTABLE = frozenset(
    {"steal_scape", "destroy_scape", "capture", "collect_scape", "steal_hand", "destroy_hand"}
)
# Effects that choose one of your own cards (declared when the card is played).
CHOICES = frozenset({"add_from_hand", "return_own", "collect_own", "rune_swap"})
EFFECTS = ATTACKS | CHOICES | {"draw"}


@dataclass(frozen=True)
class Card:
    """One card kind: mode symbol, stones, play symbol, effects, response or lasting kind."""

    id: str
    name: str
    mode: str
    stones: int
    play: str
    effects: tuple[tuple[str, int], ...]
    response: str | None
    lasting: str | None
    source: str
    text: str
    to_scape: bool
    """Whether the play symbol lands the card in the emberscape (so it needs a free slot)."""
    attack: str | None
    """The card's attack effect (at most one), or None."""
    choice: str | None
    """The card's own-card choice effect (at most one; hex also chooses a hand card), or None.

    Both are read for every legal listing and bot decision, so they are worked out once here.
    """


@dataclass(frozen=True)
class Hero:
    """A hero and the card counts of its 30-card deck (commons plus its unique cards)."""

    id: str
    name: str
    color: str
    strategy: str
    deck: tuple[tuple[str, int], ...]

    def card_list(self) -> list[str]:
        return [card for card, count in self.deck for _ in range(count)]


class CardDataError(ValueError):
    """``cards.json`` breaks one of the rules the engine relies on."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise CardDataError(message)


def _card(raw: Mapping[str, Any]) -> Card:
    cid = raw.get("id")
    _check(isinstance(cid, str) and cid != "", f"card without id: {raw}")
    _check(raw.get("mode") in MODES, f"{cid}: bad mode")
    _check(raw.get("play") in PLAYS, f"{cid}: bad play symbol")
    _check(raw.get("source") in SOURCES, f"{cid}: source must be rulebook or house")
    stones = raw.get("stones")
    _check(isinstance(stones, int) and 0 <= stones <= 5, f"{cid}: bad stones")
    effects: list[tuple[str, int]] = []
    for effect in raw.get("effects", []):
        _check(effect.get("do") in EFFECTS, f"{cid}: unknown effect {effect}")
        effects.append((str(effect["do"]), int(effect.get("n", 1))))
    kinds = [do for do, _ in effects]
    _check(sum(do in ATTACKS for do in kinds) <= 1, f"{cid}: more than one attack")
    _check(sum(do in CHOICES or do == "hex" for do in kinds) <= 1, f"{cid}: two choices")
    lasting = raw.get("lasting")
    _check((lasting in LASTING) == (raw["play"] == "lasting"), f"{cid}: lasting mismatch")
    response = raw.get("response")
    _check(response is None or response in RESPONSES, f"{cid}: bad response")
    # A response that works from the emberscape must be hidden there (face down).
    _check(
        raw["play"] != "face_down" or response in (None, "ward", "vengeance"),
        f"{cid}: face-down response kind",
    )
    # A ward's whole effect is its protection symbol landing on the mode pile.
    _check(response != "ward" or raw["mode"] == "protection", f"{cid}: a ward must protect")
    _check(isinstance(raw.get("text"), str) and raw["text"] != "", f"{cid}: no text")
    assert isinstance(cid, str) and isinstance(stones, int)
    return Card(
        id=cid,
        name=str(raw["name"]),
        mode=str(raw["mode"]),
        stones=stones,
        play=str(raw["play"]),
        effects=tuple(effects),
        response=response,
        lasting=lasting,
        source=str(raw["source"]),
        text=str(raw["text"]),
        to_scape=raw["play"] in SCAPE_PLAYS,
        attack=next((do for do in kinds if do in ATTACKS), None),
        choice=next((do for do in kinds if do in CHOICES or do == "hex"), None),
    )


def load(data: Mapping[str, Any]) -> tuple[dict[str, Card], dict[str, Hero]]:
    """Validate raw card data; raises ``CardDataError`` on any broken rule."""
    cards: dict[str, Card] = {}
    for raw in data["cards"]:
        card = _card(raw)
        _check(card.id not in cards, f"duplicate card {card.id}")
        cards[card.id] = card
    common: dict[str, int] = dict(data["common"])
    heroes: dict[str, Hero] = {}
    for raw in data["heroes"]:
        counts = dict(common)
        for cid, count in raw["unique"].items():
            counts[cid] = counts.get(cid, 0) + int(count)
        for cid in counts:
            _check(cid in cards, f"{raw['id']}: unknown card {cid}")
        total = sum(counts.values())
        _check(total == data["deck_size"], f"{raw['id']}: deck of {total} cards")
        heroes[raw["id"]] = Hero(
            id=str(raw["id"]),
            name=str(raw["name"]),
            color=str(raw["color"]),
            strategy=str(raw["strategy"]),
            deck=tuple(sorted(counts.items())),
        )
    _check(len(heroes) == 4, "Ember has four heroes")
    used = set(common) | {cid for hero in data["heroes"] for cid in hero["unique"]}
    _check(used == set(cards), f"cards in no deck: {sorted(set(cards) - used)}")
    return cards, heroes


CARDS, HEROES = load(json.loads((Path(__file__).with_name("cards.json")).read_text("utf-8")))
HERO_IDS: tuple[str, ...] = tuple(HEROES)
DECK_SIZE = 30
