"""What a seat may do now, as a bounded list with the time-out default first."""

from __future__ import annotations

from typing import Any

from engines.ambush import rules
from engines.ambush.cards import CARD_ORDER, CARDS, NEEDS_TARGET
from engines.ambush.grid import cell_json, first_free_cell, free_cells
from engines.ambush.state import AmbushState

RESIGN: dict[str, Any] = {"type": "resign"}
CALL: dict[str, Any] = {"type": "call_ambush"}
PASS: dict[str, Any] = {"type": "pass"}
# Trickster swaps are listed among the first few face-down cells only: every pair would be
# quadratic in the battlefield, and ``apply`` accepts any legal pair anyway.
_SWAP_CELLS = 4
_NO_TARGET: list[int | None] = [None]


def legal_actions(state: AmbushState, seat: int) -> list[dict[str, Any]]:
    """The seat's actions now: the default first (first spiral cell, pass, the most recent
    captures at the hand limit); calls and grabs for everyone; resign last."""
    phase = state.phase
    if phase == "over" or not 0 <= seat < state.seats or not state.alive[seat]:
        return []
    # Listings run for every seat after every move: the per-cell actions are shared pieces
    # (``AmbushState.per_cell``), so a listing is mostly one C-level map. Calls are allowed
    # exactly in the turn phase (``race.can_call``; the seat is alive here).
    if phase == "ambush":
        actions = list(map(state.per_cell("grab").__getitem__, state.cells_in_order()))
    elif phase == "turn":
        if seat != state.turn:
            return [dict(CALL), dict(RESIGN)]
        if state.step == "expose":
            cells = free_cells(state.grid, (), state.view_memo)
            actions = list(map(state.per_cell("expose").__getitem__, cells))
        else:
            actions = [dict(PASS), *_plays(state, seat)]
        actions.append(dict(CALL))
    elif phase == "placing" and seat == state.turn:
        cells = free_cells(state.grid, rules.placement_blocked(state), state.view_memo)
        actions = list(map(state.per_cell("place").__getitem__, cells))
    elif phase == "returning" and state.returning is not None:
        owed = state.returning.owed.get(seat)
        actions = []
        if owed:
            actions.append({"type": "return", "cards": default_return(state, seat, owed)})
    else:
        actions = []
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
    cell = cell_json(first_free_cell(state.grid, (), state.view_memo))
    down = state.cells_in_order()
    opponents: list[int | None] = [s for s in state.living() if s != seat]
    plays: list[dict[str, Any]] = []
    for card_id in sorted(set(state.hands[seat]), key=CARD_ORDER.__getitem__):
        effect = CARDS[card_id].effect
        for target in opponents if NEEDS_TARGET[card_id] else _NO_TARGET:
            base: dict[str, Any] = {"type": "play", "card": card_id, "target": target, "cell": cell}
            if effect == "look" and down:
                # The first cell this seat has not looked at (any cell if it knows them all).
                looks = state.looks[seat]
                unknown = next((c for c in down if c not in looks), down[0])
                plays.append({**base, "look": cell_json(unknown)})
            elif effect == "swap" and len(down) >= 2:
                head = down[:_SWAP_CELLS]
                for i, a in enumerate(head):
                    for b in head[i + 1 :]:
                        plays.append({**base, "swap": [cell_json(a), cell_json(b)]})
            else:
                plays.append(base)
    return plays
