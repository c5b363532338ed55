"""What a seat may do now, as a bounded list with the time-out default first."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines.ambush import rules
from engines.ambush.cards import EFFECT_OF, NEEDS_TARGET
from engines.ambush.grid import SPIRAL_CELLS, Cell, cell_json, first_free_cell, free_cells
from engines.ambush.state import AmbushState

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
    # Listings run for every seat after every move: the per-cell actions, the call and the
    # resign are shared pieces (``AmbushState.cell_entries``, ``AmbushState.bystander``), so a
    # listing is mostly one C-level map, and a listing that is the same for several seats is
    # one list. Calls are allowed exactly in the turn phase (``race.can_call``; the seat is
    # alive here).
    call, resign = state.bystander
    if phase == "ambush":
        # Every seat may grab any card down: one listing per revision for all of them.
        if state.grabs_at != state.revision:
            state.grabs = [*map(state.grab_actions.__getitem__, state.cells_in_order()), resign]
            state.grabs_at = state.revision
        return state.grabs
    if phase == "turn":
        if seat != state.turn:
            return state.bystander
        if state.step == "expose":
            actions = list(map(state.expose_actions.__getitem__, _free_cells(state)))
        else:
            actions = [{"type": "pass"}, *_plays(state, seat)]
        actions.append(call)
    elif phase == "placing" and seat == state.turn:
        actions = list(map(state.place_actions.__getitem__, _free_cells(state)))
    elif phase == "returning" and state.returning is not None:
        owed = state.returning.owed.get(seat)
        actions = []
        if owed:
            actions.append({"type": "return", "cards": default_return(state, seat, owed)})
    else:
        actions = []
    actions.append(resign)
    return actions


def _free_cells(state: AmbushState) -> Iterable[Cell]:
    """The free cells in spiral order, the reserved cell left out, from the frontier the
    state carries (``AmbushState.free_indices``)."""
    free = state.free_indices()
    blocked = rules.placement_blocked(state)
    if free is None:
        return free_cells(state.grid, blocked)
    cells = map(SPIRAL_CELLS.__getitem__, free)
    return [cell for cell in cells if cell not in blocked] if blocked else cells


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
    free = state.free_indices()  # nothing is reserved in the play step
    cell = cell_json(first_free_cell(state.grid) if free is None else SPIRAL_CELLS[free[0]])
    down = state.cells_in_order()
    opponents = state.living_now().opponents[seat]
    plays: list[dict[str, Any]] = []
    # Distinct cards in card order, from the sorted hand the seat's view also shows.
    for card_id in dict.fromkeys(state.sorted_hand(seat)):
        effect = EFFECT_OF[card_id]
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
