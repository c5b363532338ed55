"""Listing legal actions: every play, move and Action the checking code would accept."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engines.castles.board import (
    KIND_HP,
    KIND_TYPE,
    castle_zone,
    colour_id,
    enemy,
    has_in_play,
    is_soldier,
    seats_of,
    side_of,
    spec,
)
from engines.castles.cards import CARDS
from engines.castles.combat import SHOOTERS, archer_reach, target_refusal
from engines.castles.legal_plays import plays
from engines.castles.movement import engine_move_refusal, unit_destinations
from engines.castles.state import PLAY, Card, GameState
from engines.castles.state import board as in_play
from engines.castles.unit_actions import building_zone_refusal, close_refusal, unseen_cards

Action = dict[str, Any]
END_TURN: Action = {"type": "end_turn"}
RESIGN: Action = {"type": "resign"}
# The Actions that take enemy cards only (``target_refusal`` and ``close_refusal`` refuse the
# others) and never read HP: their targets change only when an enemy card enters or leaves play
# or moves (``GameState.placed``). The Wizard may hit its own side, the Mason and Medic mend
# either side's damaged cards (``GameState.wounds``).
_FOE_TARGETS = frozenset({"spearman", "archer", "catapult", "cannon", "assassin"})
CLOSE_ACTORS = frozenset({"assassin", "mason", "medic"})
TARGETERS = SHOOTERS | CLOSE_ACTORS  # the Actions that name a card in play
BUILDINGS = frozenset(kind for kind, card_type in KIND_TYPE.items() if card_type == "building")
GENERALS = (colour_id(0, "general"), colour_id(1, "general"))  # their card ids, by side
CARRIED = frozenset(kind for kind, card in CARDS.items() if card.carriers > 0)  # Catapult, Cannon

# Candidates are not tried through ``apply``'s raising checks: a refusal costs an exception and
# bots ask for this list before every action. They are tested with the ``*_refusal`` predicates
# those checks raise from, so the two cannot disagree (test_legal.py compares them too). The
# plays from hand are listed by ``legal_plays``.

# Destinations by every fact ``unit_destinations`` reads: the unit's kind, side, zone and
# charge, whether its General stands with it, whether its side has a Siege Tower in the enemy
# Middle Zone and whether the enemy has a Wall there. A pure function of that key, so one memo
# serves every match (at most a few thousand keys); listings ask it for every unit each time.
DESTINATIONS: dict[tuple[str, int, int, bool, bool, bool, bool], tuple[int, ...]] = {}


def turn_actions(state: GameState, seat: int) -> list[Action]:
    """The active seat's choices: end the turn first (the time-out default), resign last."""
    side = seat % 2  # side_of(seat); the board helpers are spelled out below too: hot code
    board = in_play(state)
    kept_mine = state.mine[side]  # its cards in play, the same while the board is the same list
    if kept_mine is None or kept_mine[0] is not board:
        kept_mine = state.mine[side] = (board, [c for c in board if c.side == side])
    mine: list[Card] = kept_mine[1]
    actions: list[Action] = [END_TURN]
    actions += plays(state, seat, side, board, mine)
    # Cards of one side that share a kind, a zone (and, for moves, a charge) have the same
    # destinations and targets: the checks read nothing else of the card. Soldiers stack, so
    # each group is worked out once and then listed for every card in it.
    foe_middle = 4 if side == 0 else 1  # middle_zone(enemy(side))
    general = state.cards[GENERALS[side]]
    general_zone = general.zone if general.place == PLAY else -1
    siege = has_in_play(state, side, "siege_tower", foe_middle)
    wall = has_in_play(state, 1 - side, "wall", foe_middle)
    acts: list[Action] = []  # listed after every move; gathered in the same pass
    targets: dict[tuple[str, int], list[int]] = {}
    foes: list[Card] | None = None  # the enemy cards in play (the targets of most Actions)
    placed, kept_targets = state.placed, state.targets[side]
    # A card's moves (acts) are listed again as the same dicts while its destinations (targets)
    # are the same: a listing follows every action, and most leave most cards' choices alone.
    # ``around`` stands for the other facts its destinations depend on (DESTINATIONS' key; the
    # side too: a Soldier may come back for the other side through Resurrection).
    around = (side, general_zone, siege, wall)
    moves_listed, acts_listed = state.listed
    for card in mine:
        kind = card.kind
        if card.moves > 0:
            if kind not in BUILDINGS:
                listed = moves_listed[card.id]
                if (
                    listed is None
                    or listed[2] != card.zone
                    or listed[3] != card.charged
                    or listed[4] != around
                ):
                    zones = _unit_destinations(state, card, side, general_zone, siege, wall)
                    moves = [{"type": "move", "card": card.id, "to": to} for to in zones]
                    listed = moves_listed[card.id] = (zones, moves, card.zone, card.charged, around)
                actions += listed[1]
            elif kind in CARRIED:  # the other Buildings never move
                actions += _engine_moves(state, card, mine, wall)
        if card.acts > 0:
            if kind in TARGETERS:
                where = (kind, card.zone)
                hits = targets.get(where)
                if hits is None:
                    # Kept between listings while the cards they may take stand as they were
                    # (``GameState.placed``): the enemy's for most, both sides' for the others.
                    if kind in _FOE_TARGETS:
                        mark: Any = placed[1 - side]
                    elif kind == "wizard":
                        mark = (placed[0], placed[1])
                    else:  # the Mason and Medic mend: HP counts too
                        mark = (placed[0], placed[1], state.wounds)
                    kept = kept_targets.get(where)
                    if kept is None or kept[0] != mark:
                        if foes is None:  # the enemy's cards in play, kept as ``mine`` is
                            kept_foes = state.mine[1 - side]
                            if kept_foes is None or kept_foes[0] is not board:
                                kept_foes = state.mine[1 - side] = (
                                    board,
                                    [c for c in board if c.side != side],
                                )
                            foes = kept_foes[1]
                        kept = kept_targets[where] = (mark, _targets(state, card, board, foes))
                    hits = targets[where] = kept[1]
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


