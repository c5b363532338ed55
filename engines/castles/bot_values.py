"""The heuristic bot's values: what it wants gone, what it wants built, how it scores moves."""

from __future__ import annotations

from typing import Any

VALUE = {  # how much a side wants an enemy card gone
    # Low for the Castle: cutting down the units that guard it wins sooner than chipping at it
    # (measured against the earlier value 9: wins most games, and they end in fewer turns).
    "castle": 3,
    "general": 7,
    "wizard": 7,
    "spearman": 5,
    "archer": 5,
    "catapult": 4,
    "cannon": 3,
    "siege_tower": 4,
    "builder": 3,
    "armoury": 3,
    "medic": 2,
    "mason": 2,
    "assassin": 4,
    "spy": 2,
    "wall": 2,
    "watchtower": 2,
}
BUILD_VALUE = {  # what a Builder should put up first
    "wall": 9,
    "armoury": 7,
    "catapult": 6,
    "cannon": 4,
    "watchtower": 3,
    "siege_tower": 5,
}


LAST_DITCH_HP = 10  # Masons mend the Castle only from here down (an Action for 1 HP of 50)
COUNTED_PLAYS = frozenset({"ambush", "arrow_rain", "rally_forces"})  # read ``_Scorer.count``

# How a card's move is scored: by kind for the Spy, Assassin, General and Wizard, else by type
# (any other card by the Soldiers' rule). Nonzero: ``choose`` reads the memo with ``or``.
NO_GAIN, SOLDIER, SPY, ASSASSIN, CIVILIAN, BUILDING = range(1, 7)
KIND_MOVE_RULES = {"spy": SPY, "assassin": ASSASSIN, "general": NO_GAIN, "wizard": NO_GAIN}
TYPE_MOVE_RULES = {"civilian": CIVILIAN, "building": BUILDING}
RULE_OF_KIND: dict[str, int] = {}  # a kind's rule, filled as kinds are met (a kind has one type)


def move_rule(card: dict[str, Any]) -> int:
    """The rule that scores moves of ``card`` (kept in RULE_OF_KIND)."""
    rule = KIND_MOVE_RULES.get(card["kind"])
    if rule is None:
        rule = TYPE_MOVE_RULES.get(card["type"], SOLDIER)
    RULE_OF_KIND[card["kind"]] = rule
    return rule
