"""The battlefield grid: cells, 4-adjacency, the fixed spiral order and where a card may go."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

Cell = tuple[int, int]

DECK_CELL: Cell = (0, 0)
# 52 cards in a line from the deck reach ring 53; ring 60 covers every reachable cell.
_RINGS = 60
_COORD_LIMIT = 1000


def _spiral(rings: int) -> dict[Cell, int]:
    """Cells ring by ring around the deck, each ring walked counter-clockwise from the east."""
    order: dict[Cell, int] = {DECK_CELL: 0}
    for r in range(1, rings + 1):
        walk: list[Cell] = [(r, y) for y in range(-r + 1, r + 1)]
        walk += [(x, r) for x in range(r - 1, -r - 1, -1)]
        walk += [(-r, y) for y in range(r - 1, -r - 1, -1)]
        walk += [(x, -r) for x in range(-r + 1, r + 1)]
        for cell in walk:
            order[cell] = len(order)
    return order


SPIRAL: dict[Cell, int] = _spiral(_RINGS)


def spiral_key(cell: Cell) -> int:
    """The cell's place in the fixed spiral order (cells beyond the rings sort last)."""
    key = SPIRAL.get(cell)
    return len(SPIRAL) + abs(cell[0]) + abs(cell[1]) if key is None else key


# Every card down or free cell lies within ring 54 (52 cards in a row from the deck), so the
# hot paths (views, listings) sort with a plain lookup.
spiral_index = SPIRAL.__getitem__


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    x, y = cell
    return ((x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1))


class _Neighbours(dict[Cell, tuple[Cell, Cell, Cell, Cell]]):
    """Each cell's four neighbours, memoised as cells come up: free-cell listings run for every
    turn and building the neighbour tuples each time was most of their cost. Bounded by the
    cells a card can reach (ring 53); the values never change, so this is not game state."""

    def __missing__(self, cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
        around = self[cell] = neighbours(cell)
        return around


_NEIGHBOURS = _Neighbours()


def _full_frontier(grid: Mapping[Cell, Any]) -> set[Cell]:
    """The empty cells next to a card down (or next to the deck while the battlefield is
    empty)."""
    # One C-level union over the memoised neighbour tuples (no Python loop per card).
    found: set[Cell] = set().union(*map(_NEIGHBOURS.__getitem__, grid or (DECK_CELL,)))
    found.difference_update(grid)
    found.discard(DECK_CELL)
    return found


def _carried_frontier(grid: Mapping[Cell, Any], memo: dict[str, Any]) -> set[Cell]:
    """``_full_frontier(grid)``, carried over from the last call on this ``memo`` when the grid
    only gained cards since (a turn adds one or two), instead of a union over every card twice
    a turn. The memo keeps the cells it was built from, so any other change (grabs, a shuffle
    back, a state edited by hand) rebuilds it. The set returned is shared with the memo: do
    not mutate it."""
    keys = grid.keys()
    last: tuple[set[Cell], set[Cell]] | None = memo.get("frontier")
    if last is not None and last[0] and keys >= last[0]:
        before, free = last
        added = keys - before
        if not added:
            return free
        free = free - added
        for cell in added:
            for near in _NEIGHBOURS[cell]:
                if near not in grid:
                    free.add(near)
        free.discard(DECK_CELL)
    else:
        free = _full_frontier(grid)
    memo["frontier"] = (set(keys), free)
    return free


def _frontier(
    grid: Mapping[Cell, Any], blocked: Collection[Cell], memo: dict[str, Any] | None
) -> set[Cell]:
    """The free cells: the frontier less ``blocked`` cells, which are neither free nor anchors.
    The result may be shared with ``memo``: do not mutate it."""
    found = _full_frontier(grid) if memo is None else _carried_frontier(grid, memo)
    return found.difference(blocked) if blocked else found


def free_cells(
    grid: Mapping[Cell, Any], blocked: Collection[Cell] = (), memo: dict[str, Any] | None = None
) -> list[Cell]:
    """Cells where a card may go now, in spiral order.

    A card goes on an empty cell 4-adjacent to a card already down, or next to the deck while
    the battlefield is empty. ``blocked`` cells (a played card's reserved cell) are not free
    but are not cards either, so nothing becomes adjacent through them. ``memo`` (a dict kept
    beside the state, e.g. ``AmbushState.view_memo``) carries the frontier between calls.
    """
    return sorted(_frontier(grid, blocked, memo), key=spiral_index)


def first_free_cell(
    grid: Mapping[Cell, Any], blocked: Collection[Cell] = (), memo: dict[str, Any] | None = None
) -> Cell:
    """``free_cells(grid, blocked, memo)[0]`` without sorting the rest (spiral keys are
    unique)."""
    return min(_frontier(grid, blocked, memo), key=spiral_index)


def is_free(grid: Mapping[Cell, Any], cell: Cell, blocked: Collection[Cell] = ()) -> bool:
    """Whether ``cell`` is empty (not the deck, not a card, not reserved)."""
    return cell != DECK_CELL and cell not in grid and cell not in blocked


def is_adjacent(grid: Mapping[Cell, Any], cell: Cell) -> bool:
    """Whether ``cell`` touches a card down (or the deck while the battlefield is empty)."""
    x, y = cell
    if not grid:
        return abs(x) + abs(y) == 1  # the deck's four neighbours
    return (x + 1, y) in grid or (x, y + 1) in grid or (x - 1, y) in grid or (x, y - 1) in grid


def parse_cell(value: Any) -> Cell | None:
    """``[x, y]`` (two plain ints) as a Cell, or None when malformed."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    x, y = value
    if type(x) is int and type(y) is int:  # the usual case, without the loop below
        return (
            (x, y)
            if -_COORD_LIMIT <= x <= _COORD_LIMIT and -_COORD_LIMIT <= y <= _COORD_LIMIT
            else None
        )
    for v in (x, y):
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > _COORD_LIMIT:
            return None
    return (x, y)


def cell_json(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]