def _unit_destinations(
    state: GameState, card: Card, side: int, general_zone: int, siege: bool, wall: bool
) -> tuple[int, ...]:
    """``_destinations`` through the DESTINATIONS memo."""
    key = (card.kind, side, card.zone, card.charged, card.zone == general_zone, siege, wall)
    zones = DESTINATIONS.get(key)
    if zones is None:
        zones = DESTINATIONS[key] = tuple(_destinations(state, card))
    return zones


def _engine_moves(state: GameState, card: Card, mine: list[Card], wall: bool) -> list[Action]:
    """A Catapult's or Cannon's moves with every group of carriers, by ``plan_move``'s checks.

    They depend on its zone, the units able to carry it and whether an enemy Wall stands in the
    enemy Middle Zone (``wall``) only, so they are listed again as the same dicts until one of
    those changes (``GameState.listed``, which holds no unit's moves for a Building)."""
    kind = spec(card)
    if kind.carriers == 0:
        return []
    able = [
        c
        for c in mine
        if c.zone == card.zone and c.moves > 0 and KIND_TYPE[c.kind] in ("soldier", "civilian")
    ]
    key = (card.zone, [c.id for c in able], wall)
    moves_listed = state.listed[0]
    listed = moves_listed[card.id]
    if listed is None or listed[0] != key:
        out: list[Action] = []
        for to in (card.zone - 1, card.zone + 1):
            for group in combinations(able, kind.carriers):
                if engine_move_refusal(state, card, to, list(group)) is None:
                    out.append(
                        {"type": "move", "card": card.id, "to": to, "with": [c.id for c in group]}
                    )
        listed = moves_listed[card.id] = (key, out)
    moves: list[Action] = listed[1]
    return moves


def _destinations(state: GameState, card: Card) -> list[int]:
    """The zones a unit with a move left may go to, by ``plan_move``'s checks."""
    kind = spec(card)
    reach = 2 if kind.move > 1 or kind.type == "soldier" else 1  # General, Charge: 2
    return unit_destinations(state, card, reach)


def _targets(state: GameState, card: Card, board: list[Card], foes: list[Card]) -> list[int]:
    """The cards in play a shooter, Assassin, Mason or Medic may act on (``check_action``).

    Cards beyond the actor's reach (or, but for the Wizard, on its own side) are skipped before
    the refusal predicates run: those predicates refuse them anyway, and most of the board is
    out of reach of most actors. ``foes`` are the enemy cards in ``board``, in the same order."""
    zone = card.zone
    if card.kind in SHOOTERS:
        kind = card.kind
        if kind == "wizard":
            return [t.id for t in board if target_refusal(state, card, t) is None]
        if kind == "archer":
            reach = archer_reach(state, card)[0]
        else:
            reach = 0 if kind == "spearman" else spec(card).range
        return [
            t.id
            for t in foes
            if zone - reach <= t.zone <= zone + reach and target_refusal(state, card, t) is None
        ]
    if card.kind == "assassin":  # kills enemy Specials only
        return [t.id for t in foes if t.zone == zone and close_refusal(card, t) is None]
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
