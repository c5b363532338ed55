"""The six-zone board: zone geometry, sides and seats, card classes and in-play queries.

Zones are numbered 0..5 from Red's Castle Zone to Blue's: Red (side 0) owns 0 Castle, 1 Middle,
2 Front; Blue (side 1) owns 5 Castle, 4 Middle, 3 Front. Seat ``s`` plays for side ``s % 2``.
"""

from __future__ import annotations

from engines.castles.cards import CARDS, COLOUR_SET, CardSpec
from engines.castles.state import PLAY, Card, GameState, board

ZONES = range(6)
ROLES = ("castle", "middle", "front", "front", "middle", "castle")
TERRAINS = frozenset({"plains", "hills", "high_hills", "lake", "forest", "marsh"})


def side_of(seat: int) -> int:
    return seat % 2


def enemy(side: int) -> int:
    return 1 - side


def seats_of(state: GameState, side: int) -> list[int]:
    return [seat for seat in range(state.seats) if seat % 2 == side]


def zone_side(zone: int) -> int:
    return 0 if zone < 3 else 1


def castle_zone(side: int) -> int:
    return 0 if side == 0 else 5


def middle_zone(side: int) -> int:
    return 1 if side == 0 else 4


def front_zone(side: int) -> int:
    return 2 if side == 0 else 3


def forward(side: int) -> int:
    """The direction (+1 or -1) in which ``side`` advances towards the enemy Castle."""
    return 1 if side == 0 else -1


def depth(side: int, zone: int) -> int:
    """How far ``zone`` lies from ``side``'s Castle Zone: 0 own Castle .. 5 enemy Castle."""
    return zone if side == 0 else 5 - zone


# Per-kind facts as plain dicts: the rules ask "is this a Soldier?" hundreds of times for each
# list of legal actions, and one dict lookup is cheaper than reaching through the CardSpec.
KIND_TYPE: dict[str, str] = {kind: card.type for kind, card in CARDS.items()}
ACTION_CLASS: dict[str, str] = {kind: card.action_class for kind, card in CARDS.items()}
KIND_HP: dict[str, int] = {kind: card.hp for kind, card in CARDS.items()}  # printed (full) HP
SOLDIER_KINDS = tuple(kind for kind, card_type in KIND_TYPE.items() if card_type == "soldier")
COLOUR_INDEX: dict[str, int] = {kind: index for index, kind in enumerate(COLOUR_SET)}


def spec(card: Card) -> CardSpec:
    return CARDS[card.kind]


def colour_id(side: int, kind: str) -> int:
    """The id of a side's colour card (the five of each side come first, Red's then Blue's)."""
    return side * len(COLOUR_SET) + COLOUR_INDEX[kind]


def is_soldier(card: Card) -> bool:
    return KIND_TYPE[card.kind] == "soldier"


def is_civilian(card: Card) -> bool:
    """A Civilian, or a Spy in its own Castle Zone (its text: treated as a Civilian there)."""
    if KIND_TYPE[card.kind] == "civilian":
        return True
    return card.kind == "spy" and card.zone == castle_zone(card.side)


def is_special(card: Card) -> bool:
    return KIND_TYPE[card.kind] == "special" and not is_civilian(card)


def mend_refusal(target: Card, *, buildings: bool) -> str | None:
    """Why ``target`` cannot be mended: Repair and the Mason mend buildings (``buildings``),
    Medicine and the Medic soldiers and civilians. bad_target, then full_hp."""
    # KIND_TYPE lookups rather than is_soldier() & co.: listings ask this for every card in
    # reach, before every action.
    target_type = KIND_TYPE[target.kind]
    if buildings:
        fits = target_type == "building"
    else:
        fits = target_type == "soldier" or is_civilian(target)
    if not fits:
        return "bad_target"
    return "full_hp" if target.hp >= KIND_HP[target.kind] else None


def is_building(card: Card) -> bool:
    return KIND_TYPE[card.kind] == "building"


def is_unit(card: Card) -> bool:
    """Soldiers, Civilians and Specials: what Incendiarism burns and what moves by itself."""
    return spec(card).is_unit


def in_play(state: GameState) -> list[Card]:
    """The cards in play, in id order: the list ``state.board`` keeps, which ``enter_play`` and
    ``destroy`` drop (so it holds in the middle of an action too); read it, never change it."""
    return board(state)


def has_in_play(state: GameState, side: int, kind: str, zone: int | None = None) -> bool:
    """Whether ``side`` has a ``kind`` card in play (in ``zone``); hot in every rules check."""
    if kind in COLOUR_INDEX:  # one per side, at a fixed id
        card = state.cards[colour_id(side, kind)]
        return card.place == PLAY and (zone is None or card.zone == zone)
    for card in state.by_kind.get(kind, ()):
        if card.place == PLAY and card.side == side and (zone is None or card.zone == zone):
            return True
    return False


def terrain(state: GameState, zone: int) -> str:
    return state.terrain[zone]


def river_between(state: GameState, a: int, b: int) -> bool:
    """Rivers run between zones: boundary ``i`` separates zone ``i`` from zone ``i + 1``."""
    return min(a, b) in state.rivers and abs(a - b) == 1


def has_forward_soldier(state: GameState, side: int) -> bool:
    """A Soldier of ``side`` outside its own Castle Zone, not on a Marsh (Special Attacks)."""
    home = castle_zone(side)
    for kind in SOLDIER_KINDS:  # the Soldier cards only, not all eighty
        for card in state.by_kind.get(kind, ()):
            if (
                card.place == PLAY
                and card.side == side
                and card.zone != home
                and state.terrain[card.zone] != "marsh"
            ):
                return True
    return False
