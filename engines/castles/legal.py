"""Listing legal actions: every play, move and Action the checking code would accept."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from engines.base import ActionError
from engines.castles.board import (
    ACTION_CLASS,
    KIND_HP,
    KIND_TYPE,
    castle_zone,
    colour_id,
    enemy,
    has_in_play,
    is_soldier,
    middle_zone,
    seats_of,
    side_of,
    spec,
)
from engines.castles.cards import CARDS
from engines.castles.combat import SHOOTERS, archer_reach, target_refusal
from engines.castles.movement import engine_move_refusal, unit_destinations
from engines.castles.playing import (
    EFFECTS,
    effect_target_refusal,
    home_archers,
    rally_met,
    requirement_refusal,
)
from engines.castles.state import PLAY, Card, GameState
from engines.castles.state import board as in_play
from engines.castles.unit_actions import building_zone_refusal, close_refusal, unseen_cards

Action = dict[str, Any]
END_TURN: Action = {"type": "end_turn"}
RESIGN: Action = {"type": "resign"}
TARGETED_EFFECTS = frozenset({"repair", "medicine", "charge", "rout"})
# The card types each targeted Action card can take at all (Medicine: a Spy in its own Castle
# Zone counts as a Civilian); ``effect_target_refusal`` refuses every other type.
TARGET_TYPES = {
    "repair": ("building",),
    "medicine": ("soldier", "civilian", "special"),
    "charge": ("soldier",),
    "rout": ("soldier",),
}
CLOSE_ACTORS = frozenset({"assassin", "mason", "medic"})
TARGETERS = SHOOTERS | CLOSE_ACTORS  # the Actions that name a card in play
BUILDINGS = frozenset(kind for kind, card_type in KIND_TYPE.items() if card_type == "building")
CARRIED = frozenset(kind for kind, card in CARDS.items() if card.carriers > 0)  # Catapult, Cannon

# Candidates are not tried through ``apply``'s raising checks: a refusal costs an exception and
# bots ask for this list before every action. They are tested with the ``*_refusal`` predicates
# those checks raise from, so the two cannot disagree (test_legal.py compares them too).


def _accepted(check: Callable[..., object], *args: Any) -> bool:
    """Whether the checking code (the same ``apply`` runs) accepts these arguments; kept for
    Resurrection's few pairs, a rare card whose check has no separate predicate."""
    try:
        check(*args)
    except ActionError:
        return False
    return True


# Destinations by every fact ``unit_destinations`` reads: the unit's kind, side, zone and
# charge, whether its General stands with it, whether its side has a Siege Tower in the enemy
# Middle Zone and whether the enemy has a Wall there. A pure function of that key, so one memo
# serves every match (at most a few thousand keys); listings ask it for every unit each time.
DESTINATIONS: dict[tuple[str, int, int, bool, bool, bool, bool], tuple[int, ...]] = {}


def turn_actions(state: GameState, seat: int) -> list[Action]:
    """The active seat's choices: end the turn first (the time-out default), resign last."""
    side = side_of(seat)
    board = in_play(state)
    mine = [c for c in board if c.side == side]
    actions: list[Action] = [END_TURN]
    actions.extend(_plays(state, seat, side, board))
    # Cards of one side that share a kind, a zone (and, for moves, a charge) have the same
    # destinations and targets: the checks read nothing else of the card. Soldiers stack, so
    # each group is worked out once and then listed for every card in it.
    foe_middle = middle_zone(enemy(side))
    general = state.cards[colour_id(side, "general")]
    general_zone = general.zone if general.place == PLAY else -1
    siege = has_in_play(state, side, "siege_tower", foe_middle)
    wall = has_in_play(state, enemy(side), "wall", foe_middle)
    acts: list[Action] = []  # listed after every move; gathered in the same pass
    targets: dict[tuple[str, int], list[int]] = {}
    # A card's moves (acts) are listed again as the same dicts while its destinations (targets)
    # are the same: a listing follows every action, and most leave most cards' choices alone.
    moves_listed, acts_listed = state.listed
    for card in mine:
        kind = card.kind
        if card.moves > 0:
            if kind not in BUILDINGS:
                key = (kind, side, card.zone, card.charged, card.zone == general_zone, siege, wall)
                zones = DESTINATIONS.get(key)
                if zones is None:
                    zones = DESTINATIONS[key] = tuple(_destinations(state, card))
                listed = moves_listed[card.id]
                if listed is None or listed[0] is not zones:  # DESTINATIONS keeps its tuples
                    moves = [{"type": "move", "card": card.id, "to": to} for to in zones]
                    listed = moves_listed[card.id] = (zones, moves)
                actions += listed[1]
            elif kind in CARRIED:  # the other Buildings never move
                actions += _engine_moves(state, card, mine)
        if card.acts > 0:
            if kind in TARGETERS:
                where = (kind, card.zone)
                hits = targets.get(where)
                if hits is None:
                    hits = targets[where] = _targets(state, card, board)
                done = acts_listed[card.id]
                if done is None or done[0] != hits:
                    shots = [{"type": "act", "card": card.id, "target": t} for t in hits]
                    done = acts_listed[card.id] = (hits, shots)
                acts += done[1]
            elif kind == "builder" or kind == "spy":  # the Castle, General... have no Action
                acts += _other_acts(state, seat, card)
    actions += acts
    actions.append(RESIGN)
    return actions


