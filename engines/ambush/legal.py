"""What a seat may do now, as a bounded list with the time-out default first."""

from __future__ import annotations

from typing import Any

from engines.ambush import race, rules
from engines.ambush.cards import CARD_ORDER, CARDS
from engines.ambush.grid import Cell, cell_json, free_cells, spiral_index
from engines.ambush.state import AmbushState

RESIGN: dict[str, Any] = {"type": "resign"}
CALL: dict[str, Any] = {"type": "call_ambush"}
PASS: dict[str, Any] = {"type": "pass"}
# Trickster swaps are listed among the first few face-down cells only: every pair would be
# quadratic in the battlefield, and ``apply`` accepts any legal pair anyway.
_SWAP_CELLS = 4


def legal_actions(state: AmbushState, seat: int) -> list[dict[str, Any]]:
    """The seat's actions now: the default first (first spiral cell, pass, the most recent
    captures at the hand limit); calls and grabs for everyone; resign last."""
    if state.phase == "over" or not 0 <= seat < state.seats or not state.alive[seat]:
        return []
    actions: list[dict[str, Any]] = []
    on_turn = seat == state.turn
    if state.phase == "turn" and on_turn and state.step == "expose":
        cells = free_cells(state.grid)
        actions += [{"type": "expose", "cell": cell_json(c)} for c in cells]
    elif state.phase == "turn" and on_turn:
        actions.append(dict(PASS))
        actions += _plays(state, seat)
    elif state.phase == "placing" and on_turn:
        cells = free_cells(state.grid, rules.placement_blocked(state))
        actions += [{"type": "place", "cell": cell_json(c)} for c in cells]
    elif state.phase == "ambush":
        cells = sorted(state.grid, key=spiral_index)
        actions += [{"type": "grab", "cell": cell_json(c)} for c in cells]
    elif state.phase == "returning" and state.returning is not None:
        owed = state.returning.owed.get(seat)
        if owed:
            actions.append({"type": "return", "cards": default_return(state, seat, owed)})
    if race.can_call(state, seat):
        actions.append(dict(CALL))
    actions.append(dict(RESIGN))
    return actions


def default_return(state: AmbushState, seat: int, owed: int) -> list[str]:
    """What the time-out would return: the most recently captured cards."""
    chosen = state.recent[seat][-owed:]
    rest = list(state.hands[seat])
    for card in chosen:
        rest.remove(card)
    missing = owed - len(chosen)
    return (rest[len(rest) - missing :] if missing else []) + chosen


def _plays(state: AmbushState, seat: int) -> list[dict[str, Any]]:
    """Every card x target with the first free cell, the first look or a few swaps."""
    cell = cell_json(free_cells(state.grid)[0])
    down: list[Cell] = sorted(state.grid, key=spiral_index)
    unknown = [c for c in down if c not in state.looks[seat]] or down
    opponents = [s for s in state.living() if s != seat]
    plays: list[dict[str, Any]] = []
    for card_id in sorted(set(state.hands[seat]), key=CARD_ORDER.__getitem__):
        card = CARDS[card_id]
        targets: list[int | None] = list(opponents) if card.needs_target else [None]
        for target in targets:
            base: dict[str, Any] = {"type": "play", "card": card_id, "target": target, "cell": cell}
            if card.effect == "look" and unknown:
                plays.append({**base, "look": cell_json(unknown[0])})
            elif card.effect == "swap" and len(down) >= 2:
                head = down[:_SWAP_CELLS]
                for i, a in enumerate(head):
                    for b in head[i + 1 :]:
                        plays.append({**base, "swap": [cell_json(a), cell_json(b)]})
            else:
                plays.append(base)
    return plays
