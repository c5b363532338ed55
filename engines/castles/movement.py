"""Movement: ranges (General, Spy, Assassin, Charge), walls, siege towers, carried engines."""

from __future__ import annotations

from dataclasses import dataclass

from engines.base import Event, IllegalAction, make_event
from engines.castles.board import (
    castle_zone,
    enemy,
    forward,
    front_zone,
    has_in_play,
    is_soldier,
    middle_zone,
    river_between,
    spec,
    terrain,
)
from engines.castles.state import PLAY, Card, GameState

CODE = "castles/"


@dataclass(frozen=True)
class MovePlan:
    """A checked move: the cards that go (the mover first, then carriers) and their path."""

    movers: tuple[int, ...]
    path: tuple[int, ...]  # zones entered, in order


def step_refusal(state: GameState, card: Card, a: int, b: int) -> str | None:
    """Why ``card`` may not step from zone ``a`` into the adjacent zone ``b``, or None."""
    side = card.side
    if not 0 <= b <= 5:
        return "bad_zone"
    if b == castle_zone(enemy(side)):
        siege = a == middle_zone(enemy(side)) and has_in_play(state, side, "siege_tower", a)
        if not (spec(card).enters_enemy_castle or (is_soldier(card) and siege)):
            return "enemy_castle"
    walled = has_in_play(state, enemy(side), "wall", b)
    foot = spec(card).type in ("soldier", "civilian")
    if foot and walled and b == middle_zone(enemy(side)) and a == front_zone(enemy(side)):
        return "blocked"
    return None


def unit_reach(state: GameState, card: Card, to: int) -> bool:
    """Whether ``to`` is within this unit's move: 1 zone, 2 for Spy and Assassin, 2 for a
    Soldier standing with its General, 2 forwards for a charged Soldier."""
    distance = abs(to - card.zone)
    if distance <= spec(card).move:
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
        return _plan_engine_move(state, card, to, carriers)
    if carriers:
        raise IllegalAction(CODE + "bad_carrier", "only a Catapult or Cannon is carried")
    if not unit_reach(state, card, to):
        raise IllegalAction(CODE + "out_of_range", "too far for this card")
    step = 1 if to > card.zone else -1
    path = tuple(range(card.zone + step, to + step, step))
    here = card.zone
    for zone in path:
        refusal = step_refusal(state, card, here, zone)
        if refusal:
            raise IllegalAction(CODE + refusal, f"cannot enter zone {zone}")
        here = zone
    return MovePlan((card.id,), path)


def _plan_engine_move(state: GameState, card: Card, to: int, carriers: list[Card]) -> MovePlan:
    needed = spec(card).carriers
    if needed == 0:
        raise IllegalAction(CODE + "cannot_move", "this Building never moves")
    if abs(to - card.zone) != 1:
        raise IllegalAction(CODE + "out_of_range", "a carried engine moves one zone")
    if to == castle_zone(enemy(card.side)):
        raise IllegalAction(CODE + "enemy_castle", "engines cannot enter the enemy Castle Zone")
    if len({c.id for c in carriers}) < needed:
        raise IllegalAction(CODE + "cannot_move", f"needs {needed} Civilians or Soldiers")
    for carrier in carriers:
        if (
            carrier.place != PLAY
            or carrier.side != card.side
            or carrier.zone != card.zone
            or spec(carrier).type not in ("soldier", "civilian")
        ):
            raise IllegalAction(CODE + "bad_carrier", "carriers are your units in its zone")
        if carrier.moves < 1:
            raise IllegalAction(CODE + "already_moved", "a carrier has no move left")
        refusal = step_refusal(state, carrier, card.zone, to)
        if refusal:
            raise IllegalAction(CODE + refusal, f"a carrier cannot enter zone {to}")
    return MovePlan((card.id, *sorted({c.id for c in carriers})), (to,))


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
        events.append(make_event("moved", card=card.id, start=start, to=here))
        if foot and entered_middle:
            trap_targets.append(card.id)
        if foot and crossed:
            strike_targets.append(card.id)
    return events, trap_targets, strike_targets