def _plays(state: GameState, seat: int, side: int, board: list[Card]) -> list[Action]:
    out: list[Action] = []
    seen: set[str] = set()
    cards = state.cards
    home, middle = castle_zone(side), middle_zone(side)
    refusals: dict[str, str | None] = {}  # by action class: the requirements read nothing else
    for card_id in state.hands[seat]:
        card = cards[card_id]
        kind = card.kind
        if kind in seen:
            continue  # identical cards give identical choices: list the first copy only
        seen.add(kind)
        kind_type = KIND_TYPE[kind]
        if kind_type == "soldier" or kind_type == "civilian":
            out.append({"type": "play", "card": card_id, "zone": home})
            out.append({"type": "play", "card": card_id, "zone": middle})
        elif kind_type == "action" and kind in EFFECTS:
            action_class = ACTION_CLASS[kind]
            if action_class not in refusals:
                refusals[action_class] = requirement_refusal(state, side, card)
            if refusals[action_class] is None:
                out.extend(_effect_choices(state, side, card, board))
    return out


def _effect_choices(state: GameState, side: int, card: Card, board: list[Card]) -> list[Action]:
    kind = card.kind
    if kind in TARGETED_EFFECTS:
        # Cheap first cuts, each a refusal the predicate would give anyway: the card type, full
        # HP for Repair and Medicine (most cards), Rout under the enemy General or Watchtower
        # (the first target's refusal stands for all). The refusal predicate decides the rest.
        types = TARGET_TYPES[kind]
        mends = kind == "repair" or kind == "medicine"
        out: list[Action] = []
        for t in board:
            if KIND_TYPE[t.kind] not in types or (mends and t.hp >= KIND_HP[t.kind]):
                continue
            refusal = effect_target_refusal(state, side, kind, t)
            if refusal is None:
                out.append({"type": "play", "card": card.id, "target": t.id})
            elif refusal == "rout_forbidden":
                return []
        return out
    base: Action = {"type": "play", "card": card.id}
    if kind == "incendiarism":
        return [{**base, "zone": z} for z in range(6)]  # its only check: a zone 0..5
    if kind == "arrow_rain":
        return [base] if home_archers(state, side) else []
    if kind == "rally_forces":
        soldiers = [c for c in board if c.side == side and KIND_TYPE[c.kind] == "soldier"]
        return [base] if rally_met(side, soldiers) else []
    if kind in ("ambush", "plague", "lightning_storm"):
        return [base]  # no check beyond the requirements
    if kind == "resurrection":  # a few pairs, tried through its own check
        options = [{**base, "targets": pair} for pair in _fallen_pairs(state)]
    else:
        options = [base]
    return [a for a in options if _accepted(EFFECTS[kind], state, side, a)]


def _fallen_pairs(state: GameState) -> list[list[int]]:
    """Resurrection choices, one per pair of kinds (same-kind Soldiers are interchangeable)."""
    fallen = [i for i in state.discard if is_soldier(state.cards[i])]
    pairs: dict[tuple[str, ...], list[int]] = {}
    for pair in combinations(fallen, min(2, len(fallen))):
        pairs.setdefault(tuple(sorted(state.cards[i].kind for i in pair)), list(pair))
    return list(pairs.values())


