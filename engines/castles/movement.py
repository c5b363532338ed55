"""Movement: ranges (General, Spy, Assassin, Charge), walls, siege towers, carried engines."""

from __future__ import annotations

from dataclasses import dataclass

from engines.base import ALL, Event, IllegalAction
from engines.castles.board import (
    KIND_TYPE,
    castle_zone,
    enemy,
    forward,
    has_in_play,
    is_soldier,
    middle_zone,
    river_between,
    spec,
    terrain,
)
from engines.castles.cards import CARDS
from engines.castles.state import PLAY, Card, GameState, edited

CODE = "castles/"


@dataclass(frozen=True)
class MovePlan:
    """A checked move: the cards that go (the mover first, then carriers) and their path."""

    movers: tuple[int, ...]
    path: tuple[int, ...]  # zones entered, in order


MOVE = {kind: card.move for kind, card in CARDS.items()}


def step_refusal(state: GameState, card: Card, a: int, b: int) -> str | None:
    """Why ``card`` may not step from zone ``a`` into the adjacent zone ``b``, or None."""
    if not 0 <= b <= 5:
        return "bad_zone"
    side = card.side
    # The enemy's Castle, Middle and Front Zones, spelled out rather than three calls of the
    # board helpers: this runs for every step of every move the legal-action listing tries.
    foe_castle, foe_middle, foe_front = (5, 4, 3) if side == 0 else (0, 1, 2)
    if b == foe_castle:
        siege = a == foe_middle and has_in_play(state, side, "siege_tower", a)
        if not (CARDS[card.kind].enters_enemy_castle or (is_soldier(card) and siege)):
            return "enemy_castle"
    # Only a foot unit stepping from the enemy Front into the enemy Middle can meet a Wall.
    if b == foe_middle and a == foe_front:
        foot = KIND_TYPE[card.kind] in ("soldier", "civilian")
        if foot and has_in_play(state, enemy(side), "wall", b):
            return "blocked"
    return None


def unit_reach(state: GameState, card: Card, to: int) -> bool:
    """Whether ``to`` is within this unit's move: 1 zone, 2 for Spy and Assassin, 2 for a
    Soldier standing with its General, 2 forwards for a charged Soldier."""
    distance = abs(to - card.zone)
    if distance <= MOVE[card.kind]:
        return True
    if distance != 2 or not is_soldier(card):
        return False
    if has_in_play(state, card.side, "general", card.zone):
        return True
    return card.charged and (to - card.zone) * forward(card.side) > 0


def plan_move(state: GameState, card: Card, to: int, carriers: list[Card]) -> MovePlan:
    """Check a move of ``card`` (with ``carriers`` for a Catapult or Cannon).

    Raises ``IllegalAction``: castles/cannot_move (a fixed Building or too few carriers),
    castles/already_moved (no move left, or played this turn), castles/out_of_range,
    castles/enemy_castle, castles/blocked (a Wall), castles/bad_carrier.
    """
    if card.moves < 1:
        raise IllegalAction(CODE + "already_moved", "this card cannot move again this turn")
    if to == card.zone:
        raise IllegalAction(CODE + "out_of_range", "a move goes to another zone")
    if spec(card).type == "building":
        refusal = engine_move_refusal(state, card, to, carriers)
        if refusal:
            raise IllegalAction(CODE + refusal, f"this engine cannot be carried to zone {to}")
        return MovePlan((card.id, *sorted({c.id for c in carriers})), (to,))
    if carriers:
        raise IllegalAction(CODE + "bad_carrier", "only a Catapult or Cannon is carried")
    refusal = unit_move_refusal(state, card, to)
    if refusal:
        raise IllegalAction(CODE + refusal, f"this card cannot move to zone {to}")
    step = 1 if to > card.zone else -1
    return MovePlan((card.id,), tuple(range(card.zone + step, to + step, step)))


def unit_move_refusal(state: GameState, card: Card, to: int) -> str | None:
    """Why a unit with a move left may not go from its zone to another zone ``to`` (a code
    suffix: out_of_range or a ``step_refusal`` on the way), or None. ``plan_move`` and the
    legal-action listing both ask this, so they cannot disagree."""
    if not unit_reach(state, card, to):
        return "out_of_range"
    step = 1 if to > card.zone else -1
    here = card.zone
    for zone in range(here + step, to + step, step):
        refusal = step_refusal(state, card, here, zone)
        if refusal:
            return refusal
        here = zone
    return None


def unit_destinations(state: GameState, card: Card, reach: int) -> list[int]:
    """The zones within ``reach`` that ``unit_move_refusal`` accepts for ``card``, ascending.

    The same checks, walked outwards one step at a time: a refused step also closes every
    zone beyond it, so each step is checked once instead of once per destination behind it
    (the legal-action listing asks this for every unit, before every action).
    """
    sides: list[list[int]] = []
    for step in (-1, 1):
        found: list[int] = []
        here = card.zone
        for _ in range(reach):
            to = here + step
            if not 0 <= to <= 5 or step_refusal(state, card, here, to):
                break
            if unit_reach(state, card, to):
                found.append(to)
            here = to
        sides.append(found)
    return sides[0][::-1] + sides[1]


def engine_move_refusal(state: GameState, card: Card, to: int, carriers: list[Card]) -> str | None:
    """Why a Building with a move left may not be carried to zone ``to`` by ``carriers``:
    cannot_move, out_of_range, enemy_castle, bad_carrier, already_moved or a step refusal."""
    needed = spec(card).carriers
    if needed == 0:
        return "cannot_move"  # this Building never moves
    if abs(to - card.zone) != 1:
        return "out_of_range"  # a carried engine moves one zone
    if to == castle_zone(enemy(card.side)):
        return "enemy_castle"  # engines never enter the enemy Castle Zone
    if len({c.id for c in carriers}) < needed:
        return "cannot_move"  # too few Civilians or Soldiers
    for carrier in carriers:
        if (
            carrier.place != PLAY
            or carrier.side != card.side
            or carrier.zone != card.zone
            or spec(carrier).type not in ("soldier", "civilian")
        ):
            return "bad_carrier"  # carriers are your units in its zone
        if carrier.moves < 1:
            return "already_moved"
        refusal = step_refusal(state, carrier, card.zone, to)
        if refusal:
            return refusal
    return None


def execute_move(state: GameState, plan: MovePlan) -> tuple[list[Event], list[int], list[int]]:
    """Move the cards; return the events, Trap targets and opportunity-strike targets."""
    events: list[Event] = []
    trap_targets: list[int] = []
    strike_targets: list[int] = []
    for card_id in plan.movers:
        card = state.cards[card_id]
        start = card.zone
        here = start
        foot = spec(card).type in ("soldier", "civilian")
        entered_middle = crossed = False
        for zone in plan.path:
            entered_middle = entered_middle or zone == middle_zone(enemy(card.side))
            crossed = crossed or river_between(state, here, zone)
            crossed = crossed or (is_soldier(card) and terrain(state, zone) == "high_hills")
            here = zone
        card.zone = here
        card.moves -= 1
        edited(state, card)
        # A literal event, as ``make_event`` builds it: moves are frequent.
        events.append(
            {"type": "moved", "card": card.id, "start": start, "to": here, "visible_to": ALL}
        )
        if foot and entered_middle:
            trap_targets.append(card.id)
        if foot and crossed:
            strike_targets.append(card.id)
    return events, trap_targets, strike_targets
