"""What HeuristicBot thinks the Ambush! cards are worth: capture values and play orders."""

from __future__ import annotations

from engines.ambush.cards import AMBUSH, CARDS

# How much a card is worth capturing (or keeping at the hand limit); unknown cells sit between.
VALUES: dict[str, float] = {
    "ambush": 9.0,
    "dragon": 8.5,
    "battering_ram": 8.0,
    "treasure": 7.0,
    "knight": 6.0,
    "elven_archer": 5.0,
    "fire_mage": 5.5,
    "healer": 5.0,
    "shieldbearer": 5.0,
    "scout": 4.5,
    "trickster": 4.0,
    "thief": 4.5,
    "footman": 4.0,
    "booby_trap": -5.0,
}
UNKNOWN_VALUE = 3.0
# In a race each cell's value is raised by a draw of up to this much (``choose_grab``): a
# remembered Dragon still comes before an unknown card, but bots holding the same memories
# spread over the cells instead of crowding one at a time (bench/race_share.py).
GRAB_SPREAD = 8.0
# A remembered card's value, and None (a cell not remembered) worth UNKNOWN_VALUE: one lookup.
WORTH: dict[str | None, float] = {None: UNKNOWN_VALUE}
WORTH.update(VALUES)
# The order HeuristicBot plays damaging cards in: most damage, Ambush! cards last among equals
# (kept for calls), then the least valuable; looked up per card instead of rebuilt each turn.
DAMAGE_ORDER: dict[str, tuple[int, bool, float]] = {
    card_id: (card.damage, card_id != AMBUSH, -VALUES.get(card_id, 0))
    for card_id, card in CARDS.items()
}


# The cards HeuristicBot plays for damage, and those it may play when it has none (it keeps
# its heals, wards and treasure).
DAMAGING = frozenset(card_id for card_id, card in CARDS.items() if card.damage > 0)
SPARE = frozenset(CARDS) - {"healer", "shieldbearer", "treasure"}