def _engine_moves(state: GameState, card: Card, mine: list[Card]) -> list[Action]:
    """A Catapult's or Cannon's moves with every group of carriers, by ``plan_move``'s checks."""
    kind = spec(card)
    if kind.carriers == 0:
        return []
    able = [
        c
        for c in mine
        if c.zone == card.zone and c.moves > 0 and KIND_TYPE[c.kind] in ("soldier", "civilian")
    ]
    out: list[Action] = []
    for to in (card.zone - 1, card.zone + 1):
        for group in combinations(able, kind.carriers):
            if engine_move_refusal(state, card, to, list(group)) is None:
                out.append(
                    {"type": "move", "card": card.id, "to": to, "with": [c.id for c in group]}
                )
    return out


def _destinations(state: GameState, card: Card) -> list[int]:
    """The zones a unit with a move left may go to, by ``plan_move``'s checks."""
    kind = spec(card)
    reach = 2 if kind.move > 1 or kind.type == "soldier" else 1  # General, Charge: 2
    return unit_destinations(state, card, reach)


def _targets(state: GameState, card: Card, board: list[Card]) -> list[int]:
    """The cards in play a shooter, Assassin, Mason or Medic may act on (``check_action``).

    Cards beyond the actor's reach (or, but for the Wizard, on its own side) are skipped before
    the refusal predicates run: those predicates refuse them anyway, and most of the board is
    out of reach of most actors."""
    zone = card.zone
    if card.kind in SHOOTERS:
        kind = card.kind
        if kind == "wizard":
            return [t.id for t in board if target_refusal(state, card, t) is None]
        if kind == "archer":
            reach = archer_reach(state, card)[0]
        else:
            reach = 0 if kind == "spearman" else spec(card).range
        foe = enemy(card.side)
        return [
            t.id
            for t in board
            if t.side == foe
            and zone - reach <= t.zone <= zone + reach
            and target_refusal(state, card, t) is None
        ]
    if card.kind == "assassin":
        return [t.id for t in board if t.zone == zone and close_refusal(card, t) is None]
    # The Mason and the Medic mend: a card at full HP (most of them) is refused anyway.
    return [
        t.id
        for t in board
        if t.zone == zone and t.hp < KIND_HP[t.kind] and close_refusal(card, t) is None
    ]


def _other_acts(state: GameState, seat: int, card: Card) -> list[Action]:
    """The Builder's and the Spy's Actions, by the checks of ``unit_actions.check_action``."""
    if card.kind == "builder":
        return [
            {"type": "act", "card": card.id, "build": card_id}
            for card_id in state.hands[seat]
            if spec(state.cards[card_id]).type == "building"
            and building_zone_refusal(state.cards[card_id], card.side, card.zone) is None
        ]
    if card.kind == "spy":
        foe = enemy(card.side)
        if card.zone != castle_zone(foe):
            return []  # the Spy looks only from the enemy Castle
        return [
            {"type": "act", "card": card.id, "seat": s}
            for s in seats_of(state, foe)
            if unseen_cards(state, card.side, s)
        ]
    return []


def window_actions(state: GameState, seat: int) -> list[Action]:
    """A responder's choices: pass first (the time-out default), then Traps and strikes."""
    window = state.window
    if window is None or seat not in window.responders:
        return []
    actions: list[Action] = [{"type": "pass"}]
    if window.trap_targets and not state.prompts_off[seat]:
        actions.append({"type": "trap_prompts_off"})
        traps = [i for i in state.hands[seat] if state.cards[i].kind == "trap"]
        if traps:
            actions.extend(
                {"type": "trap", "card": traps[0], "target": t} for t in window.trap_targets
            )
    side = side_of(seat)
    for card in state.cards:
        if (
            card.place == PLAY
            and card.side == side
            and is_soldier(card)
            and (card.id not in window.struck)
        ):
            actions.extend(
                {"type": "strike", "card": card.id, "target": t} for t in window.strike_targets
            )
    actions.append(RESIGN)
    return actions
